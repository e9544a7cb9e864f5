import type { Matrix } from './matrix';
import type { FitOptions } from './regressor';

export class NotFittedError extends Error {
  constructor(estimator: string) {
    super(`${estimator} is not fitted yet: call fit(X, y) before predict`);
    this.name = 'NotFittedError';
  }
}

function checkShape(X: Matrix): void {
  if (X.data.length !== X.rows * X.cols) {
    throw new RangeError(`X.data has ${X.data.length} values, shape ${X.rows}x${X.cols} needs ${X.rows * X.cols}`);
  }
}

/** Checks fit inputs and returns the sample weights, or null when every row weighs 1. */
export function checkFitInput(X: Matrix, y: Float64Array, opts: FitOptions | undefined): Float64Array | null {
  checkShape(X);
  if (X.rows < 2 || X.cols < 1) throw new RangeError(`fit needs at least 2 rows and 1 column, got ${X.rows}x${X.cols}`);
  if (y.length !== X.rows) throw new RangeError(`y has ${y.length} values for ${X.rows} rows`);
  for (let i = 0; i < y.length; i++) {
    if (!Number.isFinite(y[i])) throw new RangeError(`y[${i}] is ${y[i]}: targets must be finite`);
  }
  const w = opts?.sampleWeight;
  if (w === undefined) return null;
  if (w.length !== X.rows) throw new RangeError(`sampleWeight has ${w.length} values for ${X.rows} rows`);
  let total = 0;
  for (let i = 0; i < w.length; i++) {
    if (!(w[i] >= 0) || !Number.isFinite(w[i])) throw new RangeError(`sampleWeight[${i}] is ${w[i]}: weights must be finite and >= 0`);
    total += w[i];
  }
  if (total <= 0) throw new RangeError('sampleWeight sums to 0');
  return w;
}

export function checkPredictInput(X: Matrix, nFeaturesIn: number): void {
  checkShape(X);
  if (X.cols !== nFeaturesIn) throw new RangeError(`X has ${X.cols} features, the model was fitted with ${nFeaturesIn}`);
}

export function checkPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}

export function checkOptionalLimit(name: string, value: number | null, min: number): void {
  if (value !== null && (!Number.isInteger(value) || value < min)) {
    throw new RangeError(`${name} must be null or an integer >= ${min}, got ${value}`);
  }
}
