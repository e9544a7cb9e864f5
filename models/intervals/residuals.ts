/**
 * What calibration reads of a cross-fit: per row, the out-of-fold residual, σ(x) and the facts
 * that decide where the row calibrates. Cross-fitting (models/ensemble/cross-fit.ts) fills it in.
 */
import type { ScalePooling } from './calibration';

/** What a cross-fit measured out of fold, per row: everything calibration reads. */
export interface OutOfFoldResiduals {
  /** |log residual| of the out-of-fold consensus. */
  abs: Float64Array;
  /** σ(x) of the cross-fitted scale model. */
  sigma: Float64Array;
  /** The weighted median σ over the calibrating rows, what pooling pulls toward. */
  center: number;
  /** Recency weight. */
  weight: Float64Array;
  group: readonly string[];
  source: readonly string[];
  /** Rows whose residuals calibrate (CrossFitConfig.calibratesOn). */
  calibrating: readonly number[];
  /** Months the row's level was extrapolated past its fit's newest data (the drift allowance's months). */
  monthsBeyond: Float64Array;
  /** Rows below this index are the originals, those from it on their masked copies. */
  originals: number;
}

/** The pooling of σ(x) at `power`, toward the fit's median σ. */
export const poolingAt = (oof: Pick<OutOfFoldResiduals, 'center'>, power: number): ScalePooling => ({ power, center: oof.center });
