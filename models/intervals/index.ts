/**
 * Prediction intervals, one method for every kind: normalised split conformal on out-of-fold
 * residuals divided by a residual-scale model pooled toward its median, a recency-weighted quantile
 * per calibration group (a thin group falling back to its parent), and past the newest data a drift
 * allowance added in quadrature. A kind passes its parameters (./method.ts) to `calibrateIntervals`
 * in training; serving reads the manifest through ./serving.ts alone.
 */
export * from './serving';
export { SCALE_POOLING_POWERS, type ChosenPooling, type DriftRule, type FixedPooling, type IntervalMethod, type SourceView } from './method';
export { describeIntervalMethod } from './describe';
export { calibrateGroups, calibrateOneQuantile, conformalQuantile, conformityScore } from './conformal';
export { fitResidualScale, SCALE_FLOOR, SCALE_MODEL } from './scale-model';
export { calibrationBySource, choosePooling } from './by-source';
export { allowanceByLevel, allowanceRate, measuredDrift, measuredRates, MIN_LEVEL_ROWS, requiredPerMonth, type SplitResiduals } from './forward-drift';
export { calibrateAt, calibrateIntervals, type CalibratedIntervals, type OutOfFoldResiduals, type PooledCalibration } from './train';
