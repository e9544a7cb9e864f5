/**
 * The drift allowance: how much wider a vehicle interval gets per month between the newest market
 * data and the valuation date. Measured on forward splits in time (a model fitted on the snapshots
 * before one, scoring that one): the part of each held-out residual that the in-period interval
 * does not cover, per month of gap, and its conformal quantile. Linear in the months: the measured
 * moves were steady trends (+17% to +21% a year), not a random walk that would grow as √months.
 */
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

/** The log half-width to add for a valuation `months` past the newest data. */
export function driftAllowance(drift: Pick<DriftAllowance, 'perMonth'>, months: number): number {
  return drift.perMonth * Math.max(0, months);
}
