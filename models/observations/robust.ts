/**
 * Robust factors: the hierarchy's normal-normal fit (./shrinkage.ts) on Huber-winsorised residuals.
 *
 * A few observed prices are of another property than the model valued (a data error, a car sold for
 * parts, a flat with a shop in it); their log residuals are far out in both tails, and a group's mean
 * follows them. Each residual is therefore pulled to within c of its current fitted factor, and the
 * factors refitted on the pulled values, ROBUST_ITERATIONS times (iteratively winsorised means:
 * Huber's M-estimate of location, taken through the hierarchy):
 *
 *   centre⁰_i = the weighted median of every residual;
 *   c = HUBER_K · 1.4826 · (weighted median of |y_i − centre_i|)   (a robust σ; MAD_FLOOR at least);
 *   y'_i = centre_i + clamp(y_i − centre_i, −c, c);  table = fitShrinkage(y');  centre_i = factor of i's group.
 *
 * HUBER_K = Infinity is the plain (non-robust) fit.
 */
import { weightedMedian } from '../ensemble/metrics';
import { factorFor, fitShrinkage, type ShrinkageItem, type ShrinkageOptions, type ShrinkageTable } from './shrinkage';

/**
 * Residuals further than this many robust sds from their group's factor are pulled in to it: 1.345,
 * Huber's constant (95% efficiency when the errors are normal). Chosen with the benchmark's
 * cross-validation inside the observations (bench/observations: 1.345 was the conventional value
 * tried first; see docs/BENCHMARKS.md for the candidates).
 */
export const HUBER_K = 1.345;
/** Refits of the factors on the pulled residuals: 3 (the factors move by under 0.1% after the third on the benchmark's files). */
export const ROBUST_ITERATIONS = 3;
/** The least robust sd (log scale): keeps c positive when most residuals are equal. */
export const MAD_FLOOR = 0.01;

export interface RobustOptions {
  huberK?: number;
  iterations?: number;
  shrinkage?: ShrinkageOptions;
}

/** The factors of `items` (their values raw log residuals), fitted on iteratively winsorised values. */
export function fitRobustShrinkage(items: readonly ShrinkageItem[], options: RobustOptions = {}): ShrinkageTable {
  const k = options.huberK ?? HUBER_K;
  const iterations = Number.isFinite(k) ? options.iterations ?? ROBUST_ITERATIONS : 0;
  let table = fitShrinkage(items, options.shrinkage);
  if (items.length === 0 || iterations === 0) return table;
  const values = items.map((item) => item.value);
  const weights = items.map((item) => item.weight);
  let centres: number[] = items.map(() => weightedMedian(values, weights));
  for (let it = 0; it < iterations; it++) {
    const c = k * Math.max(MAD_FLOOR, 1.4826 * weightedMedian(values.map((v, i) => Math.abs(v - centres[i])), weights));
    table = fitShrinkage(items.map((item, i) => ({ ...item, value: centres[i] + Math.max(-c, Math.min(c, item.value - centres[i])) })), options.shrinkage);
    const fitted = table;
    centres = items.map((item) => factorFor(fitted, item.groups)?.factor ?? 0);
  }
  return table;
}
