import { solveSpd } from './linalg';
import type { Matrix } from './matrix';
import type { FitOptions, Regressor } from './regressor';
import { NotFittedError, checkFitInput, checkPredictInput } from './validation';

export interface RidgeParams {
  /** L2 penalty on the coefficients of the standardised features. */
  readonly alpha: number;
}

export const RIDGE_DEFAULTS: RidgeParams = { alpha: 1 };

export interface RidgeState {
  readonly nFeaturesIn: number;
  /** Training mean of each feature (NaN ignored), which also replaces a missing value. */
  readonly mean: Float64Array;
  /** Coefficients on the raw (imputed) features: the standardisation is folded in. */
  readonly coef: Float64Array;
  readonly intercept: number;
}

/**
 * Ridge regression on standardised features with an unpenalised intercept, solved in closed form;
 * NaN is imputed with the training mean. Equivalent to scikit-learn's
 * make_pipeline(SimpleImputer(), StandardScaler(), Ridge(alpha)).
 */
export class RidgeRegression implements Regressor<RidgeParams> {
  readonly params: RidgeParams;
  fitted_: RidgeState | undefined = undefined;

  constructor(params: Partial<RidgeParams> = {}) {
    this.params = { ...RIDGE_DEFAULTS, ...params };
  }

  getParams(): RidgeParams {
    return { ...this.params };
  }

  fit(X: Matrix, y: Float64Array, opts?: FitOptions): this {
    const w = checkFitInput(X, y, opts);
    const { alpha } = this.params;
    if (!(alpha >= 0) || !Number.isFinite(alpha)) throw new RangeError(`alpha must be finite and >= 0, got ${alpha}`);
    const { rows: n, cols: F, data } = X;
    const weight = (i: number) => (w ? w[i] : 1);

    const mean = new Float64Array(F);
    const seen = new Float64Array(F);
    let sumW = 0;
    let yMean = 0;
    for (let i = 0; i < n; i++) {
      const wi = weight(i);
      sumW += wi;
      yMean += wi * y[i];
      for (let j = 0; j < F; j++) {
        const v = data[i * F + j];
        if (v === v) {
          mean[j] += wi * v;
          seen[j] += wi;
        }
      }
    }
    yMean /= sumW;
    for (let j = 0; j < F; j++) mean[j] = seen[j] > 0 ? mean[j] / seen[j] : 0;

    // imputing the mean leaves the weighted mean unchanged, so centred rows are z = x - mean (0 where NaN)
    const z = new Float64Array(F);
    const gram = new Float64Array(F * F);
    const xty = new Float64Array(F);
    for (let i = 0; i < n; i++) {
      const wi = weight(i);
      const r = wi * (y[i] - yMean);
      for (let j = 0; j < F; j++) {
        const v = data[i * F + j];
        z[j] = v === v ? v - mean[j] : 0;
      }
      for (let j = 0; j < F; j++) {
        if (z[j] === 0) continue;
        xty[j] += r * z[j];
        const wz = wi * z[j];
        for (let k = 0; k <= j; k++) gram[j * F + k] += wz * z[k];
      }
    }
    const scale = new Float64Array(F);
    for (let j = 0; j < F; j++) {
      const sd = Math.sqrt(gram[j * F + j] / sumW);
      scale[j] = sd > 0 ? sd : 1;
    }
    const A = new Float64Array(F * F);
    const b = new Float64Array(F);
    for (let j = 0; j < F; j++) {
      b[j] = xty[j] / scale[j];
      for (let k = 0; k <= j; k++) A[j * F + k] = A[k * F + j] = gram[j * F + k] / (scale[j] * scale[k]);
      // a constant feature has an all-zero row and column; a unit diagonal pins its coefficient to 0
      A[j * F + j] += A[j * F + j] === 0 ? 1 : alpha;
    }
    const beta = solveSpd(A, b, F);

    const coef = new Float64Array(F);
    let intercept = yMean;
    for (let j = 0; j < F; j++) {
      coef[j] = beta[j] / scale[j];
      intercept -= coef[j] * mean[j];
    }
    this.fitted_ = { nFeaturesIn: F, mean, coef, intercept };
    return this;
  }

  predict(X: Matrix): Float64Array {
    const state = this.fitted_;
    if (!state) throw new NotFittedError('RidgeRegression');
    checkPredictInput(X, state.nFeaturesIn);
    const { mean, coef, intercept } = state;
    const F = X.cols;
    const out = new Float64Array(X.rows);
    for (let i = 0; i < X.rows; i++) {
      let s = intercept;
      for (let j = 0; j < F; j++) {
        const v = X.data[i * F + j];
        s += coef[j] * (v === v ? v : mean[j]);
      }
      out[i] = s;
    }
    return out;
  }
}
