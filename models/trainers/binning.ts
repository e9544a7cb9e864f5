import type { Matrix } from './matrix';
import type { Random } from './random';

/** Bin index reserved for missing values; non-missing values use bins 0..MAX_BINS-1 (scikit-learn's layout). */
export const MISSING_BIN = 255;
export const MAX_BINS = 255;
/** Rows sampled to place quantile thresholds (scikit-learn's subsample for binning). */
const BINNING_SUBSAMPLE = 200_000;

/** Training data mapped to bins, one byte per value, row-major like the Matrix it came from. */
export interface BinnedData {
  readonly bins: Uint8Array;
  readonly rows: number;
  readonly cols: number;
  /** Non-missing bins per feature (thresholds[f].length + 1). */
  readonly nBins: Int32Array;
  /** 1 if the feature had a NaN in the binned data. */
  readonly hasMissing: Uint8Array;
  /**
   * Bin b of feature f holds the values v with thresholds[f][b-1] < fround(v) <= thresholds[f][b].
   * Thresholds are float32 values, so a tree compares float32 inputs (as onnxruntime does) and still
   * sends every training value down the branch its bin took during training.
   */
  readonly thresholds: readonly Float32Array[];
}

/** A float32 value m with a <= m < b, as close to the midpoint as float32 allows. */
function float32Between(a: number, b: number): number {
  const m = Math.fround(a + (b - a) / 2);
  return m < b ? m : a;
}

/** Distinct sorted values when there are few, else quantiles with the midpoint rule (as scikit-learn's _BinMapper). */
function featureThresholds(sorted: Float32Array, maxBins: number): Float32Array {
  const distinct: number[] = [];
  for (let k = 0; k < sorted.length; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) distinct.push(sorted[k]);
  const out: number[] = [];
  if (distinct.length <= maxBins) {
    for (let k = 1; k < distinct.length; k++) out.push(float32Between(distinct[k - 1], distinct[k]));
  } else {
    const n = sorted.length;
    for (let q = 1; q < maxBins; q++) {
      const pos = (q / maxBins) * (n - 1);
      const t = Math.fround((sorted[Math.floor(pos)] + sorted[Math.ceil(pos)]) / 2);
      if (out.length === 0 || t > out[out.length - 1]) out.push(t);
    }
  }
  return Float32Array.from(out);
}

/** Learns per-feature bin thresholds from (a seeded subsample of) X, ignoring NaN. */
export function fitBinThresholds(X: Matrix, maxBins: number, rng: Random): Float32Array[] {
  if (!Number.isInteger(maxBins) || maxBins < 2 || maxBins > MAX_BINS) {
    throw new RangeError(`maxBins must be an integer in [2, ${MAX_BINS}], got ${maxBins}`);
  }
  const rows = X.rows > BINNING_SUBSAMPLE ? rng.permutation(X.rows).subarray(0, BINNING_SUBSAMPLE).sort() : null;
  const n = rows ? rows.length : X.rows;
  const column = new Float32Array(n);
  const thresholds: Float32Array[] = [];
  for (let f = 0; f < X.cols; f++) {
    let m = 0;
    for (let k = 0; k < n; k++) {
      const v = X.data[(rows ? rows[k] : k) * X.cols + f];
      if (v === v) column[m++] = v;
    }
    thresholds.push(featureThresholds(column.subarray(0, m).sort(), maxBins));
  }
  return thresholds;
}

/** Index of the first threshold >= fround(v), i.e. the bin of a non-missing value. */
export function binOf(t: Float32Array, v: number): number {
  const x = Math.fround(v);
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function applyBins(X: Matrix, thresholds: readonly Float32Array[]): BinnedData {
  const { rows, cols } = X;
  const bins = new Uint8Array(rows * cols);
  const hasMissing = new Uint8Array(cols);
  const nBins = new Int32Array(cols);
  for (let f = 0; f < cols; f++) nBins[f] = thresholds[f].length + 1;
  for (let i = 0; i < rows * cols; i++) {
    const v = X.data[i];
    const f = i % cols;
    if (v !== v) {
      bins[i] = MISSING_BIN;
      hasMissing[f] = 1;
    } else {
      bins[i] = binOf(thresholds[f], v);
    }
  }
  return { bins, rows, cols, nBins, hasMissing, thresholds };
}
