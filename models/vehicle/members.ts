/**
 * The vehicle ensemble's members: the same algorithms as the residential ensemble, on the vehicle
 * features and log price. Hyperparameters set in advance, not tuned on any evaluation.
 */
import type { MemberSpec } from '../ensemble/weights';
import { HistGradientBoostingRegressor, RandomForestRegressor, RidgeRegression } from '../trainers';

const GBDT = { loss: 'squared_error', learningRate: 0.06, maxIter: 400, maxLeafNodes: 31, minSamplesLeaf: 15, l2Regularization: 1, earlyStopping: false, randomState: 42 } as const;
const FOREST = { nEstimators: 80, maxDepth: 16, minSamplesLeaf: 3, maxFeatures: 0.5, bootstrap: true, randomState: 42 } as const;
const HEDONIC = { alpha: 3 } as const;

export const VEHICLE_MEMBERS: readonly MemberSpec[] = [
  { name: 'gbdt', algorithm: 'histogram gradient-boosted trees (squared error on log price)', hyperparameters: GBDT, create: () => new HistGradientBoostingRegressor(GBDT) },
  { name: 'forest', algorithm: 'random forest (bagged regression trees on log price)', hyperparameters: FOREST, create: () => new RandomForestRegressor(FOREST) },
  { name: 'hedonic', algorithm: 'ridge hedonic regression on log price', hyperparameters: HEDONIC, create: () => new RidgeRegression(HEDONIC) },
];
