/**
 * The promotion gate: a new version replaces the current one only if it is not worse on the same
 * evaluation. Same data snapshot → the same headline test rows, so the recorded headline numbers
 * are compared; a new snapshot → the current version is scored on the new version's test rows.
 */
import type { AccuracyMetrics } from '../ensemble/metrics';

/** What the gate reads of any kind's manifest. */
export interface PromotionCandidate {
  evaluation: { headline: { overall: AccuracyMetrics }; kfold?: { overall: AccuracyMetrics } };
}

/**
 * MAPE may rise by at most this much (noise between runs). Coverage must stay within a sanity band:
 * an interval that misses far more, or far fewer, prices than it states is broken. (The quality
 * target, 88–92% overall and per district, is reported in the model card, not enforced here.)
 */
export const MAPE_TOLERANCE = 0.003;
export const COVERAGE_BAND = [0.85, 0.95] as const;

export interface PromotionDecision {
  promote: boolean;
  reason: string;
}

/**
 * @param coverageFrom which evaluation's coverage the sanity band checks: the headline for homes;
 * k-fold for vehicles, whose served intervals carry a drift allowance the headline model has not.
 */
export function decidePromotion(candidate: PromotionCandidate, current: { version: string; mapeOnSameEvaluation: number } | null, coverageFrom: 'headline' | 'kfold' = 'headline'): PromotionDecision {
  const { mape } = candidate.evaluation.headline.overall;
  const view = candidate.evaluation[coverageFrom];
  if (!view) throw new Error(`the candidate has no ${coverageFrom} evaluation to read coverage from`);
  const { intervalCoverage } = view.overall;
  if (intervalCoverage < COVERAGE_BAND[0] || intervalCoverage > COVERAGE_BAND[1]) {
    return { promote: false, reason: `${coverageFrom} interval coverage ${(intervalCoverage * 100).toFixed(1)}% is outside ${COVERAGE_BAND[0] * 100}–${COVERAGE_BAND[1] * 100}%` };
  }
  if (!current) return { promote: true, reason: 'no version in service yet' };
  if (mape > current.mapeOnSameEvaluation + MAPE_TOLERANCE) {
    return { promote: false, reason: `MAPE ${(mape * 100).toFixed(2)}% is worse than ${current.version}'s ${(current.mapeOnSameEvaluation * 100).toFixed(2)}% on the same evaluation` };
  }
  return { promote: true, reason: `MAPE ${(mape * 100).toFixed(2)}% vs ${current.version}'s ${(current.mapeOnSameEvaluation * 100).toFixed(2)}% on the same evaluation` };
}
