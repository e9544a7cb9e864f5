import type { Matrix } from './matrix';

export interface FitOptions {
  /** Non-negative weight per row; omitted means every row weighs 1. */
  sampleWeight?: Float64Array;
}

/** The contract every trainer implements (scikit-learn's fit/predict). */
export interface Regressor<Params extends object = object> {
  /** Learns from X (never mutated, never retained) and returns this fitted estimator. */
  fit(X: Matrix, y: Float64Array, opts?: FitOptions): this;
  predict(X: Matrix): Float64Array;
  /** The constructor's hyperparameters, so an unfitted copy can be made: new Cls(est.getParams()). */
  getParams(): Params;
}
