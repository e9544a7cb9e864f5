/**
 * The house ensemble's members: the flat model's three algorithms with settings for a few hundred
 * rows (shallower trees, larger leaves, a stiffer ridge), set a priori from the row count, not tuned.
 */
import type { MemberSpec } from '../ensemble/weights';
import { HistGradientBoostingRegressor, RandomForestRegressor, RidgeRegression } from '../trainers';

const GBDT = { loss: 'squared_error', learningRate: 0.05, maxIter: 200, maxLeafNodes: 8, minSamplesLeaf: 20, l2Regularization: 1, earlyStopping: false, randomState: 42 } as const;
const FOREST = { nEstimators: 60, maxDepth: 8, minSamplesLeaf: 8, maxFeatures: 0.5, bootstrap: true, randomState: 42 } as const;
const HEDONIC = { alpha: 10 } as const;

export const HOUSE_MEMBERS: readonly MemberSpec[] = [
  { name: 'gbdt', algorithm: 'histogram gradient-boosted trees (squared error on log price per m² of floor area)', hyperparameters: GBDT, create: () => new HistGradientBoostingRegressor(GBDT) },
  { name: 'forest', algorithm: 'random forest (bagged regression trees on log price per m² of floor area)', hyperparameters: FOREST, create: () => new RandomForestRegressor(FOREST) },
  { name: 'hedonic', algorithm: 'ridge hedonic regression on log price per m² of floor area', hyperparameters: HEDONIC, create: () => new RidgeRegression(HEDONIC) },
];
