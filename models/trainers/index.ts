export { type Matrix, matrix, fromRows, takeRows } from './matrix';
export type { FitOptions, Regressor } from './regressor';
export { NotFittedError } from './validation';
export type { Tree } from './tree';
export {
  HistGradientBoostingRegressor,
  HIST_GRADIENT_BOOSTING_DEFAULTS,
  type HistGradientBoostingParams,
  type HistGradientBoostingState,
} from './hist-gradient-boosting';
export { RandomForestRegressor, RANDOM_FOREST_DEFAULTS, type RandomForestParams, type RandomForestState } from './random-forest';
export { RidgeRegression, RIDGE_DEFAULTS, type RidgeParams, type RidgeState } from './ridge';
export { NearestComparablesRegressor, NEAREST_COMPARABLES_DEFAULTS, DISTANCE_EPSILON, type NearestComparablesParams, type NearestComparablesState, type Neighbours } from './nearest-comparables';
export { makeFriedman1, type SyntheticOptions } from './datasets';
export { LogisticRegression, LOGISTIC_REGRESSION_DEFAULTS, type LogisticRegressionParams } from './logistic-regression';
