import { quantile } from './percentile';

/** A boosting loss over raw predictions (identity link). */
export interface Loss {
  /** The best constant prediction, the ensemble's starting point. */
  baseline(y: Float64Array, w: Float64Array | null): number;
  /** Fills per-row gradient and hessian of the loss at the current raw predictions. */
  gradients(y: Float64Array, raw: Float64Array, w: Float64Array | null, grad: Float64Array, hess: Float64Array): void;
  /** Weighted mean loss, used for early stopping. */
  value(y: Float64Array, raw: Float64Array, w: Float64Array | null): number;
  /**
   * For losses whose Newton step is a poor leaf value (non-differentiable ones), the leaf value to use
   * instead, from the residuals y - raw of the leaf's rows (reordered in place); null keeps the Newton step.
   */
  readonly leafValue: ((residuals: Float64Array, w: Float64Array | null) => number) | null;
}

function weightedMean(values: (i: number) => number, n: number, w: Float64Array | null): number {
  let sum = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const wi = w ? w[i] : 1;
    sum += wi * values(i);
    total += wi;
  }
  return sum / total;
}

/** Half squared error: gradient raw - y, hessian 1 (scikit-learn's HalfSquaredError). */
export const squaredError: Loss = {
  baseline: (y, w) => weightedMean((i) => y[i], y.length, w),
  gradients(y, raw, w, grad, hess) {
    for (let i = 0; i < y.length; i++) {
      const wi = w ? w[i] : 1;
      grad[i] = wi * (raw[i] - y[i]);
      hess[i] = wi;
    }
  },
  value: (y, raw, w) => weightedMean((i) => 0.5 * (y[i] - raw[i]) ** 2, y.length, w),
  leafValue: null,
};

/** Pinball loss for the alpha-quantile; leaves take the alpha-quantile of their residuals, as scikit-learn does. */
export function pinballLoss(alpha: number): Loss {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  return {
    baseline: (y, w) => quantile(Float64Array.from(y), alpha, w),
    gradients(y, raw, w, grad, hess) {
      for (let i = 0; i < y.length; i++) {
        const wi = w ? w[i] : 1;
        grad[i] = wi * (y[i] > raw[i] ? -alpha : 1 - alpha);
        hess[i] = wi;
      }
    },
    value: (y, raw, w) =>
      weightedMean((i) => {
        const u = y[i] - raw[i];
        return u >= 0 ? alpha * u : (alpha - 1) * u;
      }, y.length, w),
    leafValue: (residuals, w) => quantile(residuals, alpha, w),
  };
}
