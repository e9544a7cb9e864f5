/**
 * Accuracy measures a bank's model-risk team asks for (EAA/ESSVM, IAAO): on prices in USD.
 * Pure functions over arrays of actual and predicted values.
 */
/**
 * A group's held-out accuracy class (accuracyClass below), best first. Words that order themselves
 * and are not confidence's levels (high, medium, low): "medium" beside "moderate" read alike.
 */
export type AccuracyClass = 'high' | 'good' | 'fair' | 'low';

export interface AccuracyMetrics {
  n: number;
  r2: number;
  mape: number;
  medianApe: number;
  maeUsd: number;
  ppe10: number;
  ppe20: number;
  intervalCoverage: number;
  /**
   * Wilson 95% confidence bounds of intervalCoverage: on a few hundred rows the measured share
   * moves by several points by chance alone, so a district's coverage is judged with its bounds.
   * Absent in versions before 2026.11.4.
   */
  intervalCoverageBounds95?: { low: number; high: number };
  medianIntervalWidth: number;
}

export function accuracyMetrics(actual: ArrayLike<number>, predicted: ArrayLike<number>, low?: ArrayLike<number>, high?: ArrayLike<number>): AccuracyMetrics {
  const n = actual.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += actual[i];
  mean /= n;
  let ssRes = 0;
  let ssTot = 0;
  let absSum = 0;
  let within10 = 0;
  let within20 = 0;
  let covered = 0;
  const ape = new Float64Array(n);
  const widths = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = actual[i];
    const p = predicted[i];
    ssRes += (a - p) ** 2;
    ssTot += (a - mean) ** 2;
    absSum += Math.abs(a - p);
    ape[i] = Math.abs(a - p) / a;
    if (ape[i] <= 0.1) within10++;
    if (ape[i] <= 0.2) within20++;
    if (low && high) {
      if (a >= low[i] && a <= high[i]) covered++;
      widths[i] = (high[i] - low[i]) / p;
    }
  }
  return {
    n,
    r2: n > 1 && ssTot > 0 ? 1 - ssRes / ssTot : NaN,
    mape: mean1(ape),
    medianApe: median(ape),
    maeUsd: absSum / n,
    ppe10: within10 / n,
    ppe20: within20 / n,
    intervalCoverage: low && high ? covered / n : NaN,
    ...(low && high ? { intervalCoverageBounds95: wilsonBounds(covered, n) } : {}),
    medianIntervalWidth: low && high ? median(widths) : NaN,
  };
}

/** Wilson score interval of a binomial share (95%, z = 1.96): honest at small n and near 0 or 1. */
export function wilsonBounds(successes: number, n: number, z = 1.96): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  // The interval always holds p itself; rounding can leave the closed-form bound a hair short of it at p = 0 or 1.
  return { low: Math.min(p, Math.max(0, centre - half)), high: Math.max(p, Math.min(1, centre + half)) };
}

/** Held-out listings below which a group's accuracy class is low whatever its numbers. */
export const MIN_CLASS_ROWS = 30;

/** Accuracy class of a district from its held-out numbers (the rule is in the model card). */
export function accuracyClass(m: AccuracyMetrics): AccuracyClass {
  if (m.n < MIN_CLASS_ROWS) return 'low';
  if (m.r2 >= 0.8 && m.mape <= 0.12) return 'high';
  if (m.r2 >= 0.65 && m.mape <= 0.16) return 'good';
  if (m.r2 >= 0.5 && m.mape <= 0.22) return 'fair';
  return 'low';
}

export function median(values: ArrayLike<number>): number {
  return quantile(values, 0.5);
}

/** The smallest value whose cumulative weight reaches half the total. */
export function weightedMedian(values: ArrayLike<number>, weights: ArrayLike<number>): number {
  const order = Array.from({ length: values.length }, (_, i) => i).sort((a, b) => values[a] - values[b]);
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i];
  const half = total / 2;
  let cumulative = 0;
  for (const i of order) if ((cumulative += weights[i]) >= half) return values[i];
  return values[order[order.length - 1]];
}

/**
 * weightedMedian by selection (Hoare's quickselect, three-way partitions, weights carried), in
 * linear expected time instead of a sort: for loops that take a median again and again (the robust
 * fits). The same value, except that the cumulative weights are summed in another order, so where
 * they reach half the total exactly (equal weights, an even count) rounding may pick the other of
 * the two middle values.
 */
export function weightedMedianBySelection(values: ArrayLike<number>, weights: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i];
  const half = total / 2;
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  let lo = 0;
  let hi = n - 1;
  let below = 0; // the weight of every value known to lie below order[lo..hi]
  while (lo < hi) {
    const pivot = values[order[(lo + hi) >>> 1]];
    // Three-way partition of order[lo..hi]: < pivot, = pivot, > pivot.
    let lt = lo;
    let gt = hi;
    let i = lo;
    let less = 0;
    let equal = 0;
    while (i <= gt) {
      const v = values[order[i]];
      if (v < pivot) {
        less += weights[order[i]];
        [order[lt], order[i]] = [order[i], order[lt]];
        lt++;
        i++;
      } else if (v > pivot) {
        [order[gt], order[i]] = [order[i], order[gt]];
        gt--;
      } else {
        equal += weights[order[i]];
        i++;
      }
    }
    if (lt > lo && below + less >= half) hi = lt - 1;
    else if (below + less + equal >= half || gt === hi) return pivot;
    else {
      below += less + equal;
      lo = gt + 1;
    }
  }
  return values[order[lo]];
}

/**
 * The distribution-free 95% interval of a median: the order statistics n/2 ∓ 1.96·√n/2 of `sorted`
 * (ascending); null below 6 values, where it would span them all.
 */
export function medianInterval(sorted: readonly number[]): { low: number; high: number } | null {
  const n = sorted.length;
  if (n < 6) return null;
  const half = (1.96 * Math.sqrt(n)) / 2;
  return { low: sorted[Math.max(0, Math.floor(n / 2 - half))], high: sorted[Math.min(n - 1, Math.ceil(n / 2 + half) - 1)] };
}

/** Linear-interpolated quantile of a sample (does not mutate the input). */
export function quantile(values: ArrayLike<number>, q: number): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

function mean1(values: Float64Array): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}
