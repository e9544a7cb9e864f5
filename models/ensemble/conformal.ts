/**
 * Normalised split-conformal prediction intervals on log price: the interval is
 * estimate·exp(±q·σ(x)), where σ(x) is the residual scale a small model expects for this listing
 * and q the conformal quantile of |log residual| / σ measured on rows neither model was fitted on
 * (out-of-fold). q is per calibration group (district, vehicle group) where the group has enough
 * calibration rows; elsewhere the overall quantile, widened because a thin group is harder than
 * the average. (The manifest field keeps its first name, `district`, for every kind.)
 */

export interface IntervalCalibration {
  coverage: number;
  method: string;
  /** The ONNX output column of the log |residual| model (σ(x) = exp of it); null for plain split conformal. */
  scale: ({ column: string; floor: number } & { pooling?: ScalePooling }) | null;
  /** City-wide conformal quantile of |log residual|. */
  global: number;
  /** Per calibration group (the district for homes, the make/model group for vehicles): its own quantile (or the widened overall one) and how many rows backed it. */
  district: Record<string, { q: number; n: number; own: boolean }>;
  /** Districts with fewer calibration rows than this use the widened city quantile. @default 60 */
  minRows: number;
  /** Widening of the city quantile for thin districts. @default 1.3 */
  thinDataFactor: number;
  /** Widening per out-of-distribution flag on the request. @default 1.25 */
  outOfDistributionFactor: number;
  /** How the pooling of σ(x) was chosen (versions from 2026.11.4). */
  selection?: ScalePoolingSelection;
}

/** The record of the pooling choice: every candidate's coverage on the forward validation split. */
export interface ScalePoolingSelection {
  protocol: string;
  minRows: number;
  /** Per candidate: coverage on the validation rows overall and per calibration group (district, vehicle group). */
  candidates: { power: number; coverage: number; meanAbsDeviation: number; groups: Record<string, { n: number; coverage: number }> }[];
  chosen: number;
}

/**
 * How far σ(x) is trusted: the interval uses center^(1−power) · σ(x)^power, so power 1 is fully
 * normalised conformal, 0 plain split conformal, and values between pool each listing's expected
 * error toward the typical one. Under drift the scale model's view of which listings are easy
 * transfers only partly; training picks the power on a forward split inside its own training rows.
 */
export interface ScalePooling {
  power: number;
  /** The median σ over the calibration rows. */
  center: number;
}

/** σ(x) after pooling; versions without pooling use σ(x) as it is. */
export function pooledScale(sigma: number, pooling: ScalePooling | undefined): number {
  return pooling ? pooling.center ** (1 - pooling.power) * sigma ** pooling.power : sigma;
}

/**
 * The finite-sample conformal quantile: the ceil((n+1)·coverage)-th smallest score. With weights
 * (older listings counting less under drift), the weighted version: the smallest score whose
 * cumulative weight reaches coverage × (total weight + the new point's weight 1).
 */
export function conformalQuantile(scores: ArrayLike<number>, coverage: number, weights?: ArrayLike<number>): number {
  const n = scores.length;
  if (n === 0) return NaN;
  if (!weights) {
    const sorted = Float64Array.from(scores).sort();
    return sorted[Math.min(n, Math.ceil((n + 1) * coverage)) - 1];
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let total = 1; // the new point, at full weight
  for (let i = 0; i < n; i++) total += weights[i];
  let cumulative = 0;
  for (const i of order) {
    cumulative += weights[i];
    if (cumulative >= coverage * total) return scores[i];
  }
  return scores[order[n - 1]];
}

/**
 * Groups may be nested as 'parent/child' (residential: 'new/chilanzar'): a child with fewer than
 * minRows rows falls back to its parent's quantile when the parent has enough, else to the widened
 * city quantile; parents get entries of their own.
 */
export function calibrateIntervals(scores: ArrayLike<number>, groups: readonly string[], coverage = 0.9, minRows = 60, thinDataFactor = 1.3, weights?: ArrayLike<number>): IntervalCalibration {
  const global = conformalQuantile(scores, coverage, weights);
  const members = new Map<string, number[]>();
  const add = (group: string, i: number) => {
    const list = members.get(group) ?? [];
    list.push(i);
    members.set(group, list);
  };
  groups.forEach((group, i) => {
    add(group, i);
    const slash = group.indexOf('/');
    if (slash > 0) add(group.slice(0, slash), i);
  });
  const quantileOf = (rows: number[]) => conformalQuantile(rows.map((i) => scores[i]), coverage, weights && rows.map((i) => weights[i]));
  const district: IntervalCalibration['district'] = {};
  const keys = [...members.keys()].sort((a, b) => Number(a.includes('/')) - Number(b.includes('/'))); // parents first
  for (const group of keys) {
    const rows = members.get(group)!;
    const own = rows.length >= minRows;
    const q = quantileOf(rows);
    const parent = group.includes('/') ? district[group.slice(0, group.indexOf('/'))] : undefined;
    // A thin group never gets an interval narrower than its fallback: its own few residuals cannot prove it.
    district[group] = { q: own ? q : Math.max(parent?.own ? parent.q : global * thinDataFactor, q), n: rows.length, own };
  }
  return {
    coverage,
    method: 'split conformal on out-of-fold absolute log residuals, per group with at least minRows rows',
    scale: null,
    global,
    district,
    minRows,
    thinDataFactor,
    outOfDistributionFactor: 1.25,
  };
}

/**
 * The log half-width of an interval: the calibrated one (q·σ) and, for a valuation dated past the
 * newest data, the market-drift allowance, combined as independent errors. Training's evaluation
 * and serving both call this, so what was measured is what is served.
 */
export function combinedHalfWidth(calibrated: number, allowance = 0): number {
  return Math.hypot(calibrated, allowance);
}

/**
 * A calibration row's conformity score, consistent with combinedHalfWidth: the row is covered by
 * hypot(q·scale, allowance) exactly when its score is at most q. A held-out row whose level was
 * extrapolated past its fit's newest data carries the allowance serving would add for that gap, so
 * the part of its error the allowance covers is not counted again in q.
 */
export function conformityScore(absResidual: number, scale: number, allowance = 0): number {
  return Math.sqrt(Math.max(0, absResidual * absResidual - allowance * allowance)) / scale;
}

/** The half-width in log space for one request, in units of σ(x) when a scale model is used. */
export function intervalHalfWidth(calibration: IntervalCalibration, district: string, outOfDistributionFlags: number): number {
  const slash = district.indexOf('/');
  const parent = slash > 0 ? calibration.district[district.slice(0, slash)] : undefined;
  const entry = calibration.district[district] ?? (parent?.own ? parent : undefined);
  const base = entry ? entry.q : calibration.global * calibration.thinDataFactor;
  return base * calibration.outOfDistributionFactor ** Math.min(outOfDistributionFlags, 3);
}
