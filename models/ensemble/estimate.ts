/**
 * From the members' log predictions for one request to the estimate, each member's estimate, their
 * disagreement and the calibrated interval: the arithmetic every kind's runtime shares.
 */
import { combinedHalfWidth, intervalHalfWidth, pooledScale, type IntervalCalibration } from './conformal';

export interface EnsembleEstimate {
  /** Unrounded consensus estimate in USD. */
  estimate: number;
  memberEstimates: number[];
  /** (max − min) / estimate over the members that carry weight. */
  modelSpread: number;
  /** Unrounded interval in USD. */
  low: number;
  high: number;
  /** Log half-width of the interval, and what it would be without the allowance. */
  halfWidth: number;
  calibratedHalfWidth: number;
}

/**
 * @param memberLogs each member's log prediction (log price, or log price per unit)
 * @param units what the prediction is per: the area for homes, 1 for vehicles
 * @param sigma σ(x) from the interval-scale column (1 for plain conformal)
 * @param allowance extra log half-width for a valuation date past the newest data, added in quadrature
 */
export function ensembleEstimate(
  memberLogs: readonly number[], weights: readonly number[], units: number,
  calibration: IntervalCalibration, group: string, outOfDistributionFlags: number, sigma: number, allowance = 0,
): EnsembleEstimate {
  const consensus = consensusOf(memberLogs, weights);
  const memberEstimates = memberLogs.map((lp) => Math.exp(lp) * units);
  const estimate = Math.exp(consensus) * units;
  // Disagreement among the members that carry weight: a zero-weight member is reported, not trusted.
  const weighted = memberEstimates.filter((_, j) => weights[j] > 0);
  const modelSpread = weighted.length > 1 ? (Math.max(...weighted) - Math.min(...weighted)) / estimate : 0;
  const calibrated = intervalHalfWidth(calibration, group, outOfDistributionFlags) * pooledScale(sigma, calibration.scale?.pooling);
  const q = combinedHalfWidth(calibrated, allowance);
  return { estimate, memberEstimates, modelSpread, low: estimate * Math.exp(-q), high: estimate * Math.exp(q), halfWidth: q, calibratedHalfWidth: calibrated };
}

/**
 * How much wider (relative: 0.05 = 5%) an interval of log half-width `halfWidth` is than the same
 * valuation within the data (`calibratedHalfWidth`): high − low = 2·estimate·sinh(q). 0 without an allowance.
 */
export function intervalWidening(halfWidth: number, calibratedHalfWidth: number, allowance: number): number {
  return allowance > 0 ? round3(Math.sinh(halfWidth) / Math.sinh(calibratedHalfWidth) - 1) : 0;
}

/** The weighted consensus of the members' log predictions. */
export function consensusOf(memberLogs: readonly number[], weights: readonly number[]): number {
  let consensus = 0;
  weights.forEach((w, j) => (consensus += w * memberLogs[j]));
  return consensus;
}

export function roundTo(x: number, step: number): number {
  return Math.round(x / step) * step;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
