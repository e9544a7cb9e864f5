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
import { HistGradientBoostingRegressor, matrix, takeRows, type Matrix } from '../trainers';
import { calibrateIntervals, intervalHalfWidth, pooledScale, type IntervalCalibration, type ScalePooling, type ScalePoolingSelection } from './conformal';
import { learnWeights, MEMBERS, type MemberSpec } from './ensemble';
import { encodeFeatures, fitEncoding, periodIndex, FEATURE_COUNT, FEATURE_GROUPS, FEATURE_NAMES, type FeatureEncoding, type FeatureSource } from './features';
import { accuracyMetrics, accuracyClass } from './metrics';
import { marketReference } from './market';
import { ONNX_FILE, SCALE_COLUMN, type EvaluationReport, type ResidentialManifest } from './manifest';
import type { AccuracyClass } from './assessment';

export const TRAINING_SOURCES = ['olx_2024', 'uybor_2025', 'uybor_2025_b', 'uybor_2025_en'] as const;
export const HEADLINE_TEST_SOURCES: readonly string[] = ['uybor_2025_b', 'uybor_2025_en'];
const FOLDS = 5;
/**
 * The market drifts and the service values flats listed later than any training row, so a listing
 * counts half as much for every RECENCY_HALF_LIFE_MONTHS it is older than the newest one, in
 * fitting and in interval calibration. Set a priori (a year), not tuned on any evaluation.
 */
export const RECENCY_HALF_LIFE_MONTHS = 12;
/** Keeps log|residual| finite for a perfect prediction (0.5% in price). */
const SCALE_FLOOR = 0.005;
/** The scale model: small, strongly regularised trees on log |residual|. */
export const SCALE_MODEL = { learningRate: 0.05, maxIter: 150, maxLeafNodes: 8, minSamplesLeaf: 60, l2Regularization: 5, earlyStopping: false, randomState: 42 } as const;
const createScaleModel = () => new HistGradientBoostingRegressor(SCALE_MODEL);
const COVERAGE = 0.9;
/** Candidate poolings of σ(x), fixed before any result was seen: plain, halfway, fully normalised. */
export const SCALE_POOLING_POWERS = [0, 0.5, 1] as const;
/** A district's coverage counts in the pooling choice only with at least this many validation rows. */
const SELECTION_MIN_ROWS = 30;

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

interface Dataset {
  rows: FeatureSource[];
  /** log(price / area) */
  y: Float64Array;
  priceUsd: Float64Array;
  source: string[];
}

export function trainResidential(options: TrainOptions = {}): TrainedVersion {
  const started = Date.now();
  const members = options.members ?? MEMBERS;
  const fitsPerSplit = members.length * (FOLDS + 1);
  const total = 1 + (fitsPerSplit + 1) * 3 + 1; // ingest, three fits (interval method, headline, served), importance
  let done = 0;
  const progress = (step: string) => options.onProgress?.(++done, total, step);

  const { records, report } = ingestListings();
  const data = toDataset(records.filter((r) => r.propertyType === 'apartment' && (TRAINING_SOURCES as readonly string[]).includes(r.source)));
  progress(`ingested ${data.rows.length} apartment listings`);

  // Headline: older scrapes → newer scrapes.
  const isTest = data.source.map((s) => HEADLINE_TEST_SOURCES.includes(s));
  const train = subset(data, (i) => !isTest[i]);
  const test = subset(data, (i) => isTest[i]);
  const seed = options.seed ?? 42;
  const selection = selectScalePooling(train, members, seed, (s) => progress(`interval method: ${s}`));
  const headlineFit = fitWithCalibration(train, members, seed, (s) => progress(`headline: ${s}`));
  const headlineIntervals = headlineFit.intervals(selection.chosen);
  const headlinePred = headlineFit.predict(test.rows);
  const { rows: headlinePredictions, ...headlineReport } = evaluate(test, { consensus: headlinePred.consensus, scale: headlineIntervals.scale(headlinePred.scale) }, headlineIntervals.calibration, 'Time and source split: fitted on olx (spring 2024) and uybor (early 2025) listings, tested on the newer uybor scrapes (April and mid 2025) not seen in training; intervals calibrated on training rows only.');
  const headline = { ...headlineReport, weights: Object.fromEntries(members.map((m, j) => [m.name, headlineFit.weights[j]])) };

  // Second view: K-fold over everything. The same fit is the served model: its members fitted on
  // every row (encodings from every row), calibrated and weighted out of fold.
  const all = fitWithCalibration(data, members, seed, (s) => progress(`k-fold: ${s}`));
  const servedIntervals = all.intervals(selection.chosen);
  const { rows: _unused, ...kfoldReport } = evaluate(data, { consensus: all.oofConsensus, scale: servedIntervals.scale(all.sigmaOof) }, servedIntervals.calibration, `${FOLDS}-fold cross-validation over all ${data.rows.length} listings (out-of-fold predictions, cross-conformal intervals).`);
  const kfold = { ...kfoldReport, weights: Object.fromEntries(members.map((m, j) => [m.name, all.weights[j]])) };

  const fitted = members.map((spec, j) => ({ spec, model: all.models[j] }));

  const featureImportance = permutationImportance(headlineFit, test);
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

/** Fits the members on `data` and measures, out of fold, what calibration and weighting need. */
function fitWithCalibration(data: Dataset, members: readonly MemberSpec[], seed: number, progress: (step: string) => void) {
  const n = data.rows.length;
  const fold = foldAssignment(n, FOLDS, seed);
  const weight = recencyWeights(data);
  const oof = members.map(() => new Float64Array(n));
  // Features of each row as its own fold saw them (out-of-fold encodings): the scale model learns on these.
  const Xoof = matrix(new Float64Array(n * FEATURE_COUNT), n, FEATURE_COUNT);
  for (let k = 0; k < FOLDS; k++) {
    const inFit = (i: number) => fold[i] !== k;
    const fitPart = subset(data, inFit);
    const holdIdx = range(n).filter((i) => !inFit(i));
    const encoding = fitEncoding(fitPart.rows, fitPart.y);
    const Xfit = encode(fitPart.rows, encoding);
    const Xhold = encode(holdIdx.map((i) => data.rows[i]), encoding);
    holdIdx.forEach((i, r) => Xoof.data.set(Xhold.data.subarray(r * FEATURE_COUNT, (r + 1) * FEATURE_COUNT), i * FEATURE_COUNT));
    members.forEach((spec, j) => {
      const p = spec.create().fit(Xfit, fitPart.y, { sampleWeight: pick(weight, range(n).filter(inFit)) }).predict(Xhold);
      holdIdx.forEach((i, r) => (oof[j][i] = p[r]));
      progress(`fold ${k + 1}/${FOLDS} ${spec.name}`);
    });
  }
  const weights = learnWeights(oof, data.y, weight);
  const oofConsensus = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < members.length; j++) oofConsensus[i] += weights[j] * oof[j][i];
  const absResiduals = oofConsensus.map((p, i) => Math.abs(p - data.y[i]));
  // Normalised conformal: each residual divided by the scale a model expects for that listing,
  // the scale itself cross-fitted so no row's scale was learned from its own residual.
  const scaleTarget = absResiduals.map((r) => Math.log(r + SCALE_FLOOR));
  const sigmaOof = new Float64Array(n);
  for (let k = 0; k < FOLDS; k++) {
    const fitIdx = range(n).filter((i) => fold[i] !== k);
    const holdIdx = range(n).filter((i) => fold[i] === k);
    const model = createScaleModel().fit(takeRows(Xoof, fitIdx), pick(scaleTarget, fitIdx), { sampleWeight: pick(weight, fitIdx) });
    model.predict(takeRows(Xoof, holdIdx)).forEach((v, r) => (sigmaOof[holdIdx[r]] = Math.exp(v)));
  }
  const scaleModel = createScaleModel().fit(Xoof, scaleTarget, { sampleWeight: weight });
  progress('scale model');
  const center = weightedMedian(sigmaOof, weight);
  const districts = data.rows.map((r) => r.district);
  /** The calibrated intervals for one pooling power of σ(x); cheap, so several powers can be compared on one fit. */
  const intervals = (power: number) => {
    const pooling: ScalePooling = { power, center };
    const calibration = calibrateIntervals(absResiduals.map((r, i) => r / pooledScale(sigmaOof[i], pooling)), districts, COVERAGE, undefined, undefined, weight);
    return { pooling, calibration, scale: (sigma: Float64Array) => sigma.map((v) => pooledScale(v, pooling)) };
  };

  const encoding = fitEncoding(data.rows, data.y);
  const X = encode(data.rows, encoding);
  const models = members.map((spec) => {
    const m = spec.create().fit(X, data.y, { sampleWeight: weight });
    progress(`fit ${spec.name}`);
    return m;
  });
  const predict = (rows: FeatureSource[], override?: (X: Matrix) => void) => {
    const Xp = encode(rows, encoding);
    override?.(Xp);
    const per = models.map((m) => m.predict(Xp));
    const consensus = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) for (let j = 0; j < per.length; j++) consensus[i] += weights[j] * per[j][i];
    return { consensus, members: per, scale: scaleModel.predict(Xp).map(Math.exp) };
  };
  return { intervals, weights, oofConsensus, sigmaOof, scaleModel, models, encoding, predict };
}

/**
 * Chooses how far σ(x) is trusted without touching the headline test: the rows of the newest
 * period in `data` play the later market, the older rows are fitted and calibrated, and the power
 * whose 90% intervals come closest to 90% per district (mean absolute deviation over districts
 * with enough validation rows) wins; ties go to the earlier candidate.
 */
function selectScalePooling(data: Dataset, members: readonly MemberSpec[], seed: number, progress: (step: string) => void): ScalePoolingSelection {
  const periods = data.rows.map((r) => periodIndex(r.period));
  const newest = Math.max(...periods);
  const newestPeriod = data.rows[periods.indexOf(newest)].period;
  const older = subset(data, (i) => periods[i] < newest);
  const newer = subset(data, (i) => periods[i] === newest);
  const fit = fitWithCalibration(older, members, seed, progress);
  const pred = fit.predict(newer.rows);
  const candidates = SCALE_POOLING_POWERS.map((power) => {
    const { calibration, scale } = fit.intervals(power);
    const sigma = scale(pred.scale);
    const districts: Record<string, { n: number; coverage: number }> = {};
    let covered = 0;
    newer.rows.forEach((row, i) => {
      const hit = Math.abs(pred.consensus[i] - newer.y[i]) <= intervalHalfWidth(calibration, row.district, 0) * sigma[i] ? 1 : 0;
      covered += hit;
      const d = (districts[row.district] ??= { n: 0, coverage: 0 });
      d.coverage = (d.coverage * d.n + hit) / (d.n + 1);
      d.n++;
    });
    const counted = Object.values(districts).filter((d) => d.n >= SELECTION_MIN_ROWS);
    const meanAbsDeviation = counted.reduce((s, d) => s + Math.abs(d.coverage - COVERAGE), 0) / Math.max(1, counted.length);
    return { power, coverage: covered / newer.rows.length, meanAbsDeviation, districts };
  });
  const best = candidates.reduce((a, b) => (b.meanAbsDeviation < a.meanAbsDeviation ? b : a));
  return {
    protocol: `fitted and calibrated on the ${older.rows.length} training listings before ${newestPeriod}, scored on the ${newer.rows.length} of ${newestPeriod}; the headline test rows are not used`,
    minRows: SELECTION_MIN_ROWS,
    candidates,
    chosen: best.power,
  };
}

function evaluate(data: Dataset, pred: { consensus: Float64Array; scale: Float64Array }, calibration: IntervalCalibration, protocol: string): EvaluationReport & { rows: HeldOutPrediction[] } {
  const n = data.rows.length;
  const estimate = new Float64Array(n);
  const low = new Float64Array(n);
  const high = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const area = data.rows[i].area;
    const q = intervalHalfWidth(calibration, data.rows[i].district, 0) * pred.scale[i];
    estimate[i] = Math.exp(pred.consensus[i]) * area;
    low[i] = estimate[i] * Math.exp(-q);
    high[i] = estimate[i] * Math.exp(q);
  }
  const metricsOf = (idx: number[]) => accuracyMetrics(pick(data.priceUsd, idx), pick(estimate, idx), pick(low, idx), pick(high, idx));
  const districts: EvaluationReport['districts'] = {};
  for (const id of DISTRICT_IDS) {
    const idx = range(n).filter((i) => data.rows[i].district === id);
    if (idx.length === 0) continue;
    const m = metricsOf(idx);
    districts[id] = { ...m, accuracyClass: accuracyClass(m) };
  }
  const bySource: Record<string, ReturnType<typeof metricsOf>> = {};
  for (const s of new Set(data.source)) bySource[s] = metricsOf(range(n).filter((i) => data.source[i] === s));
  const rows = range(n).map((i) => ({ district: data.rows[i].district, source: data.source[i], actual: data.priceUsd[i], predicted: Math.round(estimate[i]), low: Math.round(low[i]), high: Math.round(high[i]) }));
  return { protocol, overall: metricsOf(range(n)), districts, bySource, rows };
}

/** Permutation importance per feature group on the headline test rows: the rise in mean absolute log error. */
function permutationImportance(fit: ReturnType<typeof fitWithCalibration>, test: Dataset): { feature: string; importance: number }[] {
  const base = meanAbs(fit.predict(test.rows).consensus, test.y);
  const rise: { feature: string; importance: number }[] = [];
  let seed = 7;
  for (const [group, names] of Object.entries(FEATURE_GROUPS)) {
    const columns = names.map((name) => FEATURE_NAMES.indexOf(name));
    const perm = shuffle(range(test.rows.length), (seed += 1));
    const shuffled = fit.predict(test.rows, (X) => {
      const copy = Float64Array.from(X.data);
      for (let i = 0; i < X.rows; i++) for (const c of columns) X.data[i * X.cols + c] = copy[perm[i] * X.cols + c];
    });
    rise.push({ feature: group, importance: Math.max(0, meanAbs(shuffled.consensus, test.y) - base) });
  }
  const sum = rise.reduce((s, r) => s + r.importance, 0) || 1;
  return rise.map((r) => ({ feature: r.feature, importance: Math.round((r.importance / sum) * 1000) / 1000 })).sort((a, b) => b.importance - a.importance);
}

function toDataset(records: readonly ListingRecord[]): Dataset {
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

/** Recency weight of each row relative to the newest listing period in `data`. */
function recencyWeights(data: Dataset): Float64Array {
  const newest = Math.max(...data.rows.map((r) => periodIndex(r.period)));
  return Float64Array.from(data.rows, (r) => 0.5 ** ((newest - periodIndex(r.period)) / RECENCY_HALF_LIFE_MONTHS));
}

function weightedMedian(values: Float64Array, weights: Float64Array): number {
  const order = range(values.length).sort((a, b) => values[a] - values[b]);
  const half = weights.reduce((s, w) => s + w, 0) / 2;
  let cumulative = 0;
  for (const i of order) if ((cumulative += weights[i]) >= half) return values[i];
  return values[order[order.length - 1]];
}

function encode(rows: readonly FeatureSource[], encoding: FeatureEncoding): Matrix {
  return matrix(encodeFeatures(rows, encoding, new Float64Array(rows.length * FEATURE_COUNT)), rows.length, FEATURE_COUNT);
}

function subset(data: Dataset, keep: (i: number) => boolean): Dataset {
  const idx = range(data.rows.length).filter(keep);
  return { rows: idx.map((i) => data.rows[i]), y: pick(data.y, idx), priceUsd: pick(data.priceUsd, idx), source: idx.map((i) => data.source[i]) };
}

/** Deterministic fold of each row (seeded shuffle, then round robin). */
function foldAssignment(n: number, k: number, seed: number): Int32Array {
  const fold = new Int32Array(n);
  shuffle(range(n), seed).forEach((i, r) => (fold[i] = r % k));
  return fold;
}

function shuffle(values: number[], seed: number): number[] {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [values[i], values[j]] = [values[j], values[i]];
  }
  return values;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function pick(values: Float64Array, idx: readonly number[]): Float64Array {
  return Float64Array.from(idx, (i) => values[i]);
}

function meanAbs(p: Float64Array, y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += Math.abs(p[i] - y[i]);
  return s / y.length;
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
