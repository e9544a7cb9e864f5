/**
 * The drift allowance: how much wider a vehicle interval gets per month between the newest market
 * data and the valuation date. Measured on forward splits in time (a model fitted on the snapshots
 * before one, scoring that one): the part of each held-out residual that the in-period interval
 * does not cover, per month of gap, and its conformal quantile; the service uses the largest any
 * split needed (the next period's move is unknown). Linear in the months: a level held flat while
 * the market trends falls behind in proportion to the time (the domestic index rose 18.5% in the
 * 14 months to August 2023), which a random walk's √months would understate.
 */
import { CONFIDENCE_LEVELS, type ConfidenceLevel } from '../ensemble/confidence';
import { conformalQuantile } from '../ensemble/conformal';

export interface ForwardSplitDrift {
  /** The snapshot scored and the newest one the model was fitted on. */
  test: string;
  newestTrained: string;
  months: number;
  rows: number;
  /** The allowance per month this split alone needs for the stated coverage. */
  perMonth: number;
}

export interface DriftAllowance {
  /** Log half-width per month past the newest data, added in quadrature to the calibrated one. */
  perMonth: number;
  /**
   * The same per confidence level (Mondrian by level, the level read from the in-period width and
   * the group's forward accuracy, before the allowance): a model whose price moved on its own in
   * one split tends to again, and a level without its own allowance would not hold its coverage.
   * A level with fewer than MIN_LEVEL_ROWS held-out rows uses `perMonth`.
   */
  byLevel: Partial<Record<ConfidenceLevel, { perMonth: number; rows: number }>>;
  coverage: number;
  protocol: string;
  splits: ForwardSplitDrift[];
}

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

/** Held-out rows a confidence level needs for an allowance of its own. */
export const MIN_LEVEL_ROWS = 200;

/** The allowance per month of each level with enough rows. */
export function allowanceByLevel(required: ArrayLike<number>, levels: readonly ConfidenceLevel[], coverage: number): DriftAllowance['byLevel'] {
  const byLevel: DriftAllowance['byLevel'] = {};
  for (const level of CONFIDENCE_LEVELS) {
    const rows = levels.flatMap((l, i) => (l === level ? [required[i]] : []));
    if (rows.length >= MIN_LEVEL_ROWS) byLevel[level] = { perMonth: Math.round(allowanceRate(rows, coverage) * 1e5) / 1e5, rows: rows.length };
  }
  return byLevel;
}

/** The log half-width to add for a valuation `months` past the newest data, at its confidence level. */
export function driftAllowance(drift: Pick<DriftAllowance, 'perMonth'> & Partial<Pick<DriftAllowance, 'byLevel'>>, months: number, level?: ConfidenceLevel): number {
  const perMonth = (level && drift.byLevel?.[level]?.perMonth) ?? drift.perMonth;
  return perMonth * Math.max(0, months);
}
