/**
 * The drift rule: when an organisation's live accuracy (./accuracy.ts) says the valuations no
 * longer fit what it observes, with statistical confidence rather than on a bad month's noise.
 *
 * Over a window (overall, or one group), with at least DRIFT_MIN_OBSERVATIONS observations:
 * - bias flag when the 95% interval of the recency-weighted mean log residual lies wholly outside
 *   [−BIAS_BAND, +BIAS_BAND] (the valuations are, with 95% confidence, more than 3% low or high);
 * - coverage flag when the Wilson 95% interval of the interval coverage lies wholly outside
 *   [COVERAGE_BAND.low, COVERAGE_BAND.high] (the 90% intervals cover, with 95% confidence, under
 *   85% or over 95% of what is observed).
 * Below the minimum nothing is flagged: the verdict says there is not enough to judge.
 */
import type { LiveAccuracy } from './accuracy';

/** Observations in the window below which no flag is raised: 30. */
export const DRIFT_MIN_OBSERVATIONS = 30;
/** The bias band, on the log scale (±0.03 ≈ ±3%). */
export const BIAS_BAND = 0.03;
/** The band a 90% interval's coverage is held to. */
export const COVERAGE_BAND = { low: 0.85, high: 0.95 } as const;

export interface DriftRule {
  minObservations: number;
  biasBand: number;
  coverageBand: { low: number; high: number };
}

export const DRIFT_RULE: DriftRule = { minObservations: DRIFT_MIN_OBSERVATIONS, biasBand: BIAS_BAND, coverageBand: COVERAGE_BAND };

export interface DriftVerdict {
  /** Whether there were enough observations to judge. */
  judged: boolean;
  flagged: boolean;
  /** 'valuations low': prices observed above them; 'valuations high': below. */
  bias: 'valuations low' | 'valuations high' | null;
  coverage: 'under' | 'over' | null;
  reasons: string[];
}

export function driftOf(accuracy: LiveAccuracy, rule: DriftRule = DRIFT_RULE): DriftVerdict {
  if (accuracy.n < rule.minObservations) {
    return { judged: false, flagged: false, bias: null, coverage: null, reasons: [`${accuracy.n} observations, fewer than the ${rule.minObservations} the rule needs`] };
  }
  const reasons: string[] = [];
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const ci = accuracy.bias.ci95;
  let bias: DriftVerdict['bias'] = null;
  if (ci && ci.low > rule.biasBand) bias = 'valuations low';
  if (ci && ci.high < -rule.biasBand) bias = 'valuations high';
  if (bias && ci) reasons.push(`bias: the 95% interval of the mean log residual, ${pct(ci.low)} to ${pct(ci.high)}, lies outside ±${pct(rule.biasBand)}`);
  const { bounds95 } = accuracy.coverage;
  let coverage: DriftVerdict['coverage'] = null;
  if (bounds95.high < rule.coverageBand.low) coverage = 'under';
  if (bounds95.low > rule.coverageBand.high) coverage = 'over';
  if (coverage) reasons.push(`coverage: the Wilson 95% interval, ${pct(bounds95.low)} to ${pct(bounds95.high)}, lies outside ${pct(rule.coverageBand.low)}–${pct(rule.coverageBand.high)}`);
  return { judged: true, flagged: bias !== null || coverage !== null, bias, coverage, reasons };
}
