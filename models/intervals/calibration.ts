/**
 * The calibrated interval as a manifest stores it and serving reads it: estimate·exp(±q·σ(x)), q
 * the conformal quantile of the request's calibration group (or the group it falls back to) in
 * units of σ(x), the pooled residual scale. Pure data and arithmetic: serving loads this, never
 * the training half. (The manifest field keeps its first name, `district`, for every kind.)
 */

/** A group with fewer calibration rows than this takes its parent's quantile (or the widened overall one). @default 60 */
export const MIN_GROUP_ROWS = 60;
/** Widening of the overall quantile for a thin group without a parent to fall back to. @default 1.3 */
export const THIN_GROUP_FACTOR = 1.3;
/** Widening per out-of-distribution flag on a request (at most three count). @default 1.25 */
export const OUT_OF_DISTRIBUTION_FACTOR = 1.25;

export interface IntervalCalibration {
  coverage: number;
  /** The method in one sentence, generated from the kind's parameters (./describe.ts). */
  method: string;
  /** The ONNX output column of the log |residual| model (σ(x) = exp of it); null for plain split conformal. */
  scale: ({ column: string; floor: number } & { pooling?: ScalePooling }) | null;
  /** Overall conformal quantile of the scores. */
  global: number;
  /** Per calibration group (flats: segment/district; vehicles: make/model group): its own quantile (or its fallback's) and how many rows backed it. */
  district: Record<string, { q: number; n: number; own: boolean }>;
  minRows: number;
  thinDataFactor: number;
  outOfDistributionFactor: number;
  /** How the pooling of σ(x) was chosen, where it was (residential versions from 2026.11.4). */
  selection?: ScalePoolingSelection;
}

/** The record of a pooling choice: every candidate's coverage on the view it was chosen on. */
export interface ScalePoolingSelection {
  protocol: string;
  minRows: number;
  /** Per candidate: coverage on the view's rows overall and per held-out part. */
  candidates: { power: number; coverage: number; meanAbsDeviation: number; groups: Record<string, { n: number; coverage: number }> }[];
  chosen: number;
}

/**
 * How far σ(x) is trusted: the interval uses center^(1−power) · σ(x)^power, so power 1 is fully
 * normalised conformal, 0 plain split conformal, and values between pool each row's expected error
 * toward the typical one. Under drift the scale model's view of which rows are easy transfers only partly.
 */
export interface ScalePooling {
  power: number;
  /** The (recency-weighted) median σ over the calibration rows. */
  center: number;
}

/** σ(x) after pooling; versions without pooling use σ(x) as it is. */
export function pooledScale(sigma: number, pooling: ScalePooling | undefined): number {
  return pooling ? pooling.center ** (1 - pooling.power) * sigma ** pooling.power : sigma;
}

/**
 * q for one request, in units of σ(x): its group's own quantile; a 'parent/child' group missing from
 * the calibration takes its parent's when the parent had enough rows, else the widened overall one.
 */
export function groupHalfWidth(calibration: IntervalCalibration, group: string, outOfDistributionFlags: number): number {
  const slash = group.indexOf('/');
  const parent = slash > 0 ? calibration.district[group.slice(0, slash)] : undefined;
  const entry = calibration.district[group] ?? (parent?.own ? parent : undefined);
  const base = entry ? entry.q : calibration.global * calibration.thinDataFactor;
  return base * calibration.outOfDistributionFactor ** Math.min(outOfDistributionFlags, 3);
}

/** The calibrated log half-width of one request: q · pooled σ(x) (σ = 1 for plain conformal). */
export function calibratedHalfWidth(calibration: IntervalCalibration, group: string, outOfDistributionFlags: number, sigma: number): number {
  return groupHalfWidth(calibration, group, outOfDistributionFlags) * pooledScale(sigma, calibration.scale?.pooling);
}
