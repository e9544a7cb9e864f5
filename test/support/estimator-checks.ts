/** Helpers and fixtures shared by the estimator and ONNX test suites. */
import { makeFriedman1, type Matrix } from '../../models/trainers';

/** Coefficient of determination of predictions against targets. */
export function r2(pred: Float64Array, y: Float64Array): number {
  const mean = y.reduce((a, b) => a + b, 0) / y.length;
  let ssRes = 0;
  let ssTot = 0;
  for (let i = 0; i < y.length; i++) {
    ssRes += (y[i] - pred[i]) ** 2;
    ssTot += (y[i] - mean) ** 2;
  }
  return 1 - ssRes / ssTot;
}

export function sameBytes(a: Float64Array, b: Float64Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** Every typed array reachable from value (to prove fitted state holds no view of the training data). */
export function typedArrays(value: unknown, out: ArrayBufferView[] = [], seen = new Set<unknown>()): ArrayBufferView[] {
  if (value === null || typeof value !== 'object' || seen.has(value)) return out;
  seen.add(value);
  if (ArrayBuffer.isView(value)) out.push(value);
  else for (const v of Object.values(value)) typedArrays(v, out, seen);
  return out;
}

/** Price-like targets (USD) on Friedman #1 with 10% NaN, so a relative tolerance is meaningful. */
export function priced(rows: number, seed: number): { X: Matrix; y: Float64Array } {
  const data = makeFriedman1({ rows, cols: 12, missingRate: 0.1, seed });
  return { X: data.X, y: data.y.map((v) => 40_000 + 2_500 * v) };
}

/** X with one more row whose every feature is missing. */
export function withAllMissingRow(X: Matrix): Matrix {
  return { data: Float64Array.from([...X.data, ...new Array<number>(X.cols).fill(NaN)]), rows: X.rows + 1, cols: X.cols };
}
