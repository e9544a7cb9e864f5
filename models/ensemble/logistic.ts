/**
 * The serving half of a binary logistic model: a fitted state (JSON in a manifest) and the
 * probability it gives one feature row. The trainer is models/trainers/logistic-regression.ts.
 */
/** A fitted binary logistic model on raw features: the standardisation is folded into `coef`. */
export interface LogisticState {
  readonly nFeaturesIn: number;
  /** Training mean of each feature (NaN ignored), which also replaces a missing value. */
  readonly mean: number[];
  readonly coef: number[];
  readonly intercept: number;
}

/** P(y = 1) of one feature row under a fitted state (NaN = missing, read as the training mean). */
export function logisticProbability(state: LogisticState, x: ArrayLike<number>): number {
  let eta = state.intercept;
  for (let j = 0; j < state.nFeaturesIn; j++) eta += state.coef[j] * (x[j] === x[j] ? x[j] : state.mean[j]);
  return sigmoid(eta);
}

export function sigmoid(eta: number): number {
  return eta >= 0 ? 1 / (1 + Math.exp(-eta)) : Math.exp(eta) / (1 + Math.exp(eta));
}
