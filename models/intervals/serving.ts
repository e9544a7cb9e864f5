/**
 * The serving half of the interval method: what a runtime needs to turn a manifest's calibration,
 * σ(x) and the valuation date into an interval. Runtimes import this file, never ./index.ts,
 * which also carries the training half.
 */
export * from './calibration';
export * from './drift';
