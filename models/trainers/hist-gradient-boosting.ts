import { applyBins, fitBinThresholds } from './binning';
import { TreeGrower } from './grower';
import { pinballLoss, squaredError, type Loss } from './losses';
import { takeRows, type Matrix } from './matrix';
import { Random } from './random';
import type { FitOptions, Regressor } from './regressor';
import { leafOf, type Tree } from './tree';
import { NotFittedError, checkFitInput, checkOptionalLimit, checkPositiveInteger, checkPredictInput } from './validation';

export interface HistGradientBoostingParams {
  /** 'quantile' fits the alpha-quantile with the pinball loss. */
  readonly loss: 'squared_error' | 'quantile';
  readonly alpha: number;
  readonly learningRate: number;
  readonly maxIter: number;
  /** Best-first growth up to this many leaves; null with maxDepth set gives depth-limited trees. */
  readonly maxLeafNodes: number | null;
  readonly maxDepth: number | null;
  readonly minSamplesLeaf: number;
  readonly l2Regularization: number;
  readonly maxBins: number;
  /** 'auto' enables it above 10,000 rows, as scikit-learn does. */
  readonly earlyStopping: 'auto' | boolean;
  readonly validationFraction: number;
  readonly nIterNoChange: number;
  readonly tol: number;
  readonly randomState: number;
  /** Per feature +1 / -1 / 0: the prediction only rises / only falls / is free along it (squared error only). */
  readonly monotonicCst: readonly number[] | null;
}

/** scikit-learn's HistGradientBoostingRegressor defaults (alpha as in its GradientBoostingRegressor). */
export const HIST_GRADIENT_BOOSTING_DEFAULTS: HistGradientBoostingParams = {
  loss: 'squared_error',
  alpha: 0.9,
  learningRate: 0.1,
  maxIter: 100,
  maxLeafNodes: 31,
  maxDepth: null,
  minSamplesLeaf: 20,
  l2Regularization: 0,
  maxBins: 255,
  earlyStopping: 'auto',
  validationFraction: 0.1,
  nIterNoChange: 10,
  tol: 1e-7,
  randomState: 0,
  monotonicCst: null,
};

export interface HistGradientBoostingState {
  readonly nFeaturesIn: number;
  /** Raw prediction before any tree: the mean (squared error) or alpha-quantile of y. */
  readonly baseline: number;
  /** Leaf values already include the learning rate; prediction = baseline + sum of leaves. */
  readonly trees: readonly Tree[];
  /** -loss after 0..nIter trees on the training and validation rows; null without early stopping. */
  readonly trainScore: Float64Array | null;
  readonly validationScore: Float64Array | null;
}

function checkParams(p: HistGradientBoostingParams): void {
  if (p.loss !== 'squared_error' && p.loss !== 'quantile') throw new RangeError(`unknown loss ${String(p.loss)}`);
  if (!(p.learningRate > 0)) throw new RangeError(`learningRate must be > 0, got ${p.learningRate}`);
  checkPositiveInteger('maxIter', p.maxIter);
  checkOptionalLimit('maxLeafNodes', p.maxLeafNodes, 2);
  checkOptionalLimit('maxDepth', p.maxDepth, 1);
  checkPositiveInteger('minSamplesLeaf', p.minSamplesLeaf);
  if (!(p.l2Regularization >= 0)) throw new RangeError(`l2Regularization must be >= 0, got ${p.l2Regularization}`);
  if (!(p.validationFraction > 0 && p.validationFraction < 1)) {
    throw new RangeError(`validationFraction must be in (0, 1), got ${p.validationFraction}`);
  }
  checkPositiveInteger('nIterNoChange', p.nIterNoChange);
  // The quantile loss replaces leaf values after growth, which would undo the constraint.
  if (p.monotonicCst && p.loss !== 'squared_error') throw new RangeError('monotonicCst needs the squared_error loss');
  if (!(p.tol >= 0)) throw new RangeError(`tol must be >= 0, got ${p.tol}`);
}

/** scikit-learn's rule: stop when none of the last nIterNoChange scores beat the one before them by more than tol. */
function shouldStop(scores: readonly number[], nIterNoChange: number, tol: number): boolean {
  const ref = nIterNoChange + 1;
  if (scores.length < ref) return false;
  const reference = scores[scores.length - ref] + tol;
  for (let k = scores.length - ref + 1; k < scores.length; k++) if (scores[k] > reference) return false;
  return true;
}

function gather(v: Float64Array, rows: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: rows.length }, (_, k) => v[rows[k]]);
}

interface Split {
  readonly X: Matrix;
  readonly y: Float64Array;
  readonly w: Float64Array | null;
}

/** Gradient-boosted trees on binned features, after scikit-learn's HistGradientBoostingRegressor. */
export class HistGradientBoostingRegressor implements Regressor<HistGradientBoostingParams> {
  readonly params: HistGradientBoostingParams;
  fitted_: HistGradientBoostingState | undefined = undefined;

  constructor(params: Partial<HistGradientBoostingParams> = {}) {
    this.params = { ...HIST_GRADIENT_BOOSTING_DEFAULTS, ...params };
  }

  getParams(): HistGradientBoostingParams {
    return { ...this.params };
  }

  fit(X: Matrix, y: Float64Array, opts?: FitOptions): this {
    const w = checkFitInput(X, y, opts);
    const p = this.params;
    checkParams(p);
    const loss: Loss = p.loss === 'quantile' ? pinballLoss(p.alpha) : squaredError;
    const rng = new Random(p.randomState);
    const early = p.earlyStopping === 'auto' ? X.rows > 10_000 : p.earlyStopping;
    const [train, val] = early ? this.holdOut(X, y, w, rng) : [{ X, y, w }, null];

    const data = applyBins(train.X, fitBinThresholds(train.X, p.maxBins, rng));
    const n = train.X.rows;
    const baseline = loss.baseline(train.y, train.w);
    const raw = new Float64Array(n).fill(baseline);
    const valRaw = val ? new Float64Array(val.X.rows).fill(baseline) : null;
    const grad = new Float64Array(n);
    const hess = new Float64Array(n);
    const indices = new Uint32Array(n);
    const residuals = loss.leafValue ? new Float64Array(n) : null;
    const leafWeights = loss.leafValue && train.w ? new Float64Array(n) : null;
    const grower = new TreeGrower(data, {
      maxLeafNodes: p.maxLeafNodes,
      maxDepth: p.maxDepth,
      minSamplesLeaf: p.minSamplesLeaf,
      l2Regularization: p.l2Regularization,
      maxFeatures: data.cols,
      monotonic: p.monotonicCst,
    });

    const trees: Tree[] = [];
    const trainScore: number[] = [];
    const validationScore: number[] = [];
    const score = () => {
      if (!val || !valRaw) return false;
      trainScore.push(-loss.value(train.y, raw, train.w));
      validationScore.push(-loss.value(val.y, valRaw, val.w));
      return shouldStop(validationScore, p.nIterNoChange, p.tol);
    };
    score();
    for (let iter = 0; iter < p.maxIter; iter++) {
      loss.gradients(train.y, raw, train.w, grad, hess);
      for (let k = 0; k < n; k++) indices[k] = k;
      const { tree, leaves } = grower.grow(grad, hess, indices, rng);
      for (const { node, start, end } of leaves) {
        let step = tree.value[node];
        if (loss.leafValue && residuals) {
          for (let k = start; k < end; k++) {
            residuals[k - start] = train.y[indices[k]] - raw[indices[k]];
            if (leafWeights && train.w) leafWeights[k - start] = train.w[indices[k]];
          }
          step = loss.leafValue(residuals.subarray(0, end - start), leafWeights ? leafWeights.subarray(0, end - start) : null);
        }
        const value = p.learningRate * step;
        tree.value[node] = value;
        for (let k = start; k < end; k++) raw[indices[k]] += value;
      }
      trees.push(tree);
      if (val && valRaw) {
        for (let r = 0; r < val.X.rows; r++) valRaw[r] += tree.value[leafOf(tree, val.X.data, r * val.X.cols)];
      }
      if (score()) break;
    }

    this.fitted_ = {
      nFeaturesIn: X.cols,
      baseline,
      trees,
      trainScore: early ? Float64Array.from(trainScore) : null,
      validationScore: early ? Float64Array.from(validationScore) : null,
    };
    return this;
  }

  predict(X: Matrix): Float64Array {
    const state = this.fitted_;
    if (!state) throw new NotFittedError('HistGradientBoostingRegressor');
    checkPredictInput(X, state.nFeaturesIn);
    const out = new Float64Array(X.rows).fill(state.baseline);
    for (const tree of state.trees) {
      for (let r = 0; r < X.rows; r++) out[r] += tree.value[leafOf(tree, X.data, r * X.cols)];
    }
    return out;
  }

  /** Seeded split into training rows and the validation rows early stopping scores on. */
  private holdOut(X: Matrix, y: Float64Array, w: Float64Array | null, rng: Random): [Split, Split] {
    const nVal = Math.ceil(this.params.validationFraction * X.rows);
    if (X.rows - nVal < 2) throw new RangeError(`early stopping leaves ${X.rows - nVal} training rows`);
    const perm = rng.permutation(X.rows);
    const part = (rows: Uint32Array): Split => ({ X: takeRows(X, rows), y: gather(y, rows), w: w ? gather(w, rows) : null });
    return [part(perm.slice(nVal).sort()), part(perm.slice(0, nVal).sort())];
  }
}
