import { solveSpd } from './linalg';
import type { Matrix } from './matrix';
import type { FitOptions } from './regressor';
import { NotFittedError, checkFitInput, checkPredictInput } from './validation';
import { logisticProbability, sigmoid, type LogisticState } from '../ensemble/logistic';

export interface LogisticRegressionParams {
  /** L2 penalty on the coefficients of the standardised features (scikit-learn's 1/C). */
  readonly alpha: number;
  /** Newton steps at most; the fit stops earlier once no coefficient moves by more than `tol`. */
  readonly maxIter: number;
  readonly tol: number;
}

export const LOGISTIC_REGRESSION_DEFAULTS: LogisticRegressionParams = { alpha: 1, maxIter: 50, tol: 1e-8 };

/**
 * L2-penalised binary logistic regression on standardised features with an unpenalised intercept,
 * fitted by Newton's method (iteratively reweighted least squares); NaN is imputed with the training
 * mean. Equivalent to scikit-learn's make_pipeline(SimpleImputer(), StandardScaler(),
 * LogisticRegression(C=1/alpha)) with the penalty on the summed (not averaged) log-loss.
 */
export class LogisticRegression {
  readonly params: LogisticRegressionParams;
  fitted_: LogisticState | undefined = undefined;

  constructor(params: Partial<LogisticRegressionParams> = {}) {
    this.params = { ...LOGISTIC_REGRESSION_DEFAULTS, ...params };
  }

  /** @param y 1 for the positive class, 0 for the negative */
  fit(X: Matrix, y: Float64Array, opts?: FitOptions): this {
    const w = checkFitInput(X, y, opts);
    if (y.some((v) => v !== 0 && v !== 1)) throw new RangeError('logistic regression labels must be 0 or 1');
    const { alpha, maxIter, tol } = this.params;
    if (!(alpha > 0) || !Number.isFinite(alpha)) throw new RangeError(`alpha must be finite and > 0, got ${alpha}`);
    const { rows: n, cols: F, data } = X;
    const weight = (i: number) => (w ? w[i] : 1);

    const mean = new Float64Array(F);
    const seen = new Float64Array(F);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < F; j++) {
        const v = data[i * F + j];
        if (v === v) {
          mean[j] += weight(i) * v;
          seen[j] += weight(i);
        }
      }
    }
    for (let j = 0; j < F; j++) mean[j] = seen[j] > 0 ? mean[j] / seen[j] : 0;
    // Standardised design with a leading intercept column (0 where the feature is missing: the mean).
    const P = F + 1;
    const Z = new Float64Array(n * P);
    const sd = new Float64Array(F);
    let sumW = 0;
    for (let i = 0; i < n; i++) sumW += weight(i);
    for (let i = 0; i < n; i++) {
      Z[i * P] = 1;
      for (let j = 0; j < F; j++) {
        const v = data[i * F + j];
        const z = v === v ? v - mean[j] : 0;
        Z[i * P + j + 1] = z;
        sd[j] += weight(i) * z * z;
      }
    }
    for (let j = 0; j < F; j++) {
      sd[j] = Math.sqrt(sd[j] / sumW) || 1;
      for (let i = 0; i < n; i++) Z[i * P + j + 1] /= sd[j];
    }

    const beta = new Float64Array(P);
    for (let iter = 0; iter < maxIter; iter++) {
      const hessian = new Float64Array(P * P);
      const gradient = new Float64Array(P);
      for (let i = 0; i < n; i++) {
        let eta = 0;
        for (let k = 0; k < P; k++) eta += Z[i * P + k] * beta[k];
        const p = sigmoid(eta);
        const wi = weight(i);
        const r = wi * (y[i] - p);
        const h = wi * p * (1 - p);
        for (let j = 0; j < P; j++) {
          const zj = Z[i * P + j];
          if (zj === 0) continue;
          gradient[j] += r * zj;
          const hz = h * zj;
          for (let k = 0; k <= j; k++) hessian[j * P + k] += hz * Z[i * P + k];
        }
      }
      for (let j = 0; j < P; j++) {
        for (let k = 0; k < j; k++) hessian[k * P + j] = hessian[j * P + k];
        if (j > 0) {
          hessian[j * P + j] += alpha;
          gradient[j] -= alpha * beta[j];
        }
        // A column that is 0 everywhere (a feature never seen) gets a unit diagonal: its coefficient stays 0.
        if (hessian[j * P + j] === 0) hessian[j * P + j] = 1;
      }
      const step = solveSpd(hessian, gradient, P);
      let moved = 0;
      for (let k = 0; k < P; k++) {
        beta[k] += step[k];
        moved = Math.max(moved, Math.abs(step[k]));
      }
      if (moved < tol) break;
    }

    const coef = Array.from({ length: F }, (_, j) => beta[j + 1] / sd[j]);
    const intercept = beta[0] - coef.reduce((s, c, j) => s + c * mean[j], 0);
    this.fitted_ = { nFeaturesIn: F, mean: Array.from(mean), coef, intercept };
    return this;
  }

  /** P(y = 1) for each row. */
  predictProba(X: Matrix): Float64Array {
    const state = this.fitted_;
    if (!state) throw new NotFittedError('LogisticRegression');
    checkPredictInput(X, state.nFeaturesIn);
    return Float64Array.from({ length: X.rows }, (_, i) => logisticProbability(state, X.data.subarray(i * X.cols, (i + 1) * X.cols)));
  }
}
