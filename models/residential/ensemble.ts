/**
 * The ensemble's members (independently trained algorithms on the same features) and how their
 * consensus weights are learned: on out-of-fold predictions, never on rows a member was fitted on.
 */
import { HistGradientBoostingRegressor, RandomForestRegressor, RidgeRegression, type Regressor } from '../trainers';

export interface MemberSpec {
  name: string;
  algorithm: string;
  hyperparameters: Record<string, unknown>;
  create(): Regressor;
}

const GBDT = { loss: 'squared_error', learningRate: 0.06, maxIter: 400, maxLeafNodes: 31, minSamplesLeaf: 15, l2Regularization: 1, earlyStopping: false, randomState: 42 } as const;
const FOREST = { nEstimators: 80, maxDepth: 16, minSamplesLeaf: 3, maxFeatures: 0.5, bootstrap: true, randomState: 42 } as const;
const HEDONIC = { alpha: 3 } as const;

export const MEMBERS: readonly MemberSpec[] = [
  { name: 'gbdt', algorithm: 'histogram gradient-boosted trees (squared error on log price per m²)', hyperparameters: GBDT, create: () => new HistGradientBoostingRegressor(GBDT) },
  { name: 'forest', algorithm: 'random forest (bagged regression trees on log price per m²)', hyperparameters: FOREST, create: () => new RandomForestRegressor(FOREST) },
  { name: 'hedonic', algorithm: 'ridge hedonic regression on log price per m²', hyperparameters: HEDONIC, create: () => new RidgeRegression(HEDONIC) },
];
// Nearest comparables (models/trainers/nearest-comparables.ts, exported and parity-tested like the
// others) was a member in 2026.11.2: out-of-fold weight 0.05, headline-split weight 0, identical
// held-out accuracy without it (MAPE 13.9%, coverage 90.5%), and its distance search over every
// training listing was half of a single valuation's model time (GraphQL p99 38 ms with it, 22 ms
// without, bench/rest-home). It did not earn its place, so it is not served.

/**
 * Consensus weights: the point of the simplex (step 0.05) whose weighted out-of-fold log
 * predictions have the least squared error. A grid, not a solver: a handful of members,
 * deterministic, and a weight can be exactly 0 for a member that adds nothing.
 */
export function learnWeights(oof: readonly Float64Array[], y: Float64Array, rowWeights?: ArrayLike<number>, step = 0.05): number[] {
  const m = oof.length;
  if (m === 1) return [1];
  let best: number[] = new Array(m).fill(1 / m);
  let bestError = Infinity;
  const units = Math.round(1 / step);
  const visit = (prefix: number[], left: number) => {
    if (prefix.length === m - 1) {
      const weights = [...prefix, left].map((u) => u / units);
      let error = 0;
      for (let i = 0; i < y.length; i++) {
        let p = 0;
        for (let j = 0; j < m; j++) p += weights[j] * oof[j][i];
        error += (rowWeights ? rowWeights[i] : 1) * (p - y[i]) ** 2;
      }
      if (error < bestError - 1e-12) {
        bestError = error;
        best = weights;
      }
      return;
    }
    for (let u = 0; u <= left; u++) visit([...prefix, u], left - u);
  };
  visit([], units);
  return best;
}
