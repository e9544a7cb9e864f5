/**
 * Training of one residential version: ingest → features → ensemble → calibrated intervals →
 * evaluation → artifacts. Pure computation plus the artifact writer; the CLI adds the progress bar
 * and the promotion decision.
 *
 * Evaluation (what the manifest and the model card report):
 * - headline: a split by time and source. Fit on the older scrapes (olx spring 2024, uybor early
 *   2025); test on the newer uybor scrapes (April and mid 2025) that cross-source de-duplication
 *   left distinct. Intervals for the test rows come from calibration on training rows only.
 * - second view: 5-fold cross-validation over all rows.
 * - the one choice in the interval method (how far σ(x) is trusted) is made on a forward split
 *   inside the headline's training rows, so the headline test never informs it.
 * The olx 2021 file is not trained on: its prices are from another market level (README).
 */
import { DISTRICT_IDS } from '../vocabulary/codes';
import { ingestListings, dataSnapshot, type ListingRecord } from '../ingest';
import { countBy, crossFit, crossFitSteps, evaluate, permutationImportance, selectScalePooling, subset, SCALE_FLOOR, type CrossFitConfig, type Dataset } from '../ensemble/cross-fit';
import type { HistGradientBoostingRegressor } from '../trainers';
import type { AccuracyClass } from '../ensemble/confidence';
import type { MemberSpec } from '../ensemble/weights';
import { MEMBERS } from './ensemble';
import { periodIndex } from '../ensemble/encoding';
import { encodeFeatures, fitEncoding, FEATURE_GROUPS, FEATURE_NAMES, type FeatureEncoding, type FeatureSource } from './features';
import { marketReference } from './market';
import { ONNX_FILE, SCALE_COLUMN, type EvaluationReport, type ResidentialManifest } from './manifest';

export const TRAINING_SOURCES = ['olx_2024', 'uybor_2025', 'uybor_2025_b', 'uybor_2025_en'] as const;
export const HEADLINE_TEST_SOURCES: readonly string[] = ['uybor_2025_b', 'uybor_2025_en'];
const FOLDS = 5;
/**
 * The market drifts and the service values flats listed later than any training row, so a listing
 * counts half as much for every RECENCY_HALF_LIFE_MONTHS it is older than the newest one, in
 * fitting and in interval calibration. Set a priori (a year), not tuned on any evaluation.
 */
export const RECENCY_HALF_LIFE_MONTHS = 12;
const COVERAGE = 0.9;

/** The residential rows as the shared cross-fitting sees them: target log price per m², calibrated per district. */
const FEATURES = {
  names: FEATURE_NAMES,
  groups: FEATURE_GROUPS,
  fit: fitEncoding,
  encode: encodeFeatures,
};
const crossFitConfig = (members: readonly MemberSpec[], seed: number): CrossFitConfig<FeatureSource, FeatureEncoding> => ({
  features: FEATURES,
  members,
  groupOf: (row) => row.district,
  monthOf: (row) => periodIndex(row.period),
  unitsOf: (row) => row.area,
  recencyHalfLifeMonths: RECENCY_HALF_LIFE_MONTHS,
  coverage: COVERAGE,
  folds: FOLDS,
  seed,
});

export interface TrainOptions {
  seed?: number;
  members?: readonly MemberSpec[];
  onProgress?: (done: number, total: number, step: string) => void;
}

export interface TrainedVersion {
  manifest: Omit<ResidentialManifest, 'version' | 'trainedAt'>;
  /** Fitted members of the final model, to export. */
  fitted: { spec: MemberSpec; model: ReturnType<MemberSpec['create']> }[];
  /** The residual-scale model of the intervals, exported as the ONNX file's interval-scale column. */
  scaleModel: HistGradientBoostingRegressor;
  /** Test rows of the headline split, so the promotion gate can score the current version on them. */
  headlineTest: { rows: FeatureSource[]; priceUsd: Float64Array };
  /** Held-out predictions of the headline split, row by row: the model card's plots are drawn from them. */
  headlinePredictions: HeldOutPrediction[];
}

export interface HeldOutPrediction {
  district: string;
  source: string;
  actual: number;
  predicted: number;
  low: number;
  high: number;
}

export function trainResidential(options: TrainOptions = {}): TrainedVersion {
  const started = Date.now();
  const members = options.members ?? MEMBERS;
  const config = crossFitConfig(members, options.seed ?? 42);
  const total = 1 + crossFitSteps(members.length, FOLDS) * 3 + 1; // ingest, three cross-fits (interval method, headline, served), importance
  let done = 0;
  const progress = (step: string) => options.onProgress?.(++done, total, step);

  const { records, report } = ingestListings();
  const data = toDataset(records.filter((r) => r.propertyType === 'apartment' && (TRAINING_SOURCES as readonly string[]).includes(r.source)));
  progress(`ingested ${data.rows.length} apartment listings`);

  // Headline: older scrapes → newer scrapes.
  const isTest = data.source.map((s) => HEADLINE_TEST_SOURCES.includes(s));
  const train = subset(data, (i) => !isTest[i]);
  const test = subset(data, (i) => isTest[i]);
  const selection = selectScalePooling(train, config, (s) => progress(`interval method: ${s}`), (row) => row.period);
  const headlineFit = crossFit(train, config, (s) => progress(`headline: ${s}`));
  const headlineIntervals = headlineFit.intervals(selection.chosen);
  const headlinePred = headlineFit.predict(test.rows);
  const headlineResult = evaluate(test, { consensus: headlinePred.consensus, scale: headlineIntervals.scale(headlinePred.scale) }, headlineIntervals.calibration, config, DISTRICT_IDS);
  const headline = evaluationReport('Time and source split: fitted on olx (spring 2024) and uybor (early 2025) listings, tested on the newer uybor scrapes (April and mid 2025) not seen in training; intervals calibrated on training rows only.', headlineResult, members, headlineFit.weights);
  const headlinePredictions = headlineResult.rows.map(({ group, ...row }) => ({ district: group, ...row }));

  // Second view: K-fold over everything. The same fit is the served model: its members fitted on
  // every row (encodings from every row), calibrated and weighted out of fold.
  const all = crossFit(data, config, (s) => progress(`k-fold: ${s}`));
  const servedIntervals = all.intervals(selection.chosen);
  const kfoldResult = evaluate(data, { consensus: all.oofConsensus, scale: servedIntervals.scale(all.sigmaOof) }, servedIntervals.calibration, config, DISTRICT_IDS);
  const kfold = evaluationReport(`${FOLDS}-fold cross-validation over all ${data.rows.length} listings (out-of-fold predictions, cross-conformal intervals).`, kfoldResult, members, all.weights);

  const fitted = members.map((spec, j) => ({ spec, model: all.models[j] }));

  const featureImportance = permutationImportance(headlineFit, test, FEATURES);
  progress('feature importance');

  const districtAccuracy: Record<string, AccuracyClass> = {};
  for (const id of DISTRICT_IDS) {
    districtAccuracy[id] = headline.districts[id]?.n >= 30 ? headline.districts[id].accuracyClass : kfold.districts[id]?.accuracyClass ?? 'low';
  }
  return {
    manifest: {
      kind: 'residential',
      generatedBy: 'npm run train (models/residential/train-cli.ts)',
      dataSnapshot: dataSnapshot(),
      training: { rows: data.rows.length, bySource: countBy(data.source), byDistrict: countBy(data.rows.map((r) => r.district)), seconds: (Date.now() - started) / 1000, ingest: report },
      target: 'log_price_per_m2',
      features: { names: [...FEATURE_NAMES], encoding: all.encoding },
      onnx: { file: ONNX_FILE, input: 'features', output: 'prediction', columns: [...members.map((m) => m.name), SCALE_COLUMN] },
      members: fitted.map(({ spec }, j) => ({ name: spec.name, algorithm: spec.algorithm, weight: all.weights[j], hyperparameters: spec.hyperparameters })),
      intervals: {
        ...servedIntervals.calibration,
        method: `normalised weighted split conformal: out-of-fold |log residual| divided by a cross-fitted residual-scale model (GBDT on log |residual|) pooled toward its median with power ${selection.chosen} (chosen on a forward split inside the training rows), weighted quantile per district with at least minRows rows, listings weighted by recency (half-life ${RECENCY_HALF_LIFE_MONTHS} months)`,
        scale: { column: SCALE_COLUMN, floor: SCALE_FLOOR, pooling: servedIntervals.pooling },
        selection,
      },
      market: marketReference(data.rows.map((r, i) => ({ district: r.district, mahallaId: r.mahallaId, area: r.area, totalFloors: r.totalFloors, priceUsd: data.priceUsd[i] }))),
      evaluation: { headline, kfold, featureImportance },
      districtAccuracy,
    },
    fitted,
    scaleModel: all.scaleModel,
    headlineTest: { rows: test.rows, priceUsd: test.priceUsd },
    headlinePredictions,
  };
}

/** The manifest's evaluation report: the shared evaluation with the residential names (districts). */
function evaluationReport(protocol: string, result: ReturnType<typeof evaluate>, members: readonly MemberSpec[], weights: readonly number[]): EvaluationReport {
  return { protocol, weights: Object.fromEntries(members.map((m, j) => [m.name, weights[j]])), overall: result.overall, districts: result.groups, bySource: result.bySource };
}

function toDataset(records: readonly ListingRecord[]): Dataset<FeatureSource> {
  return {
    rows: records.map((r) => ({
      district: r.district, mahallaId: r.mahallaId, area: r.area, rooms: r.rooms, floor: r.floor, totalFloors: r.totalFloors,
      renovation: r.renovation, buildingType: r.buildingType, furniture: r.furniture, bathroom: r.bathroom,
      market: r.market, seller: r.seller, period: r.period,
    })),
    y: Float64Array.from(records, (r) => Math.log(r.priceUsd / r.area)),
    priceUsd: Float64Array.from(records, (r) => r.priceUsd),
    source: records.map((r) => r.source),
  };
}
