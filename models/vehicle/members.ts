/**
 * The vehicle ensemble's members: the same algorithms as the residential ensemble, on the vehicle
 * features and log price. Hyperparameters set in advance, not tuned on any evaluation.
 */
import type { MemberSpec } from '../ensemble/weights';
import { HistGradientBoostingRegressor, RandomForestRegressor } from '../trainers';
import { VEHICLE_MONOTONIC_CONSTRAINTS } from './features';

// Both tree members keep the ageing constraints, so their weighted consensus keeps them too.
const GBDT = { loss: 'squared_error', learningRate: 0.06, maxIter: 400, maxLeafNodes: 31, minSamplesLeaf: 15, l2Regularization: 1, earlyStopping: false, randomState: 42, monotonicCst: VEHICLE_MONOTONIC_CONSTRAINTS } as const;
const FOREST = { nEstimators: 40, maxDepth: 16, minSamplesLeaf: 3, maxFeatures: 0.5, bootstrap: true, randomState: 42, monotonicCst: VEHICLE_MONOTONIC_CONSTRAINTS } as const;

export const VEHICLE_MEMBERS: readonly MemberSpec[] = [
  { name: 'gbdt', algorithm: 'histogram gradient-boosted trees (squared error on log price)', hyperparameters: GBDT, create: () => new HistGradientBoostingRegressor(GBDT) },
  { name: 'forest', algorithm: 'random forest (bagged regression trees on log price)', hyperparameters: FOREST, create: () => new RandomForestRegressor(FOREST) },
];
