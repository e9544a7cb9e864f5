import type { Matrix } from './matrix';
import { Random } from './random';

export interface SyntheticOptions {
  readonly rows: number;
  /** At least 5; columns past the fifth are pure noise features. */
  readonly cols?: number;
  /** Standard deviation of the Gaussian noise added to y. */
  readonly noise?: number;
  /** Probability that each feature value is replaced by NaN (after y is computed). */
  readonly missingRate?: number;
  readonly seed?: number;
}

/**
 * Friedman #1 (as scikit-learn's make_friedman1): X ~ U(0, 1),
 * y = 10 sin(pi x0 x1) + 20 (x2 - 0.5)^2 + 10 x3 + 5 x4 + noise. Deterministic for a seed.
 */
export function makeFriedman1(opts: SyntheticOptions): { X: Matrix; y: Float64Array } {
  const { rows, cols = 10, noise = 1, missingRate = 0, seed = 0 } = opts;
  if (cols < 5) throw new RangeError(`makeFriedman1 needs at least 5 columns, got ${cols}`);
  const rng = new Random(seed);
  const data = new Float64Array(rows * cols);
  const y = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const x = data.subarray(i * cols, (i + 1) * cols);
    for (let j = 0; j < cols; j++) x[j] = rng.next();
    // Box-Muller normal noise
    const gauss = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    y[i] = 10 * Math.sin(Math.PI * x[0] * x[1]) + 20 * (x[2] - 0.5) ** 2 + 10 * x[3] + 5 * x[4] + noise * gauss;
  }
  if (missingRate > 0) for (let k = 0; k < data.length; k++) if (rng.next() < missingRate) data[k] = NaN;
  return { X: { data, rows, cols }, y };
}
