/**
 * The confidence rule: what the service says about how far to trust one estimate, for any kind of
 * collateral. The group is the district for homes, the make/model group for vehicles.
 *
 * Confidence score (0–1) = 0.5·width + 0.2·agreement + 0.3·group, minus 0.1 per anomaly flag, where
 *   width     = 1 at a relative interval width (high−low)/estimate of W1 or less, 0 at W0 or more, linear between
 *               (W1, W0 = 0.2, 0.8 unless the model's manifest sets its own, see ConfidenceWidths);
 *   agreement = 1 when the ensemble members agree, 0 at a relative spread of 0.3;
 *   group     = 1, 0.8, 0.6, 0.4 for the group's held-out accuracy class high, medium, moderate, low.
 * Level: high ≥ 0.75, medium ≥ 0.5, else low; a group of low accuracy class is never 'high'.
 */

import { median } from './metrics';

export const CONFIDENCE_LEVELS = ['high', 'medium', 'low'] as const;
export type ConfidenceLevel = (typeof CONFIDENCE_LEVELS)[number];
export type AccuracyClass = 'high' | 'medium' | 'moderate' | 'low';

const GROUP_SCORE: Record<AccuracyClass, number> = { high: 1, medium: 0.8, moderate: 0.6, low: 0.4 };

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
 * ~20%): it carries STALE_DATA_FLAG and is never rated high. Every kind uses the same rule.
 */
export const STALE_DATA_MONTHS = 12;
export const STALE_DATA_FLAG = 'MARKET_DATA_OLDER_THAN_12_MONTHS';

/** The flags a valuation's data age raises: STALE_DATA_FLAG past STALE_DATA_MONTHS, else none. */
export function dataAgeFlags(dataAgeMonths: number): string[] {
  return dataAgeMonths > STALE_DATA_MONTHS ? [STALE_DATA_FLAG] : [];
}

/**
 * The rule for a valuation whose flags may include STALE_DATA_FLAG: scored on its other flags (the
 * data's age is stated apart, in its market level), and capped at medium when the data is stale.
 */
export function confidenceWithDataAge(relativeWidth: number, modelSpread: number, groupClass: AccuracyClass, flags: readonly string[], widths?: ConfidenceWidths): { level: ConfidenceLevel; score: number } {
  const stale = flags.includes(STALE_DATA_FLAG);
  const rated = confidence(relativeWidth, modelSpread, groupClass, flags.length - (stale ? 1 : 0), widths);
  return stale && rated.level === 'high' ? { ...rated, level: 'medium' } : rated;
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
}

/**
 * The confidence level each held-out valuation would get at best (its own interval width and its
 * group's class, with full model agreement and no anomaly flag), and the accuracy at each level.
 */
export function accuracyByConfidence<R extends { actual: number; predicted: number; low: number; high: number }>(
  rows: readonly R[], classOf: (row: R) => AccuracyClass, widths: ConfidenceWidths = DEFAULT_CONFIDENCE_WIDTHS,
  /** The width the rule reads, when not the interval's own (vehicles: the width before the drift allowance). */
  widthOf: (row: R) => number = (r) => (r.high - r.low) / r.predicted,
): ConfidenceLevelAccuracy[] {
  const groups = new Map<ConfidenceLevel, { ape: number[]; covered: number }>();
  for (const r of rows) {
    const { level } = confidence(widthOf(r), 0, classOf(r), 0, widths);
    const g = groups.get(level) ?? { ape: [], covered: 0 };
    g.ape.push(Math.abs(r.actual - r.predicted) / r.actual);
    if (r.actual >= r.low && r.actual <= r.high) g.covered++;
    groups.set(level, g);
  }
  return CONFIDENCE_LEVELS.filter((l) => groups.has(l)).map((level) => {
    const g = groups.get(level)!;
    return { level, n: g.ape.length, medianApe: median(g.ape), ppe10: g.ape.filter((a) => a <= 0.1).length / g.ape.length, ppe20: g.ape.filter((a) => a <= 0.2).length / g.ape.length, coverage: g.covered / g.ape.length };
  });
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x));
}
