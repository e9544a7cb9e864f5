/**
 * What every kind's runtime builds on (the shared, serving half of the ensemble library): the
 * loaded ONNX ensemble and its hot swap between versions, the version store, the ensemble estimate
 * and confidence, accuracy metrics, level series and the version summary. Cross-fitting, weights,
 * publishing and promotion are training (./cross-fit.ts, ./weights.ts, ./publish.ts,
 * ./promotion.ts): deliberately not here, so a runtime importing this surface loads no trainer.
 */
export { LoadedEnsemble, type EnsembleManifest } from './artifact';
export { HotSwappedModel, type HotSwapOptions, type ServableModelSet } from './serving';
export { compareVersions, currentVersion, listVersions, readManifest, versionDir } from './versions';
export { consensusOf, ensembleEstimate, round3, roundTo, statedMembers, type EnsembleEstimate, type MemberEstimate } from './estimate';
export { accuracyByConfidence, confidence, dataAgeFlags, CONFIDENCE_LEVELS, STALE_DATA_FLAG, STALE_DATA_MONTHS, DEFAULT_CONFIDENCE_WIDTHS, type AccuracyClass, type ConfidenceLevel, type ConfidenceLevelAccuracy, type ConfidenceWidths } from './confidence';
export { contextDrivers, forecastStandardDeviation, levelOfFsd, restated, statedConfidence, FSD_BANDS, type ConfidenceContext, type StatedConfidence } from './fsd';
export { accuracyClass, accuracyMetrics, median, quantile, wilsonBounds, type AccuracyMetrics } from './metrics';
export { indexBand, levelAt, monthsPast, type LevelPoint } from './level-series';
export { versionSummary } from './summary';
export type { Contribution } from './attribution';
