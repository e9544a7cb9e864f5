import type { Matrix } from './matrix';
import type { FitOptions, Regressor } from './regressor';
import { NotFittedError, checkFitInput, checkPositiveInteger, checkPredictInput } from './validation';

export interface NearestComparablesParams {
  /** Number of comparables averaged per prediction. */
  readonly k: number;
  /** 'uniform': every comparable counts the same; 'distance': a comparable at distance d weighs 1 / (d + DISTANCE_EPSILON). */
  readonly weighting: 'uniform' | 'distance';
  /**
   * One non-negative multiplier per feature, applied after standardising (a weight of 2 makes a one-sd
   * difference in that feature count like a two-sd difference); null means every feature weighs 1.
   */
  readonly featureWeights: readonly number[] | null;
}

export const NEAREST_COMPARABLES_DEFAULTS: NearestComparablesParams = { k: 10, weighting: 'distance', featureWeights: null };

/**
 * Added to a comparable's distance (in standardised units) before inverting it, so an exact duplicate
 * weighs 1e6 rather than infinity: it all but decides the prediction, as scikit-learn's zero-distance rule does.
 */
export const DISTANCE_EPSILON = 1e-6;

/**
 * MLAS (onnxruntime's CPU GEMM) sums a dot product in blocks of this many terms, each block a chain of
 * float32 fused multiply-adds from zero, and adds the block sums in order. predict ranks comparables on
 * the same float32 values, so it picks the same ones as the exported graph even at near-ties.
 */
const GEMM_K_BLOCK = 256;

export interface NearestComparablesState {
  readonly nFeaturesIn: number;
  /** params.k and params.weighting at fit, so the fitted model (and its export) stands on its own. */
  readonly k: number;
  readonly weighting: NearestComparablesParams['weighting'];
  /**
   * Training mean of each feature (NaN ignored, sample weights applied), as float32: what the ONNX graph
   * holds, so both standardise identically. A missing value is imputed with it (0 once standardised).
   */
  readonly mean: Float32Array;
  /** Training standard deviation of each feature (population, NaN ignored); 1 where it is 0 or undefined. */
  readonly scale: Float32Array;
  readonly featureWeights: Float32Array;
  /**
   * The comparables: training rows of positive weight, standardised, imputed and multiplied by the feature
   * weights, row-major [comparables, nFeaturesIn].
   */
  readonly points: Float32Array;
  /** Half the squared norm of each point: ranking by halfSquaredNorm - x·point is ranking by distance to x. */
  readonly halfSquaredNorm: Float32Array;
  readonly y: Float64Array;
  /** Sample weight of each comparable, multiplying its vote; null when every one weighs 1. */
  readonly sampleWeight: Float64Array | null;
  /** Row of the training X each comparable came from. */
  readonly trainingRow: Uint32Array;
}

/** The k nearest comparables of each row, nearest first, row-major [rows, k]. */
export interface Neighbours {
  readonly k: number;
  /** Rows of the training X. */
  readonly indices: Uint32Array;
  /** Euclidean distances in the standardised, feature-weighted space. */
  readonly distances: Float64Array;
}

const f32 = Math.fround;

function checkParams(p: NearestComparablesParams, cols: number): void {
  checkPositiveInteger('k', p.k);
  if (p.weighting !== 'uniform' && p.weighting !== 'distance') throw new RangeError(`weighting must be 'uniform' or 'distance', got ${String(p.weighting)}`);
  const fw = p.featureWeights;
  if (fw === null) return;
  if (fw.length !== cols) throw new RangeError(`featureWeights has ${fw.length} values for ${cols} features`);
  fw.forEach((v, j) => {
    if (!(v >= 0) || !Number.isFinite(v)) throw new RangeError(`featureWeights[${j}] is ${v}: weights must be finite and >= 0`);
  });
}

/**
 * k-nearest-neighbours regression on standardised features: the valuation analogue of comparable sales.
 * A row is standardised with the training mean and standard deviation, a missing value becomes the
 * training mean (0 once standardised), features are multiplied by featureWeights, and the prediction is
 * the (optionally distance-weighted) mean target of the k training rows nearest in Euclidean distance;
 * ties go to the lower training row. scikit-learn's make_pipeline(SimpleImputer(), StandardScaler(),
 * KNeighborsRegressor(k, weights)) up to the epsilon in the distance weights and the tie rule.
 *
 * Arithmetic is float32 in the order onnxruntime uses, so the exported graph picks the same neighbours.
 *
 * Sample weights weight the standardisation statistics and multiply each comparable's vote; a row of
 * weight 0 is never a comparable.
 *
 * In-sample predictions are optimistic: a training row is its own nearest comparable (distance 0, and
 * with 'distance' weighting it all but decides the prediction), so judge the model on rows it was not
 * fitted on (out-of-fold or held out), as the ensemble does.
 */
export class NearestComparablesRegressor implements Regressor<NearestComparablesParams> {
  readonly params: NearestComparablesParams;
  fitted_: NearestComparablesState | undefined = undefined;

  constructor(params: Partial<NearestComparablesParams> = {}) {
    const merged = { ...NEAREST_COMPARABLES_DEFAULTS, ...params };
    this.params = { ...merged, featureWeights: merged.featureWeights == null ? null : [...merged.featureWeights] };
  }

  getParams(): NearestComparablesParams {
    const { featureWeights } = this.params;
    return { ...this.params, featureWeights: featureWeights === null ? null : [...featureWeights] };
  }

  fit(X: Matrix, y: Float64Array, opts?: FitOptions): this {
    const w = checkFitInput(X, y, opts);
    const { rows: n, cols: F, data } = X;
    checkParams(this.params, F);
    const weight = (i: number) => (w ? w[i] : 1);
    let pool = 0;
    for (let i = 0; i < n; i++) if (weight(i) > 0) pool++;
    if (this.params.k > pool) throw new RangeError(`k = ${this.params.k} exceeds the ${pool} training rows of positive weight`);

    const mean = new Float64Array(F);
    const seen = new Float64Array(F);
    for (let i = 0; i < n; i++) {
      const wi = weight(i);
      for (let j = 0; j < F; j++) {
        const v = data[i * F + j];
        if (v === v) {
          mean[j] += wi * v;
          seen[j] += wi;
        }
      }
    }
    for (let j = 0; j < F; j++) mean[j] = seen[j] > 0 ? mean[j] / seen[j] : 0;
    const variance = new Float64Array(F);
    for (let i = 0; i < n; i++) {
      const wi = weight(i);
      for (let j = 0; j < F; j++) {
        const v = data[i * F + j];
        if (v === v) variance[j] += wi * (v - mean[j]) ** 2;
      }
    }
    const scale = new Float32Array(F);
    for (let j = 0; j < F; j++) {
      const sd = f32(seen[j] > 0 ? Math.sqrt(variance[j] / seen[j]) : 0);
      scale[j] = sd > 0 && Number.isFinite(sd) ? sd : 1;
    }
    const mean32 = Float32Array.from(mean);
    const featureWeights = Float32Array.from(this.params.featureWeights ?? new Array<number>(F).fill(1));
    const standardise = { mean: mean32, scale, featureWeights };

    const points = new Float32Array(pool * F);
    const halfSquaredNorm = new Float32Array(pool);
    const yOut = new Float64Array(pool);
    const trainingRow = new Uint32Array(pool);
    const sampleWeight = new Float64Array(pool);
    let allOnes = true;
    for (let i = 0, m = 0; i < n; i++) {
      const wi = weight(i);
      if (!(wi > 0)) continue;
      const point = points.subarray(m * F, (m + 1) * F);
      standardiseRow(standardise, data, i * F, point);
      let norm = 0;
      for (let j = 0; j < F; j++) norm += point[j] * point[j];
      halfSquaredNorm[m] = f32(norm / 2);
      yOut[m] = y[i];
      trainingRow[m] = i;
      sampleWeight[m] = wi;
      if (wi !== 1) allOnes = false;
      m++;
    }
    this.fitted_ = {
      nFeaturesIn: F,
      k: this.params.k,
      weighting: this.params.weighting,
      mean: mean32,
      scale,
      featureWeights,
      points,
      halfSquaredNorm,
      y: yOut,
      sampleWeight: allOnes ? null : sampleWeight,
      trainingRow,
    };
    return this;
  }

  predict(X: Matrix): Float64Array {
    const state = this.state();
    const { k, weighting, y, sampleWeight } = state;
    const { slot, squaredDistance } = nearest(state, X);
    const eps = f32(DISTANCE_EPSILON);
    const out = new Float64Array(X.rows);
    for (let i = 0; i < X.rows; i++) {
      let sum = 0;
      let total = 0;
      for (let r = i * k; r < (i + 1) * k; r++) {
        const m = slot[r];
        let v = weighting === 'distance' ? f32(1 / f32(f32(Math.sqrt(squaredDistance[r])) + eps)) : 1;
        if (sampleWeight) v = f32(v * f32(sampleWeight[m]));
        sum += v * y[m];
        total += v;
      }
      out[i] = sum / total;
    }
    return out;
  }

  /** The k comparables of each row (as scikit-learn's kneighbors): training rows and distances, nearest first. */
  kneighbors(X: Matrix): Neighbours {
    const state = this.state();
    const { k } = state;
    const { slot, squaredDistance } = nearest(state, X);
    const indices = new Uint32Array(slot.length);
    slot.forEach((m, r) => (indices[r] = state.trainingRow[m]));
    return { k, indices, distances: squaredDistance.map(Math.sqrt) };
  }

  private state(): NearestComparablesState {
    if (!this.fitted_) throw new NotFittedError('NearestComparablesRegressor');
    return this.fitted_;
  }
}

type Standardisation = Pick<NearestComparablesState, 'mean' | 'scale' | 'featureWeights'>;

/** Writes row `offset` of `data` standardised into `out`, in float32 as the graph does: Sub, Div, Mul, then NaN -> 0. */
function standardiseRow({ mean, scale, featureWeights }: Standardisation, data: Float64Array, offset: number, out: Float32Array): void {
  for (let j = 0; j < out.length; j++) {
    const z = f32(f32(f32(f32(data[offset + j]) - mean[j]) / scale[j]) * featureWeights[j]);
    out[j] = z === z ? z : 0;
  }
}

/** x·point in float32 as MLAS sums it: fused multiply-adds in order within blocks of GEMM_K_BLOCK terms. */
function blockedDot(query: Float32Array, points: Float32Array, base: number): number {
  const F = query.length;
  let dot = 0;
  for (let start = 0; start < F; start += GEMM_K_BLOCK) {
    const end = Math.min(F, start + GEMM_K_BLOCK);
    let part = 0;
    for (let j = start; j < end; j++) part = f32(part + query[j] * points[base + j]);
    dot = start === 0 ? part : f32(dot + part);
  }
  return dot;
}

/** keys[m] = halfSquaredNorm[m] - query·point m, in float32 as the graph's MatMul and Sub compute it. */
function rankKeys(query: Float32Array, points: Float32Array, halfSquaredNorm: Float32Array, keys: Float32Array): void {
  const F = query.length;
  const M = halfSquaredNorm.length;
  let m = 0;
  if (F <= GEMM_K_BLOCK) {
    // four independent float32 chains at a time: each rounding waits on the one before, so interleave them
    for (; m + 4 <= M; m += 4) {
      const b0 = m * F;
      const b1 = b0 + F;
      const b2 = b1 + F;
      const b3 = b2 + F;
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      for (let j = 0; j < F; j++) {
        const q = query[j];
        d0 = f32(d0 + q * points[b0 + j]);
        d1 = f32(d1 + q * points[b1 + j]);
        d2 = f32(d2 + q * points[b2 + j]);
        d3 = f32(d3 + q * points[b3 + j]);
      }
      keys[m] = halfSquaredNorm[m] - d0;
      keys[m + 1] = halfSquaredNorm[m + 1] - d1;
      keys[m + 2] = halfSquaredNorm[m + 2] - d2;
      keys[m + 3] = halfSquaredNorm[m + 3] - d3;
    }
  }
  for (; m < M; m++) keys[m] = halfSquaredNorm[m] - blockedDot(query, points, m * F);
}

/**
 * For each row of X, the k comparables (slots in state.points) ranked by the float32 key
 * halfSquaredNorm - x·point, ties to the lower slot (onnxruntime's TopK order), and their squared
 * distances summed from the differences (no cancellation, so a duplicate is at exactly 0).
 */
function nearest(state: NearestComparablesState, X: Matrix): { slot: Uint32Array; squaredDistance: Float64Array } {
  checkPredictInput(X, state.nFeaturesIn);
  const { k, points, halfSquaredNorm } = state;
  const F = state.nFeaturesIn;
  const M = halfSquaredNorm.length;
  const slot = new Uint32Array(X.rows * k);
  const squaredDistance = new Float64Array(X.rows * k);
  const query = new Float32Array(F);
  const keys = new Float32Array(M);
  const bestKey = new Float32Array(k);
  const bestSlot = new Uint32Array(k);
  for (let i = 0; i < X.rows; i++) {
    standardiseRow(state, X.data, i * F, query);
    rankKeys(query, points, halfSquaredNorm, keys);
    let found = 0;
    for (let m = 0; m < M; m++) {
      const key = keys[m];
      // strict comparison: an equal key from a later slot ranks behind, so it never displaces
      if (found === k && !(key < bestKey[k - 1])) continue;
      let at = found < k ? found++ : k - 1;
      while (at > 0 && key < bestKey[at - 1]) {
        bestKey[at] = bestKey[at - 1];
        bestSlot[at] = bestSlot[at - 1];
        at--;
      }
      bestKey[at] = key;
      bestSlot[at] = m;
    }
    for (let r = 0; r < k; r++) {
      const m = bestSlot[r];
      let d2 = 0;
      for (let j = 0; j < F; j++) {
        const diff = f32(query[j] - points[m * F + j]);
        d2 = f32(d2 + f32(diff * diff));
      }
      slot[i * k + r] = m;
      squaredDistance[i * k + r] = d2;
    }
  }
  return { slot, squaredDistance };
}
