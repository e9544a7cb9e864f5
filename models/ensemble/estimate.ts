/**
 * From the members' log predictions for one request to the estimate, each member's estimate, their
 * disagreement and the calibrated interval: the arithmetic every kind's runtime shares.
 */
import type { MemberEstimate } from '../../schema/ensemble-contract';
import { calibratedHalfWidth, withDriftAllowance, type IntervalCalibration } from '../intervals/serving';

export interface EnsembleEstimate {
  /** Unrounded consensus estimate in USD. */
  estimate: number;
  memberEstimates: number[];
  /** (max − min) / estimate over the members that carry weight (0 when one member is served). */
  modelSpread: number;
  /** Unrounded interval in USD. */
  low: number;
  high: number;
  /** Log half-width of the interval, and what it would be without the allowance. */
  halfWidth: number;
  calibratedHalfWidth: number;
  /** How much wider the allowance makes the interval (relative; 0 without one). */
  widening: number;
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
  const modelSpread = servedSpread(memberEstimates, weights, estimate);
  const calibrated = calibratedHalfWidth(calibration, group, outOfDistributionFlags, sigma);
  const { halfWidth: q, widening } = withDriftAllowance(calibrated, allowance);
  return { estimate, memberEstimates, modelSpread, low: estimate * Math.exp(-q), high: estimate * Math.exp(q), halfWidth: q, calibratedHalfWidth: calibrated, widening };
}

/** Disagreement among the members that carry weight: a zero-weight member is reported, not trusted. */
export function servedSpread(memberEstimates: readonly number[], weights: readonly number[], estimate: number): number {
  const weighted = memberEstimates.filter((_, j) => weights[j] > 0);
  return weighted.length > 1 ? (Math.max(...weighted) - Math.min(...weighted)) / estimate : 0;
}

/** The weighted consensus of the members' log predictions. */
export function consensusOf(memberLogs: readonly number[], weights: readonly number[]): number {
  let consensus = 0;
  weights.forEach((w, j) => (consensus += w * memberLogs[j]));
  return consensus;
}

// How a valuation states one member is a contract of every door: schema/ensemble-contract.ts.
export type { MemberEstimate } from '../../schema/ensemble-contract';

/** The members as a valuation states them, so that a spread of 0 beside two different estimates reads right. */
export function statedMembers(members: readonly { name: string; weight: number }[], memberEstimates: readonly number[]): MemberEstimate[] {
  return members.map((m, j) => ({ name: m.name, estimate: roundTo(memberEstimates[j], 100), weight: round3(m.weight) }));
}

export function roundTo(x: number, step: number): number {
  return Math.round(x / step) * step;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
