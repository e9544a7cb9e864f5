/**
 * The ensemble's members (independently trained algorithms on the same features) and how their
 * consensus weights are learned: on out-of-fold predictions, never on rows a member was fitted on.
 */
import { HistGradientBoostingRegressor, NearestComparablesRegressor, RandomForestRegressor, RidgeRegression, type Regressor } from '../trainers';
import { FEATURE_NAMES } from './features';

export interface MemberSpec {
  name: string;
  algorithm: string;
  hyperparameters: Record<string, unknown>;
  create(): Regressor;
}

const GBDT = { loss: 'squared_error', learningRate: 0.06, maxIter: 400, maxLeafNodes: 31, minSamplesLeaf: 15, l2Regularization: 1, earlyStopping: false, randomState: 42 } as const;
const FOREST = { nEstimators: 80, maxDepth: 16, minSamplesLeaf: 3, maxFeatures: 0.5, bootstrap: true, randomState: 42 } as const;
const HEDONIC = { alpha: 3 } as const;

/**
 * How much each standardised feature counts in the distance between two flats: location and size
 * first, as a valuer picks comparables. Set as priors, not tuned on any evaluation. The district
 * code is a category index, meaningless as a distance, so it counts 0 (the district prior carries it).
 */
const COMPARABLE_FEATURE_WEIGHTS: Record<(typeof FEATURE_NAMES)[number], number> = {
  district_prior: 1, mahalla_prior: 2, mahalla_log_count: 0, district_code: 0,
  log_area: 2, rooms: 0.5, area_per_room: 0.5, floor: 0.3, total_floors: 0.7, floor_ratio: 0.3, is_first_floor: 0.3, is_last_floor: 0.3,
  renovation: 1, building_type: 0.7, furniture: 0.3, bathroom: 0.3, is_new_build: 0.3, is_owner: 0, period_index: 0.5,
};
const COMPARABLES = { k: 10, weighting: 'distance', featureWeights: FEATURE_NAMES.map((name) => COMPARABLE_FEATURE_WEIGHTS[name]) } as const;

export const MEMBERS: readonly MemberSpec[] = [
  { name: 'gbdt', algorithm: 'histogram gradient-boosted trees (squared error on log price per m²)', hyperparameters: GBDT, create: () => new HistGradientBoostingRegressor(GBDT) },
  { name: 'forest', algorithm: 'random forest (bagged regression trees on log price per m²)', hyperparameters: FOREST, create: () => new RandomForestRegressor(FOREST) },
  { name: 'hedonic', algorithm: 'ridge hedonic regression on log price per m²', hyperparameters: HEDONIC, create: () => new RidgeRegression(HEDONIC) },
  { name: 'comparables', algorithm: 'nearest comparables (10 nearest listings, distance-weighted, on weighted standardised features)', hyperparameters: COMPARABLES, create: () => new NearestComparablesRegressor(COMPARABLES) },
];

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
