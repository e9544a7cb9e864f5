/**
 * Past the newest data the calibrated interval widens by a drift allowance, added in quadrature
 * (independent errors). Two rules, one per way a kind knows its market's drift; serving evaluates
 * them from the manifest, training measures them (./forward-drift.ts) or reads them off an index.
 */
import type { ConfidenceLevel } from '../ensemble/confidence';

/**
 * A random walk's allowance: z · volatility · √months, both read from a market index fitted on the
 * same rows (homes). Known before calibration, so calibration scores are net of it.
 */
export interface RandomWalkDrift {
  /** z of the coverage the allowance is stated at. */
  allowanceZ: number;
  /** The index level's volatility per √month. */
  volatilityPerMonth: number;
}

/**
 * A linear allowance, per month of gap (vehicles): measured on forward splits in time on top of the
 * in-period interval, so a level held flat while the market trends is covered in proportion to the time.
 */
export interface LinearDrift {
  /** Log half-width per month past the newest data. */
  perMonth: number;
  /** The same per confidence level where a level had enough held-out rows of its own. */
  byLevel?: Partial<Record<ConfidenceLevel, { perMonth: number; rows: number }>>;
}

/** The vehicle manifest's `drift`: a linear allowance and how it was measured (./forward-drift.ts). */
export interface MeasuredDrift extends LinearDrift {
  /**
   * Per confidence level (Mondrian by level, the level read from the in-period width and the group's
   * forward accuracy, before the allowance): a model whose price moved on its own in one split
   * tends to again, and a level without its own allowance would not hold its coverage. A level with
   * fewer than MIN_LEVEL_ROWS held-out rows in every split uses `perMonth`.
   */
  byLevel: NonNullable<LinearDrift['byLevel']>;
  coverage: number;
  protocol: string;
  splits: ForwardSplitDrift[];
}

/** One forward split's measurement: fitted on the snapshots before `test`, scoring it. */
export interface ForwardSplitDrift {
  /** The snapshot scored and the newest one the model was fitted on. */
  test: string;
  newestTrained: string;
  months: number;
  rows: number;
  /** The allowance per month this split alone needs for the stated coverage. */
  perMonth: number;
}

/** The allowance of a random walk for a valuation `months` past the newest data. */
export function randomWalkAllowance(drift: RandomWalkDrift, months: number): number {
  return drift.allowanceZ * drift.volatilityPerMonth * Math.sqrt(months);
}

/** The linear allowance for a valuation `months` past the newest data, at its confidence level. */
export function linearAllowance(drift: LinearDrift, months: number, level?: ConfidenceLevel): number {
  const perMonth = (level && drift.byLevel?.[level]?.perMonth) ?? drift.perMonth;
  return perMonth * Math.max(0, months);
}

/**
 * The log half-width of an interval: the calibrated one and the drift allowance as independent
 * errors. Training's evaluation and serving both call this, so what was measured is what is served.
 */
export function combinedHalfWidth(calibrated: number, allowance = 0): number {
  return Math.hypot(calibrated, allowance);
}

/** The served half-width past the newest data, and how much wider than within the data that makes the interval. */
export function withDriftAllowance(calibrated: number, allowance: number): { halfWidth: number; widening: number } {
  const halfWidth = combinedHalfWidth(calibrated, allowance);
  return { halfWidth, widening: intervalWidening(halfWidth, calibrated) };
}

/**
 * How much wider (relative: 0.05 = 5%) an interval of log half-width `halfWidth` is than the same
 * valuation within the data (`calibrated`): high − low = 2·estimate·sinh(q). 0 when no wider.
 */
export function intervalWidening(halfWidth: number, calibrated: number): number {
  return halfWidth > calibrated ? Math.round((Math.sinh(halfWidth) / Math.sinh(calibrated) - 1) * 1000) / 1000 : 0;
}
