/**
 * Training of one vehicle version: ingest → market index → features → ensemble → calibrated
 * intervals → evaluation, with the cross-fitting of models/ensemble (the residential models' code).
 *
 * Evaluation looks like deployment, where the newest data is always older than the valuation:
 * - forward splits in time: for each snapshot after the first, a model fitted on the snapshots
 *   before it scores it (2020 → 2022, 2020 + 2022 → 2023). The newest is the headline. The served
 *   drift allowance is the largest any split needed, so each split is also scored with the other
 *   splits' allowance alone: the strictly out-of-sample coverage, reported beside it.
 * - unseen model and unseen make: folds by make/model group and by make, the residuals that
 *   calibrate a valuation on the make's or the market segment's level.
 * - 5-fold cross-validation over all rows: the in-period view, labelled so.
 * The served model is fitted on every snapshot, each brought to the newest level by the index.
 *
 * An organisation's exported observations (`observations`, `npm run train -- --with-observations`)
 * are a dated source of their own, each row at the month it was observed: a forward split fits on
 * every row, listing or observation, dated before its test month (so no later observation reaches a
 * forward fit) and tests on that month's listings only; the served fit, the market index, the
 * unseen-model and unseen-make views and the k-fold view take them as any dated rows.
 *
 * The cars the service collects from avtoelon.uz (`npm run collect -- --export`,
 * ./ingest/collected-cars.ts) are a dated source of their own, `avtoelon_collected`, each listing at
 * its last asking price and the month it was last seen. The forward gate is the homes' rule: the
 * newest period is the headline forward test, so the newest collected month is tested (on its
 * collected listings) only when it is newer than the listing files' newest snapshot and holds at
 * least MIN_COLLECTED_FORWARD_ROWS cars; otherwise the files' snapshots stay the tests and, each split
 * fitting on the rows dated before its test month, no newer collected row reaches their fits. The
 * served fit, the market index (a collected month with the index's floor of listings is a period of
 * its own: ./market-index.ts), the market reference and the other views take them as any dated rows.
 * Without an export the records, sources and forward splits are exactly those of before.
 */
import { countBy, crossFit, crossFitSteps, evaluate, permutationImportance, recencyWeights, subset, type CrossFit, type CrossFitConfig, type Dataset, type LevelModel } from '../ensemble/cross-fit';
import { accuracyByConfidence, confidence, type AccuracyClass, type ConfidenceWidths } from '../ensemble/confidence';
import { consensusOf } from '../ensemble/estimate';
import { periodIndex } from '../ensemble/encoding';
import { quantile } from '../ensemble/metrics';
import type { MemberSpec } from '../ensemble/weights';
import type { HistGradientBoostingRegressor } from '../trainers';
import {
  allowanceRate, calibrateIntervals, calibrateOneQuantile, groupHalfWidth, linearAllowance, measuredDrift, measuredRates, MIN_GROUP_ROWS, requiredPerMonth,
  type ForwardSplitDrift, type IntervalCalibration, type IntervalMethod, type LinearDrift,
} from '../intervals';
import type { ObservationExport } from '../ingest/observation-export';
import { ingestVehicleObservations, ingestVehicles, OBSERVATION_SOURCE, vehicleDataSnapshot, VEHICLE_SOURCE_FILES, type VehicleIngestReport, type VehicleObservationIngest, type VehicleRecord, type VehicleSource } from './ingest';
import { COLLECTED_CAR_SOURCE, type CollectedCars, type CollectedCarsReport } from './ingest/collected-cars';
import { encodeVehicles, fitVehicleEncoding, vehicleGroup, VEHICLE_FEATURE_GROUPS, VEHICLE_FEATURE_NAMES, type VehicleEncoding, type VehicleFeatureSource } from './features';
import { vehicleMarketReference } from './market';
import { fitVehicleMarketIndex, MIN_PERIOD_ROWS, monthsPastIndex, vehicleLevelAt, type VehicleMarketIndex } from './market-index';
import { VEHICLE_ONNX_FILE, VEHICLE_SCALE_COLUMN, type VehicleBasisCalibration, type VehicleEvaluationReport, type VehicleManifest } from './manifest';
import { VEHICLE_MEMBERS } from './members';
import { badgeFamily } from './vocabulary';
import { typicalVehicles } from './attribution';
import { CONFIDENCE_WIDTH_PERCENTILES, MASKED_COPY_WEIGHT, MIN_CLASS_ROWS } from './training-rules';

const FOLDS = 5;
const COVERAGE = 0.9;
/** As for homes: a listing counts half as much for every year it is older than the newest. */
const RECENCY_HALF_LIFE_MONTHS = 12;
/** Fewer training listings of a make and model than this → valued on the make's level, not its own. */
export const MIN_LISTINGS = 5;
/** Fewer than this → valued on its own level but flagged THIN_MODEL_DATA. */
export const THIN_LISTINGS = 30;
/** A make (badge family) with fewer listings than this cannot stand for its unlisted models: the market segment's level is used. */
export const MIN_MAKE_LISTINGS = 30;
/** Folds of the unseen-model and unseen-make views: groups hashed into this many. */
const GROUP_FOLDS = 5;

/**
 * The newest collected month becomes the headline forward test with at least this many collected
 * cars: the market index's own floor for a period (a month with fewer is no point of the index).
 */
export const MIN_COLLECTED_FORWARD_ROWS = MIN_PERIOD_ROWS;

const FEATURES = { names: VEHICLE_FEATURE_NAMES, groups: VEHICLE_FEATURE_GROUPS, fit: fitVehicleEncoding, encode: encodeVehicles };

/**
 * The vehicles' interval method (models/intervals): calibrated on random-fold residuals per
 * make/model group, σ(x) pooled by a power fixed in advance, and past the newest data an allowance
 * linear in the months, measured on forward splits in time on top of the in-period interval.
 */
const INTERVALS: IntervalMethod<VehicleFeatureSource> = {
  coverage: COVERAGE,
  residuals: { rows: 'listings', heldOut: FOLDS, copies: null },
  groups: { of: vehicleGroup, name: 'make/model group' },
  minGroupRows: MIN_GROUP_ROWS,
  recencyHalfLifeMonths: RECENCY_HALF_LIFE_MONTHS,
  pooling: { power: 0.5, why: 'the residential choice of the time, halfway, fixed before any vehicle result was seen' },
  drift: { rule: 'linear', measuredOn: 'any forward split in time' },
};
/** Calibrates one cross-fit's residuals by the method. */
const intervalsOf = (fit: CrossFit<VehicleFeatureSource>) => calibrateIntervals(INTERVALS, fit.residuals, { scaleColumn: VEHICLE_SCALE_COLUMN });

/** The market index as the cross-fitting's level model: fitted on each fit's rows. */
const MARKET_LEVEL: LevelModel<VehicleFeatureSource, VehicleMarketIndex> = {
  fit: (rows, y) => fitVehicleMarketIndex(rows, y),
  at: (index, row) => vehicleLevelAt(index, row.make, row.period),
  monthsBeyond: (index, row) => monthsPastIndex(index, row.period),
};

export interface VehicleTrainOptions {
  seed?: number;
  /** Listing files left out altogether, as if they did not exist (bench/observations). Default: none. */
  excludeSources?: readonly VehicleSource[];
  members?: readonly MemberSpec[];
  /** An organisation's observation export: its vehicle lines trained on as a dated source of their own (`observations`). */
  observations?: ObservationExport;
  /** The collected cars export (./ingest/collected-cars.ts): trained on as a dated source of its own (`avtoelon_collected`). */
  collected?: CollectedCars | null;
  onProgress?: (done: number, total: number, step: string) => void;
}

export interface TrainedVehicleVersion {
  manifest: Omit<VehicleManifest, 'version' | 'trainedAt'>;
  fitted: { spec: MemberSpec; model: ReturnType<MemberSpec['create']> }[];
  scaleModel: HistGradientBoostingRegressor;
  headlineTest: { rows: VehicleFeatureSource[]; priceUsd: Float64Array };
  headlinePredictions: { group: string; source: string; actual: number; predicted: number; low: number; high: number }[];
}

/** One forward split: fitted on the snapshots before `test`, scoring it. */
interface ForwardRun {
  test: string;
  testData: Dataset<VehicleFeatureSource>;
  fit: CrossFit<VehicleFeatureSource>;
  calibration: IntervalCalibration;
  consensus: Float64Array;
  scale: Float64Array;
  /** Calibrated log half-width per test row (before any allowance). */
  halfWidth: Float64Array;
  drift: ForwardSplitDrift;
  required: Float64Array;
}

export function trainVehicles(options: VehicleTrainOptions = {}): TrainedVehicleVersion {
  const started = Date.now();
  const members = options.members ?? VEHICLE_MEMBERS;
  const config: CrossFitConfig<VehicleFeatureSource, VehicleEncoding> = {
    features: FEATURES,
    members,
    level: MARKET_LEVEL as LevelModel<VehicleFeatureSource>,
    groupOf: INTERVALS.groups.of,
    monthOf: (row) => periodIndex(row.period),
    unitsOf: () => 1,
    recencyHalfLifeMonths: INTERVALS.recencyHalfLifeMonths,
    anchorsRecency: (source) => source !== OBSERVATION_SOURCE,
    folds: FOLDS,
    seed: options.seed ?? 42,
    // Every listing also without its model, so the trees learn what make, body, engine and year say
    // when the model is one the data does not hold; only real listings calibrate the model's own interval.
    maskedCopies: { mask: (row) => ({ ...row, model: null }), weight: MASKED_COPY_WEIGHT },
    calibratesOn: (row) => row.model !== null,
  };
  const { listings, report, observed, collected, records } = vehicleTrainingRecords(options);
  const data = toDataset(records);
  const forwardTests = forwardTestPeriods(data);
  const total = 1 + crossFitSteps(members.length, FOLDS) * (forwardTests.length + 1) + crossFitSteps(members.length, GROUP_FOLDS) * 2 + 1;
  let done = 0;
  const progress = (step: string) => options.onProgress?.(++done, total, step);
  progress(`ingested ${listings.length} vehicle listings${observed ? ` and ${observed.records.length} observations` : ''}${collected ? ` and ${collected.kept} collected cars` : ''}`);

  // Forward splits in time.
  const runs = forwardTests.map((test) => forwardRun(data, test, config, progress));
  // Confidence, rebuilt on the forward splits: the width ends are the oldest split's in-period
  // widths (10th and 90th percentiles); a group's class is its forward point accuracy (oldest split
  // with enough rows first). Intervals do not enter either, so the allowance can be set per level.
  const confidenceWidths: ConfidenceWidths = {
    full: round3(quantile(relativeWidths(runs[0].halfWidth), CONFIDENCE_WIDTH_PERCENTILES.full / 100)),
    none: round3(quantile(relativeWidths(runs[0].halfWidth), CONFIDENCE_WIDTH_PERCENTILES.none / 100)),
  };
  const pointReports = runs.map((run) => evaluate(run.testData, { consensus: run.consensus, scale: run.scale }, run.calibration, config));
  const groupAccuracy: Record<string, AccuracyClass> = {};
  for (const group of new Set(data.rows.map(vehicleGroup))) {
    groupAccuracy[group] = pointReports.map((r) => r.groups[group]).find((g) => g?.n >= MIN_CLASS_ROWS)?.accuracyClass ?? 'low';
  }
  const levels = runs.map((run) => run.testData.rows.map((row, i) => confidence(2 * Math.sinh(run.halfWidth[i]), 0, groupAccuracy[vehicleGroup(row)] ?? 'low', 0, confidenceWidths).level));

  // The served allowance is the largest any forward split needed, overall and per level: the next
  // period's move is unknown, and the interval must hold in a period like any seen. Each split is
  // also scored with the other splits' measurement alone, the strictly out-of-sample check.
  const splits = runs.map((run, k) => ({ required: run.required, levels: levels[k], drift: run.drift }));
  const drift = measuredDrift(splits, COVERAGE);
  const scored = (k: number, rates: LinearDrift) => {
    const run = runs[k];
    const allowance = Float64Array.from(levels[k], (level) => linearAllowance(rates, run.drift.months, level));
    return evaluate(run.testData, { consensus: run.consensus, scale: run.scale, allowance }, run.calibration, config);
  };
  const forward = runs.map((run, k) => {
    const others = runs.map((_, j) => j).filter((j) => j !== k);
    const otherRates = others.length ? measuredRates(others.map((j) => splits[j]), COVERAGE) : null;
    const outOfSample = otherRates === null ? null : { allowancePerMonth: otherRates.perMonth, ...pick(scored(k, otherRates).overall) };
    const result = scored(k, drift);
    const protocol = `Forward in time: fitted on the snapshots before ${run.test} (newest ${run.drift.newestTrained}), tested on the ${run.testData.rows.length} listings of ${run.test}, ${run.drift.months} months later; in-period intervals widened by the served drift allowance (${pct(drift.perMonth, 2)} a month overall, per confidence level where measured: the largest any forward split needed, ${run.drift.perMonth >= drift.perMonth ? 'this one' : 'another one'}${outOfSample ? `; with the other split's measurement alone, ${pct(outOfSample.allowancePerMonth, 2)} a month, coverage is ${pct(outOfSample.intervalCoverage)}` : ''}).`;
    return { run, result, outOfSample, report: evaluationReport(protocol, result, members, run.fit.weights) };
  });
  const headline = forward[forward.length - 1];

  // The served model: every snapshot, random folds (the in-period calibration).
  const all = crossFit(data, config, (s) => progress(`served: ${s}`));
  const served = intervalsOf(all);
  const oof = { consensus: all.oofConsensus, scale: served.scale(all.residuals.sigma) };
  const kfold = evaluationReport(`In-period view only: ${FOLDS}-fold cross-validation over all ${data.rows.length} listings (out-of-fold predictions, every row at its own snapshot's level; no drift allowance). It flatters the model: the forward splits are what a bank will see.`, evaluate(data, oof, served.calibration, config), members, all.weights);

  // Unseen model and unseen make: what a valuation on the make's or the segment's level can claim.
  const unseenModel = basisCalibration(data, { ...config, folds: GROUP_FOLDS, foldOf: (row) => `g${hash(vehicleGroup(row)) % GROUP_FOLDS}` }, all.weights, 'make', progress);
  const unseenMake = basisCalibration(data, { ...config, folds: GROUP_FOLDS, foldOf: (row) => `m${hash(badgeFamily(row.make)) % GROUP_FOLDS}` }, all.weights, 'segment', progress);

  const featureImportance = permutationImportance(headline.run.fit, headline.run.testData, FEATURES);
  progress('feature importance');

  const headlineRows = headline.result.rows.map((row, i) => ({ ...row, calibratedWidth: 2 * Math.sinh(headline.run.halfWidth[i]) }));
  const byConfidence = accuracyByConfidence(headlineRows);

  return {
    manifest: {
      kind: 'vehicle',
      generatedBy: 'npm run train (tools/models/vehicle/train-cli.ts)',
      dataSnapshot: vehicleDataSnapshot(),
      training: { rows: data.rows.length, bySource: countBy(data.source), byMake: countBy(records.map((r) => r.make)), seconds: (Date.now() - started) / 1000, ingest: report, ...(collected && { collected }) },
      ...(observed && { observations: observed.report }),
      target: 'log_price',
      features: { names: [...VEHICLE_FEATURE_NAMES], encoding: all.encoding },
      onnx: { file: VEHICLE_ONNX_FILE, input: 'features', output: 'prediction', columns: [...members.map((m) => m.name), VEHICLE_SCALE_COLUMN] },
      members: members.map((spec, j) => ({ name: spec.name, algorithm: spec.algorithm, weight: all.weights[j], hyperparameters: spec.hyperparameters })),
      intervals: served.manifest,
      marketIndex: all.level as VehicleMarketIndex,
      drift,
      bases: { make: unseenModel.calibration, segment: unseenMake.calibration, minMakeListings: MIN_MAKE_LISTINGS },
      market: vehicleMarketReference(records),
      typical: typicalVehicles(data.rows, MIN_LISTINGS),
      minListings: MIN_LISTINGS,
      thinListings: THIN_LISTINGS,
      confidenceWidths,
      evaluation: {
        headline: headline.report,
        forward: forward.map((f) => ({ ...f.report, drift: f.run.drift, outOfSample: f.outOfSample })),
        kfold,
        unseenModel: unseenModel.report,
        unseenMake: unseenMake.report,
        byConfidence,
        featureImportance,
      },
      groupAccuracy,
    },
    fitted: members.map((spec, j) => ({ spec, model: all.models[j] })),
    scaleModel: all.scaleModel,
    headlineTest: { rows: headline.run.testData.rows, priceUsd: headline.run.testData.priceUsd },
    headlinePredictions: headline.result.rows,
  };
}

/**
 * The vehicle trainer's records: the listing files' (less `excludeSources`), then the organisation's
 * observations when an export is given, then the collected cars when an export is given. Without
 * either, the listing files' records exactly as ingestVehicles gives them.
 */
export function vehicleTrainingRecords(options: Pick<VehicleTrainOptions, 'excludeSources' | 'observations' | 'collected'>): {
  listings: VehicleRecord[];
  report: VehicleIngestReport;
  observed: VehicleObservationIngest | null;
  collected: CollectedCarsReport | null;
  records: VehicleRecord[];
} {
  const excluded = options.excludeSources ?? [];
  const { records: listings, report } = ingestVehicles(excluded.length ? { sources: VEHICLE_SOURCE_FILES.map((f) => f.source).filter((s) => !excluded.includes(s)) } : {});
  const observed = options.observations ? ingestVehicleObservations(options.observations, listings) : null;
  const collected = options.collected ?? null;
  const records = observed || collected ? [...listings, ...(observed?.records ?? []), ...(collected?.records ?? [])] : listings;
  return { listings, report, observed, collected: collected?.report ?? null, records };
}

/**
 * The months a forward split tests: every listing file's snapshot after the oldest (observations are
 * never test rows), and the newest collected month when it is newer than the files' newest snapshot
 * and holds at least MIN_COLLECTED_FORWARD_ROWS collected cars (then it is the newest, the headline).
 * An earlier collected month, or a newest one too small or not newer, is no test: its rows are fit
 * rows of the splits tested after it, and of none tested before it.
 */
export function forwardTestPeriods(data: Pick<Dataset<VehicleFeatureSource>, 'rows' | 'source'>): string[] {
  const files = [...new Set(data.rows.filter((_, i) => data.source[i] !== OBSERVATION_SOURCE && data.source[i] !== COLLECTED_CAR_SOURCE).map((r) => r.period))].sort().slice(1);
  const collectedTest = newestCollectedTest(data);
  return collectedTest === null ? files : [...files, collectedTest];
}

/** The newest collected month when it passes the forward gate (newer than every listing file's snapshot, enough cars), else null. */
function newestCollectedTest(data: Pick<Dataset<VehicleFeatureSource>, 'rows' | 'source'>): string | null {
  let newestFile = '';
  let newest = '';
  data.rows.forEach((r, i) => {
    if (data.source[i] === COLLECTED_CAR_SOURCE) newest = r.period > newest ? r.period : newest;
    else if (data.source[i] !== OBSERVATION_SOURCE) newestFile = r.period > newestFile ? r.period : newestFile;
  });
  if (newest === '' || newest <= newestFile) return null;
  const cars = data.rows.filter((r, i) => data.source[i] === COLLECTED_CAR_SOURCE && r.period === newest).length;
  return cars >= MIN_COLLECTED_FORWARD_ROWS ? newest : null;
}

/**
 * The rows of the forward split testing `test`: it fits on every row dated before `test`, listing,
 * observation or collected car (one of `test`'s month or later never reaches the fit), and tests on
 * the listings of `test`: a listing file's snapshot on that file's rows, the newest collected month
 * (forwardTestPeriods) on its collected cars.
 */
export function forwardSplitRows(data: Pick<Dataset<VehicleFeatureSource>, 'rows' | 'source'>, test: string): { fit: (i: number) => boolean; test: (i: number) => boolean } {
  const collectedTest = test === newestCollectedTest(data);
  return {
    fit: (i) => data.rows[i].period < test,
    test: (i) => data.rows[i].period === test && data.source[i] !== OBSERVATION_SOURCE && (data.source[i] === COLLECTED_CAR_SOURCE) === collectedTest,
  };
}

/** Fits on the snapshots before `test` and scores `test`: predictions, in-period half-widths, and what drift they leave. */
function forwardRun(data: Dataset<VehicleFeatureSource>, test: string, config: CrossFitConfig<VehicleFeatureSource, VehicleEncoding>, progress: (step: string) => void): ForwardRun {
  const rows = forwardSplitRows(data, test);
  const train = subset(data, rows.fit);
  const testData = subset(data, rows.test);
  const fit = crossFit(train, config, (s) => progress(`forward ${test}: ${s}`));
  const intervals = intervalsOf(fit);
  const pred = fit.predict(testData.rows);
  const scale = intervals.scale(pred.scale);
  const groups = testData.rows.map(INTERVALS.groups.of);
  const halfWidth = Float64Array.from(scale, (s, i) => groupHalfWidth(intervals.calibration, groups[i], 0) * s);
  const index = fit.level as VehicleMarketIndex;
  const months = monthsPastIndex(index, test);
  const required = requiredPerMonth(pred.consensus.map((p, i) => Math.abs(p - testData.y[i])), halfWidth, months);
  return {
    test, testData, fit, calibration: intervals.calibration, consensus: pred.consensus, scale, halfWidth, required,
    drift: { test, newestTrained: index.newestPeriod, months, rows: testData.rows.length, perMonth: round5(allowanceRate(required, COVERAGE)) },
  };
}

/**
 * A view where every row is predicted by a model that never saw its group (make and model, or
 * make): its residuals calibrate the plain (unnormalised) interval of that basis, in period.
 */
function basisCalibration(
  data: Dataset<VehicleFeatureSource>, config: CrossFitConfig<VehicleFeatureSource, VehicleEncoding>, servedWeights: readonly number[],
  basis: 'make' | 'segment', progress: (step: string) => void,
): { calibration: VehicleBasisCalibration; report: VehicleEvaluationReport } {
  const fit = crossFit(data, config, (s) => progress(`unseen ${basis === 'make' ? 'model' : 'make'}: ${s}`));
  // The served model's blend of the members (this view's own weights would describe another
  // estimate), over the listings themselves (their copies without a model come after them).
  const consensus = Float64Array.from({ length: data.rows.length }, (_, i) => consensusOf(fit.oof.map((member) => member[i]), servedWeights));
  const residuals = consensus.map((p, i) => Math.abs(p - data.y[i]));
  // One quantile for every group, as served (no per-group entries, no thin-group widening).
  const calibration = calibrateOneQuantile(residuals, COVERAGE, recencyWeights(data, config));
  const result = evaluate(data, { consensus, scale: new Float64Array(data.rows.length).fill(1) }, calibration, config);
  const what = basis === 'make' ? 'make and model group' : 'make (badge family)';
  const report = evaluationReport(`In period, every listing predicted by a model that never saw its ${what} (${GROUP_FOLDS} folds by ${what}), its members blended with the served weights: how a request is valued on the ${basis === 'make' ? "make's" : "market segment's"} level; one plain conformal quantile, as served.`, result, config.members, servedWeights);
  return { calibration: { q: round5(calibration.global), rows: data.rows.length, protocol: report.protocol }, report };
}

function evaluationReport(protocol: string, result: ReturnType<typeof evaluate>, members: readonly MemberSpec[], weights: readonly number[]): VehicleEvaluationReport {
  return { protocol, weights: Object.fromEntries(members.map((m, j) => [m.name, weights[j]])), overall: result.overall, groups: result.groups, bySource: result.bySource };
}

export function toDataset(records: readonly VehicleRecord[]): Dataset<VehicleFeatureSource> {
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

/** Coverage and width of a scoring. */
const pick = (m: { intervalCoverage: number; medianIntervalWidth: number }) => ({ intervalCoverage: m.intervalCoverage, medianIntervalWidth: m.medianIntervalWidth });

/** The relative width (high − low) / estimate of a log half-width. */
const relativeWidths = (halfWidths: Float64Array) => halfWidths.map((h) => 2 * Math.sinh(h));


/** FNV-1a: a stable fold for a group name. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const round5 = (x: number) => Math.round(x * 1e5) / 1e5;
