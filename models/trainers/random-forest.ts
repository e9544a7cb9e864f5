import { applyBins, fitBinThresholds } from './binning';
import { TreeGrower } from './grower';
import type { Matrix } from './matrix';
import { Random } from './random';
import type { FitOptions, Regressor } from './regressor';
import { leafOf, type Tree } from './tree';
import { NotFittedError, checkFitInput, checkOptionalLimit, checkPositiveInteger, checkPredictInput } from './validation';

export interface RandomForestParams {
  readonly nEstimators: number;
  readonly maxDepth: number | null;
  readonly maxLeafNodes: number | null;
  readonly minSamplesLeaf: number;
  /** Features tried per split: a fraction in (0, 1] of all features, or 'sqrt' / 'log2' of their count. */
  readonly maxFeatures: number | 'sqrt' | 'log2';
  readonly bootstrap: boolean;
  readonly maxBins: number;
  readonly randomState: number;
  /** Per feature +1 / -1 / 0: the prediction only rises / only falls / is free along it (scikit-learn's monotonic_cst). */
  readonly monotonicCst: readonly number[] | null;
}

/** scikit-learn's RandomForestRegressor defaults. */
export const RANDOM_FOREST_DEFAULTS: RandomForestParams = {
  nEstimators: 100,
  maxDepth: null,
  maxLeafNodes: null,
  minSamplesLeaf: 1,
  maxFeatures: 1,
  bootstrap: true,
  maxBins: 255,
  randomState: 0,
  monotonicCst: null,
};

export interface RandomForestState {
  readonly nFeaturesIn: number;
  /** Leaf values are weighted means of y; prediction = mean over trees. */
  readonly trees: readonly Tree[];
}

function featuresPerSplit(maxFeatures: RandomForestParams['maxFeatures'], cols: number): number {
  if (maxFeatures === 'sqrt') return Math.max(1, Math.floor(Math.sqrt(cols)));
  if (maxFeatures === 'log2') return Math.max(1, Math.floor(Math.log2(cols)));
  if (!(maxFeatures > 0 && maxFeatures <= 1)) throw new RangeError(`maxFeatures must be in (0, 1], 'sqrt' or 'log2', got ${maxFeatures}`);
  return Math.max(1, Math.floor(maxFeatures * cols));
}

/**
 * Bagged regression trees on binned features, after scikit-learn's RandomForestRegressor. Splits come
 * from the same histogram search as the boosted trees, so they fall between bins rather than between
 * every pair of distinct values, and NaN is routed by a learned direction per split.
 */
export class RandomForestRegressor implements Regressor<RandomForestParams> {
  readonly params: RandomForestParams;
  fitted_: RandomForestState | undefined = undefined;

  constructor(params: Partial<RandomForestParams> = {}) {
    this.params = { ...RANDOM_FOREST_DEFAULTS, ...params };
  }

  getParams(): RandomForestParams {
    return { ...this.params };
  }

  fit(X: Matrix, y: Float64Array, opts?: FitOptions): this {
    const w = checkFitInput(X, y, opts);
    const p = this.params;
    checkPositiveInteger('nEstimators', p.nEstimators);
    checkOptionalLimit('maxDepth', p.maxDepth, 1);
    checkOptionalLimit('maxLeafNodes', p.maxLeafNodes, 2);
    checkPositiveInteger('minSamplesLeaf', p.minSamplesLeaf);
    const maxFeatures = featuresPerSplit(p.maxFeatures, X.cols);
    const rng = new Random(p.randomState);
    const data = applyBins(X, fitBinThresholds(X, p.maxBins, rng));
    const n = X.rows;

    let sumWY = 0;
    let sumW = 0;
    for (let i = 0; i < n; i++) {
      sumWY += (w ? w[i] : 1) * y[i];
      sumW += w ? w[i] : 1;
    }
    // trees fit y - mean (better conditioned gains); the mean is added back into the leaves
    const mean = sumWY / sumW;
    const grower = new TreeGrower(data, {
      maxLeafNodes: p.maxLeafNodes,
      maxDepth: p.maxDepth,
      minSamplesLeaf: p.minSamplesLeaf,
      l2Regularization: 0,
      maxFeatures,
      monotonic: p.monotonicCst,
    });
    const counts = new Float64Array(n);
    const grad = new Float64Array(n);
    const hess = new Float64Array(n);
    const indices = new Uint32Array(n);
    const trees: Tree[] = [];
    for (let t = 0; t < p.nEstimators; t++) {
      counts.fill(p.bootstrap ? 0 : 1);
      if (p.bootstrap) for (let k = 0; k < n; k++) counts[rng.int(n)]++;
      let m = 0;
      for (let i = 0; i < n; i++) {
        if (counts[i] === 0) continue;
        // a row drawn c times weighs c (scikit-learn multiplies sample_weight by bootstrap counts)
        const c = counts[i] * (w ? w[i] : 1);
        grad[i] = -c * (y[i] - mean);
        hess[i] = c;
        indices[m++] = i;
      }
      const { tree, leaves } = grower.grow(grad, hess, indices.subarray(0, m), rng);
      for (const leaf of leaves) tree.value[leaf.node] += mean;
      trees.push(tree);
    }
    this.fitted_ = { nFeaturesIn: X.cols, trees };
    return this;
  }

  predict(X: Matrix): Float64Array {
    const state = this.fitted_;
    if (!state) throw new NotFittedError('RandomForestRegressor');
    checkPredictInput(X, state.nFeaturesIn);
    const out = new Float64Array(X.rows);
    for (const tree of state.trees) {
      for (let r = 0; r < X.rows; r++) out[r] += tree.value[leafOf(tree, X.data, r * X.cols)];
    }
    for (let r = 0; r < X.rows; r++) out[r] /= state.trees.length;
    return out;
  }
}
