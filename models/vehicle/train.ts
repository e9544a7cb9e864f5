/**
 * Training of one vehicle version: ingest → features → ensemble → calibrated intervals →
 * evaluation, with the cross-fitting of models/ensemble (the residential models' code).
 *
 * Evaluation:
 * - headline: a split by time and source. Fit on the mid-2022 avtoelon scrape (all makes); test on
 *   the August 2023 scrape (Chevrolet only), fourteen months later, when prices had risen about a
 *   quarter. It measures what drift does to a model that has not seen the newer market.
 * - second view: 5-fold cross-validation over all rows (the served model's own out-of-fold view).
 * The served model is fitted on both scrapes, newer listings weighted more.
 */
import { calibrateIntervals, withDriftAllowance } from '../ensemble/conformal';
import { countBy, crossFit, crossFitSteps, evaluate, permutationImportance, subset, SCALE_FLOOR, type CrossFitConfig, type Dataset } from '../ensemble/cross-fit';
import type { AccuracyClass } from '../ensemble/confidence';
import { periodIndex } from '../ensemble/encoding';
import type { MemberSpec } from '../ensemble/weights';
import type { HistGradientBoostingRegressor } from '../trainers';
import { ingestVehicles, vehicleDataSnapshot, type VehicleRecord } from './ingest';
import { encodeVehicles, fitVehicleEncoding, vehicleGroup, VEHICLE_FEATURE_GROUPS, VEHICLE_FEATURE_NAMES, type VehicleEncoding, type VehicleFeatureSource } from './features';
import { vehicleMarketReference } from './market';
import { VEHICLE_ONNX_FILE, VEHICLE_SCALE_COLUMN, type VehicleEvaluationReport, type VehicleManifest } from './manifest';
import { VEHICLE_MEMBERS } from './members';

export const HEADLINE_TRAIN_SOURCES: readonly string[] = ['avtoelon_2022'];
export const HEADLINE_TEST_SOURCES: readonly string[] = ['avtoelon_chevrolet_2023'];
const FOLDS = 5;
const COVERAGE = 0.9;
/** As for homes: a listing counts half as much for every year it is older than the newest. */
const RECENCY_HALF_LIFE_MONTHS = 12;
/**
 * How far σ(x) is trusted. The headline's training rows hold one period, so the forward split that
 * chooses it for homes cannot run inside them; the residential choice (halfway) is carried over,
 * fixed before any vehicle result was seen.
 */
const SCALE_POOLING_POWER = 0.5;
/** Fewer training listings of a make and model than this → no valuation (InsufficientMarketDataError). */
export const MIN_LISTINGS = 5;
/** Fewer than this → valued but flagged THIN_MODEL_DATA. */
export const THIN_LISTINGS = 30;
const MIN_CLASS_ROWS = 30;

const FEATURES = { names: VEHICLE_FEATURE_NAMES, groups: VEHICLE_FEATURE_GROUPS, fit: fitVehicleEncoding, encode: encodeVehicles };

export interface VehicleTrainOptions {
  seed?: number;
  members?: readonly MemberSpec[];
  onProgress?: (done: number, total: number, step: string) => void;
}

export interface TrainedVehicleVersion {
  manifest: Omit<VehicleManifest, 'version' | 'trainedAt'>;
  fitted: { spec: MemberSpec; model: ReturnType<MemberSpec['create']> }[];
  scaleModel: HistGradientBoostingRegressor;
  headlineTest: { rows: VehicleFeatureSource[]; priceUsd: Float64Array };
  headlinePredictions: { group: string; source: string; actual: number; predicted: number; low: number; high: number }[];
}

export function trainVehicles(options: VehicleTrainOptions = {}): TrainedVehicleVersion {
  const started = Date.now();
  const members = options.members ?? VEHICLE_MEMBERS;
  const config: CrossFitConfig<VehicleFeatureSource, VehicleEncoding> = {
    features: FEATURES,
    members,
    groupOf: vehicleGroup,
    monthOf: (row) => periodIndex(row.period),
    unitsOf: () => 1,
    recencyHalfLifeMonths: RECENCY_HALF_LIFE_MONTHS,
    coverage: COVERAGE,
    folds: FOLDS,
    seed: options.seed ?? 42,
  };
  const total = 1 + crossFitSteps(members.length, FOLDS) * 2 + 1;
  let done = 0;
  const progress = (step: string) => options.onProgress?.(++done, total, step);

  const { records, report } = ingestVehicles();
  const data = toDataset(records);
  progress(`ingested ${data.rows.length} vehicle listings`);

  const train = subset(data, (i) => HEADLINE_TRAIN_SOURCES.includes(data.source[i]));
  const test = subset(data, (i) => HEADLINE_TEST_SOURCES.includes(data.source[i]));
  const headlineFit = crossFit(train, config, (s) => progress(`headline: ${s}`));
  const headlineIntervals = headlineFit.intervals(SCALE_POOLING_POWER);
  const headlinePred = headlineFit.predict(test.rows);
  const headlineResult = evaluate(test, { consensus: headlinePred.consensus, scale: headlineIntervals.scale(headlinePred.scale) }, headlineIntervals.calibration, config);
  const headline = evaluationReport('Time and source split: fitted on the mid-2022 avtoelon.uz scrape (all makes), tested on the August 2023 scrape (Chevrolet only) fourteen months later; intervals calibrated on training rows only.', headlineResult, members, headlineFit.weights);

  const all = crossFit(data, config, (s) => progress(`k-fold: ${s}`));
  const served = all.intervals(SCALE_POOLING_POWER);
  // The headline showed prices moving beyond what in-period residuals cover: the served intervals
  // get the forward split's quantiles where those are wider (the headline model never sees them).
  const forwardSigma = headlineIntervals.scale(headlinePred.scale);
  const forwardScores = headlinePred.consensus.map((p, i) => Math.abs(p - test.y[i]) / forwardSigma[i]);
  const forward = calibrateIntervals(forwardScores, test.rows.map(vehicleGroup), COVERAGE);
  const servedCalibration = withDriftAllowance(served.calibration, forward, 'quantiles of the headline split (fitted on 2022, scored on 2023) where wider than the in-period ones');
  const oof = { consensus: all.oofConsensus, scale: served.scale(all.sigmaOof) };
  const kfold = evaluationReport(`${FOLDS}-fold cross-validation over all ${data.rows.length} listings (out-of-fold predictions, cross-conformal intervals before the drift allowance).`, evaluate(data, oof, served.calibration, config), members, all.weights);
  // What the allowance costs in width, where the market did not move (in-period rows).
  const withAllowance = evaluate(data, oof, servedCalibration, config).overall;

  const featureImportance = permutationImportance(headlineFit, test, FEATURES);
  progress('feature importance');

  const groupAccuracy: Record<string, AccuracyClass> = {};
  for (const group of new Set(data.rows.map(vehicleGroup))) {
    groupAccuracy[group] = headline.groups[group]?.n >= MIN_CLASS_ROWS ? headline.groups[group].accuracyClass : kfold.groups[group]?.n >= MIN_CLASS_ROWS ? kfold.groups[group].accuracyClass : 'low';
  }
  return {
    manifest: {
      kind: 'vehicle',
      generatedBy: 'npm run train (models/vehicle/train.ts)',
      dataSnapshot: vehicleDataSnapshot(),
      training: { rows: data.rows.length, bySource: countBy(data.source), byMake: countBy(records.map((r) => r.make)), seconds: (Date.now() - started) / 1000, ingest: report },
      target: 'log_price',
      features: { names: [...VEHICLE_FEATURE_NAMES], encoding: all.encoding },
      onnx: { file: VEHICLE_ONNX_FILE, input: 'features', output: 'prediction', columns: [...members.map((m) => m.name), VEHICLE_SCALE_COLUMN] },
      members: members.map((spec, j) => ({ name: spec.name, algorithm: spec.algorithm, weight: all.weights[j], hyperparameters: spec.hyperparameters })),
      intervals: {
        ...servedCalibration,
        method: `normalised weighted split conformal: out-of-fold |log residual| divided by a cross-fitted residual-scale model pooled toward its median with power ${SCALE_POOLING_POWER} (set in advance), weighted quantile per make/model group with at least minRows rows, listings weighted by recency (half-life ${RECENCY_HALF_LIFE_MONTHS} months), raised to the forward split's quantiles where those are wider (drift allowance)`,
        scale: { column: VEHICLE_SCALE_COLUMN, floor: SCALE_FLOOR, pooling: served.pooling },
      },
      market: vehicleMarketReference(records),
      minListings: MIN_LISTINGS,
      thinListings: THIN_LISTINGS,
      evaluation: { headline, kfold, kfoldWithDriftAllowance: { intervalCoverage: withAllowance.intervalCoverage, medianIntervalWidth: withAllowance.medianIntervalWidth }, featureImportance },
      groupAccuracy,
    },
    fitted: members.map((spec, j) => ({ spec, model: all.models[j] })),
    scaleModel: all.scaleModel,
    headlineTest: { rows: test.rows, priceUsd: test.priceUsd },
    headlinePredictions: headlineResult.rows,
  };
}

function evaluationReport(protocol: string, result: ReturnType<typeof evaluate>, members: readonly MemberSpec[], weights: readonly number[]): VehicleEvaluationReport {
  return { protocol, weights: Object.fromEntries(members.map((m, j) => [m.name, weights[j]])), overall: result.overall, groups: result.groups, bySource: result.bySource };
}

function toDataset(records: readonly VehicleRecord[]): Dataset<VehicleFeatureSource> {
  return {
    rows: records.map((r) => ({
      make: r.make, model: r.model, year: r.year, mileageKm: r.mileageKm, engineLitres: r.engineLitres, fuel: r.fuel,
      transmission: r.transmission, body: r.body, drive: r.drive, trim: r.trim, defects: r.defects, region: r.region, period: r.period,
    })),
    y: Float64Array.from(records, (r) => Math.log(r.priceUsd)),
    priceUsd: Float64Array.from(records, (r) => r.priceUsd),
    source: records.map((r) => r.source),
  };
}
