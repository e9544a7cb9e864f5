/**
 * Recalibration of an organisation's intervals on its own observations: split-conformal, per group
 * of the hierarchy, on scores taken after adjustment.
 *
 * Score. s = |log(price) − log(adjusted estimate)| / h, h = (log high − log low) / 2 the model's own
 * log half-width for that valuation: the error in units of the model's interval, so one group's
 * scores carry over across price levels and across the model's wider and narrower intervals. The
 * model's own interval is s ≤ 1; a recalibrated one is adjusted · exp(±q·h).
 *
 * Quantile. q is the weighted conformal quantile (models/intervals/conformal.ts): the smallest
 * score whose cumulative recency weight reaches coverage × (Σ weights + 1), the new valuation
 * counting 1 (the finite-sample correction). The group's weights are first scaled to sum to their
 * Kish effective count (Σw)²/Σw², so that the new valuation counts as one observation's worth
 * whatever the weights' scale: recency ranks the scores, it does not make old evidence scarce.
 *
 * The scores must be out of sample: each observation's adjusted estimate comes from factors fitted
 * without it (./model.ts cross-fits them), or the scores would be too small by the adjustment's own
 * fit to the observation.
 *
 * Floor. A recalibrated half-width is at least MIN_WIDTH_RATIO of the model's own within its data
 * (./adjust.ts applies it): an organisation's observations may narrow the model's interval, never
 * collapse it (see the constant). Within the data that is q ≥ MIN_WIDTH_RATIO; past it, the part of
 * the model's width that allows for the market's unknown move since (marketLevel.intervalWidening)
 * is what the organisation's own prices measure, so it is not floored.
 *
 * Groups. A group gets its own q from MIN_RECALIBRATION_N effective observations (Σ weights); a
 * valuation uses the lowest group on its path that has one, else the model's own interval.
 */
import { conformalQuantile } from '../intervals/conformal';
import { groupKeys } from './groups';

/**
 * The effective observations (Kish's count of the recency weights, (Σw)²/Σw²) a group needs for its own interval quantile: 30.
 * Nine are the least for which a 90% conformal quantile exists at all ((n + 1)·0.9 ≤ n); with 30
 * the interval's coverage given its calibration scores is Beta(28, 3) distributed, sd 5 points
 * around its mean 90.3%, against 10 points at n = 9. Set before any measurement.
 */
export const MIN_RECALIBRATION_N = 30;

/**
 * The narrowest a recalibrated interval may be, in units of the model's own within its data: half
 * as wide. Prices
 * that agree too well (appraisals that copy one another, a valuer's template, one price entered
 * for a whole block) would otherwise shrink the interval toward nothing, and a lender would take
 * an interval of one price at its word. Set on that principle, before measuring anything with it.
 */
export const MIN_WIDTH_RATIO = 0.5;

export interface RecalibrationItem {
  groups: readonly string[];
  /** The normalised out-of-sample score. */
  score: number;
  weight: number;
}

export interface RecalibrationGroup {
  key: string;
  level: number;
  observations: number;
  effectiveN: number;
  /** The quantile of the scores, in units of the model's log half-width (before the floor: ./adjust.ts). */
  q: number;
}

export interface Recalibration {
  coverage: number;
  minEffectiveN: number;
  /** Only the groups with at least minEffectiveN. */
  groups: Record<string, RecalibrationGroup>;
}

/** The model's log half-width of a valuation: (log high − log low) / 2. */
export function logHalfWidth(valuation: { low: number; high: number }): number {
  return (Math.log(valuation.high) - Math.log(valuation.low)) / 2;
}

/**
 * The model's log half-width within its data: the served one less the allowance for the months past
 * the newest data (high − low = 2·estimate·sinh(h), and the widening is the ratio of the two sinh − 1).
 */
export function withinDataLogHalfWidth(valuation: { low: number; high: number; widening?: number }): number {
  const h = logHalfWidth(valuation);
  const widening = valuation.widening ?? 0;
  return widening > 0 ? Math.asinh(Math.sinh(h) / (1 + widening)) : h;
}

/** |log(price) − log(estimate)| in units of the half-width h. */
export function normalisedScore(priceUsd: number, estimate: number, halfWidth: number): number {
  return Math.abs(Math.log(priceUsd) - Math.log(estimate)) / halfWidth;
}

/** Each group's conformal quantile where its effective count reaches `minEffectiveN`. */
export function fitRecalibration(items: readonly RecalibrationItem[], coverage: number, minEffectiveN = MIN_RECALIBRATION_N): Recalibration {
  const members = new Map<string, { level: number; rows: number[]; sumW: number; sumW2: number }>();
  items.forEach((item, i) => {
    if (!(item.weight > 0) || !Number.isFinite(item.score)) return;
    groupKeys(item.groups).forEach((key, level) => {
      const entry = members.get(key) ?? { level, rows: [], sumW: 0, sumW2: 0 };
      entry.rows.push(i);
      entry.sumW += item.weight;
      entry.sumW2 += item.weight * item.weight;
      members.set(key, entry);
    });
  });
  const groups: Record<string, RecalibrationGroup> = {};
  for (const [key, { level, rows, sumW, sumW2 }] of members) {
    const effectiveN = (sumW * sumW) / sumW2;
    if (effectiveN < minEffectiveN) continue;
    const scale = sumW / sumW2; // Σ (w·scale) = effectiveN
    const q = conformalQuantile(rows.map((i) => items[i].score), coverage, rows.map((i) => items[i].weight * scale));
    groups[key] = { key, level, observations: rows.length, effectiveN, q };
  }
  return { coverage, minEffectiveN, groups };
}

/** The recalibrated group that applies to a path: the lowest with its own quantile, or null (the model's own interval). */
export function recalibrationFor(recalibration: Recalibration, groups: readonly string[]): RecalibrationGroup | null {
  const keys = groupKeys(groups);
  for (let level = keys.length - 1; level >= 0; level--) {
    const found = recalibration.groups[keys[level]];
    if (found) return found;
  }
  return null;
}
