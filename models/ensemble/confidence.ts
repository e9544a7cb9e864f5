/**
 * The trained confidence rule: a tier of how far to trust one estimate from its interval's width,
 * the ensemble's agreement and its group's held-out accuracy. Vehicles calibrate their drift
 * allowance per tier; what a client is told is the FSD of the interval served (./fsd.ts).
 * The group is the district for homes, the make/model group for vehicles.
 *
 * Confidence score (0–1) = 0.5·width + 0.2·agreement + 0.3·group, minus 0.1 per anomaly flag, where
 *   width     = 1 at a relative interval width (high−low)/estimate of W1 or less, 0 at W0 or more, linear between
 *               (W1, W0 = 0.2, 0.8 unless the model's manifest sets its own, see ConfidenceWidths);
 *   agreement = 1 when the ensemble members agree, 0 at a relative spread of 0.3;
 *   group     = 1, 0.8, 0.6, 0.4 for the group's held-out accuracy class high, good, fair, low.
 * Level: high ≥ 0.75, medium ≥ 0.5, else low; a group of low accuracy class is never 'high'.
 */

import { CONFIDENCE_LEVELS, forecastStandardDeviation, levelOfFsd, type ConfidenceLevel } from './fsd';
import { median, wilsonBounds, type AccuracyClass } from './metrics';

export { CONFIDENCE_LEVELS, type ConfidenceLevel } from './fsd';
export type { AccuracyClass } from './metrics';

const GROUP_SCORE: Record<AccuracyClass, number> = { high: 1, good: 0.8, fair: 0.6, low: 0.4 };

/**
 * The ends of the width term: full marks at `full` or narrower, none at `none` or wider. Residential
 * sets them from its own leave-one-source-out widths (10th and 90th percentiles): under shift its
 * intervals are 50–120% wide, where fixed ends of 0.2 and 0.8 put nearly every flat at 'low' and
 * did not order the errors.
 */
export interface ConfidenceWidths {
  full: number;
  none: number;
}
export const DEFAULT_CONFIDENCE_WIDTHS: ConfidenceWidths = { full: 0.2, none: 0.8 };

/**
 * A valuation dated more than this many months past the newest data it rests on has a market level
 * that is an extrapolation (for flats, the index's own history shows a year's extrapolation off by
 * ~20%): it carries STALE_DATA_FLAG, and its interval widens for the months (so its FSD, ./fsd.ts). Every kind uses the same rule.
 */
export const STALE_DATA_MONTHS = 12;
export const STALE_DATA_FLAG = 'MARKET_DATA_OLDER_THAN_12_MONTHS';

/** The flags a valuation's data age raises: STALE_DATA_FLAG past STALE_DATA_MONTHS, else none. */
export function dataAgeFlags(dataAgeMonths: number): string[] {
  return dataAgeMonths > STALE_DATA_MONTHS ? [STALE_DATA_FLAG] : [];
}

export function confidence(relativeWidth: number, modelSpread: number, groupClass: AccuracyClass, flagCount: number, widths: ConfidenceWidths = DEFAULT_CONFIDENCE_WIDTHS): { level: ConfidenceLevel; score: number } {
  const width = clamp(1 - (relativeWidth - widths.full) / (widths.none - widths.full));
  const agreement = clamp(1 - modelSpread / 0.3);
  const raw = 0.5 * width + 0.2 * agreement + 0.3 * GROUP_SCORE[groupClass] - 0.1 * flagCount;
  const score = Math.round(clamp(raw) * 100) / 100;
  let level: ConfidenceLevel = score >= 0.75 ? 'high' : score >= 0.5 ? 'medium' : 'low';
  if (level === 'high' && groupClass === 'low') level = 'medium';
  return { level, score };
}

/** Accuracy of held-out valuations at each confidence level. */
export interface ConfidenceLevelAccuracy {
  level: ConfidenceLevel;
  n: number;
  medianApe: number;
  ppe10: number;
  ppe20: number;
  coverage: number;
  /** Share of prices within ±FSD of the estimate (log terms), with Wilson 95% bounds: about 68% when the level is honest. Absent in manifests before issue 32. */
  withinFsd?: number;
  withinFsdBounds?: { low: number; high: number };
}

/**
 * The confidence level each held-out valuation is stated, the band of the FSD its own interval
 * implies (./fsd.ts: what serving states), and the accuracy at each level. `coverage` is the
 * interval's nominal coverage (0.9).
 */
export function accuracyByConfidence<R extends { actual: number; predicted: number; low: number; high: number }>(rows: readonly R[], coverage = 0.9): ConfidenceLevelAccuracy[] {
  const groups = new Map<ConfidenceLevel, { ape: number[]; covered: number; within: number }>();
  for (const r of rows) {
    const fsd = forecastStandardDeviation({ low: r.low, high: r.high, coverage });
    const level = levelOfFsd(fsd);
    const g = groups.get(level) ?? { ape: [], covered: 0, within: 0 };
    g.ape.push(Math.abs(r.actual - r.predicted) / r.actual);
    if (r.actual >= r.low && r.actual <= r.high) g.covered++;
    if (Math.abs(Math.log(r.actual / r.predicted)) <= fsd) g.within++;
    groups.set(level, g);
  }
  return CONFIDENCE_LEVELS.filter((l) => groups.has(l)).map((level) => {
    const g = groups.get(level)!;
    const n = g.ape.length;
    return {
      level, n, medianApe: median(g.ape), ppe10: g.ape.filter((a) => a <= 0.1).length / n, ppe20: g.ape.filter((a) => a <= 0.2).length / n, coverage: g.covered / n,
      withinFsd: g.within / n, withinFsdBounds: wilsonBounds(g.within, n),
    };
  });
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x));
}
