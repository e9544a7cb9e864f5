/**
 * The residual-scale model σ(x) of normalised conformal: small, strongly regularised trees on
 * log |residual|, cross-fitted like the members so no row's σ was learned from its own residual.
 * Training only; serving reads σ(x) from its ONNX column.
 */
import { weightedMedian } from '../ensemble/metrics';
import { HistGradientBoostingRegressor, takeRows, type Matrix } from '../trainers';

/** Keeps log|residual| finite for a perfect prediction (0.5% in price). */
export const SCALE_FLOOR = 0.005;
export const SCALE_MODEL = { learningRate: 0.05, maxIter: 150, maxLeafNodes: 8, minSamplesLeaf: 60, l2Regularization: 5, earlyStopping: false, randomState: 42 } as const;
/** How the manifest's method names the scale model. */
export const SCALE_MODEL_NAME = 'GBDT on log |residual|';

/**
 * σ(x) out of fold for every row (each fold's model fitted on the other folds' calibrating rows),
 * the served scale model fitted on every calibrating row, and the weighted median σ of those rows
 * (what pooling pulls toward).
 * @param X each row's features as its own fold saw them (out-of-fold encodings)
 */
export function fitResidualScale(
  X: Matrix, absResiduals: Float64Array, fold: Int32Array, folds: number, calibrating: readonly number[], weight: Float64Array,
): { sigmaOof: Float64Array; model: HistGradientBoostingRegressor; center: number } {
  const create = () => new HistGradientBoostingRegressor(SCALE_MODEL);
  const target = absResiduals.map((r) => Math.log(r + SCALE_FLOOR));
  const n = absResiduals.length;
  const sigmaOof = new Float64Array(n);
  for (let k = 0; k < folds; k++) {
    const fitIdx = calibrating.filter((i) => fold[i] !== k);
    const holdIdx = Array.from({ length: n }, (_, i) => i).filter((i) => fold[i] === k);
    const model = create().fit(takeRows(X, fitIdx), pick(target, fitIdx), { sampleWeight: pick(weight, fitIdx) });
    model.predict(takeRows(X, holdIdx)).forEach((v, r) => (sigmaOof[holdIdx[r]] = Math.exp(v)));
  }
  const model = create().fit(takeRows(X, calibrating), pick(target, calibrating), { sampleWeight: pick(weight, calibrating) });
  return { sigmaOof, model, center: weightedMedian(pick(sigmaOof, calibrating), pick(weight, calibrating)) };
}

function pick(values: Float64Array, idx: readonly number[]): Float64Array {
  return Float64Array.from(idx, (i) => values[i]);
}
