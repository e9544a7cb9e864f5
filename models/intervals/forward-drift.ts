/**
 * The linear drift allowance measured on forward splits in time (a model fitted on the snapshots
 * before one, scoring that one): the part of each held-out residual that the in-period interval
 * does not cover, per month of gap, and its conformal quantile. The service uses the largest any
 * split needed, since the next period's move is unknown. Linear in the months: a level held flat
 * while the market trends falls behind in proportion to the time, which a random walk's √months
 * would understate. Training only.
 */
import { CONFIDENCE_LEVELS, type ConfidenceLevel } from '../ensemble/confidence';
import { conformalQuantile } from './conformal';
import type { LinearDrift, MeasuredDrift } from './drift';

/** Held-out rows a confidence level needs in a split for an allowance of its own. */
export const MIN_LEVEL_ROWS = 200;

/** One forward split's held-out rows: the allowance per month each needs, and its confidence level. */
export interface SplitResiduals {
  required: ArrayLike<number>;
  levels: readonly ConfidenceLevel[];
}

type Rates = Pick<MeasuredDrift, 'perMonth' | 'byLevel'>;

/**
 * Per held-out row, the allowance per month that would just cover it: the residual's part beyond the
 * calibrated half-width (in quadrature, as combinedHalfWidth adds them), over the months of gap.
 */
export function requiredPerMonth(absResiduals: ArrayLike<number>, calibratedHalfWidths: ArrayLike<number>, months: number): Float64Array {
  return Float64Array.from(absResiduals as ArrayLike<number>, (r, i) => Math.sqrt(Math.max(0, r * r - calibratedHalfWidths[i] ** 2)) / Math.max(1, months));
}

/** The per-month allowance that covers `coverage` of the rows (finite-sample conformal quantile). */
export function allowanceRate(required: ArrayLike<number>, coverage: number): number {
  return required.length ? conformalQuantile(required, coverage) : 0;
}

/** The allowance per month of each level with enough rows. */
export function allowanceByLevel(required: ArrayLike<number>, levels: readonly ConfidenceLevel[], coverage: number): NonNullable<LinearDrift['byLevel']> {
  const byLevel: NonNullable<LinearDrift['byLevel']> = {};
  for (const level of CONFIDENCE_LEVELS) {
    const rows = levels.flatMap((l, i) => (l === level ? [required[i]] : []));
    if (rows.length >= MIN_LEVEL_ROWS) byLevel[level] = { perMonth: round5(allowanceRate(rows, coverage)), rows: rows.length };
  }
  return byLevel;
}

/** The largest rate per month any of `splits` needed, overall and per level. */
export function measuredRates(splits: readonly SplitResiduals[], coverage: number): Rates {
  const measured = splits.map((s) => ({ perMonth: allowanceRate(s.required, coverage), byLevel: allowanceByLevel(s.required, s.levels, coverage) }));
  const byLevel: Rates['byLevel'] = {};
  for (const level of CONFIDENCE_LEVELS) {
    const entries = measured.flatMap((m) => (m.byLevel[level] ? [m.byLevel[level]!] : []));
    if (entries.length) byLevel[level] = { perMonth: Math.max(...entries.map((e) => e.perMonth)), rows: entries.reduce((s, e) => s + e.rows, 0) };
  }
  return { perMonth: round5(Math.max(...measured.map((m) => m.perMonth))), byLevel };
}

/** The served allowance: the largest any split needed, with how it was measured. */
export function measuredDrift(splits: readonly (SplitResiduals & { drift: MeasuredDrift['splits'][number] })[], coverage: number): MeasuredDrift {
  return {
    ...measuredRates(splits, coverage),
    coverage,
    protocol: `per forward split, the part of each held-out |log residual| beyond its in-period half-width (in quadrature), per month of gap, and its ${coverage * 100}% conformal quantile, overall and per confidence level; the largest over the ${splits.length} split(s)`,
    splits: splits.map((s) => s.drift),
  };
}

const round5 = (x: number) => Math.round(x * 1e5) / 1e5;
