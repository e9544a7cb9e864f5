/**
 * Observed prices from banks (issue 18), the modelling core: re-anchoring an organisation's
 * valuations on its own observations (empirical-Bayes market factors in a group hierarchy),
 * recalibrating its intervals on them (split conformal), and measuring live accuracy and drift.
 * Pure functions and plain data; no I/O, nothing from the service or from training.
 */
export type { BaseValuation, ObservationKind, PriceType, ScoredObservation } from './types';
export { isScorable, logResidual } from './types';
export { groupKey, groupKeys, homeGroups, vehicleGroups, HOME_HIERARCHY, HOME_TOP, OTHER_VEHICLE_MODEL, VEHICLE_HIERARCHY, VEHICLE_TOP, type GroupHierarchy, type HomeSegment } from './groups';
export { ageInDays, recencyWeight, recencyWeights, HALF_LIFE_DAYS } from './weights';
export { derSimonianLaird, factorFor, fitShrinkage, shrinkageWeight, BETWEEN_GROUP_SD_FLOOR, DEFAULT_SIGMA, ROOT_PRIOR_SD, type GroupFactor, type ShrinkageItem, type ShrinkageOptions, type ShrinkageTable } from './shrinkage';
export { fitRecalibration, logHalfWidth, normalisedScore, recalibrationFor, withinDataLogHalfWidth, MIN_RECALIBRATION_N, MIN_WIDTH_RATIO, type Recalibration, type RecalibrationGroup } from './recalibration';
export { fitRobustShrinkage, HUBER_K, MAD_FLOOR, MAX_ROBUST_ITERATIONS, ROBUST_TOLERANCE, type RobustOptions } from './robust';
export { fitObservationModel, CROSS_FIT_FOLDS, type ObservationModel, type ObservationModelOptions } from './model';
export { adjustValuation, MAX_MARKET_FACTOR, type AdjustedValuation, type AdjustmentExplanation, type IntervalExplanation } from './adjust';
export { accuracyByGroup, inWindow, liveAccuracy, type AccuracyOptions, type AccuracyWindow, type LiveAccuracy, type ScoredValuation } from './accuracy';
export { driftOf, BIAS_BAND, COVERAGE_BAND, DRIFT_MIN_OBSERVATIONS, DRIFT_RULE, type DriftRule, type DriftVerdict } from './drift';
export { backtest, backtestMeasures, MAX_BACKTEST_FITS, type BacktestComparison, type BacktestMeasures, type BacktestObservation, type BacktestOptions, type BacktestReport, type BacktestRow } from './backtest';
