/**
 * Split-conformal calibration: scores of rows the model was not fitted on, their (weighted)
 * finite-sample quantile per calibration group, and the fallback of a thin group. Training only.
 */
import { MIN_GROUP_ROWS, OUT_OF_DISTRIBUTION_FACTOR, THIN_GROUP_FACTOR, type IntervalCalibration } from './calibration';

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
 * A calibration row's conformity score, consistent with combinedHalfWidth: the row is covered by
 * hypot(q·scale, allowance) exactly when its score is at most q. A held-out row whose level was
 * extrapolated past its fit's newest data carries the allowance serving would add for that gap, so
 * the part of its error the allowance covers is not counted again in q.
 */
export function conformityScore(absResidual: number, scale: number, allowance = 0): number {
  return Math.sqrt(Math.max(0, absResidual * absResidual - allowance * allowance)) / scale;
}

/**
 * The quantile of every group. Groups may be nested as 'parent/child' (flats: 'new/chilanzar'): a
 * child with fewer than minRows rows falls back to its parent's quantile when the parent has
 * enough, else to the widened overall quantile; parents get entries of their own.
 */
export function calibrateGroups(scores: ArrayLike<number>, groups: readonly string[], coverage: number, minRows = MIN_GROUP_ROWS, weights?: ArrayLike<number>): IntervalCalibration {
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
    district[group] = { q: own ? q : Math.max(parent?.own ? parent.q : global * THIN_GROUP_FACTOR, q), n: rows.length, own };
  }
  return calibration(coverage, global, district, minRows, THIN_GROUP_FACTOR);
}

/** One quantile for every row: no groups, no thin-group widening (vehicles valued on the make's or the segment's level). */
export function calibrateOneQuantile(scores: ArrayLike<number>, coverage: number, weights?: ArrayLike<number>): IntervalCalibration {
  return calibration(coverage, conformalQuantile(scores, coverage, weights), {}, MIN_GROUP_ROWS, 1);
}

function calibration(coverage: number, global: number, district: IntervalCalibration['district'], minRows: number, thinDataFactor: number): IntervalCalibration {
  // `method` and `scale` are the training run's to fill in (./train.ts).
  return { coverage, method: 'split conformal', scale: null, global, district, minRows, thinDataFactor, outOfDistributionFactor: OUT_OF_DISTRIBUTION_FACTOR };
}
