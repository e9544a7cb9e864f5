/**
 * Training of one residential version: ingest → market index → features → ensemble → intervals
 * calibrated under shift → evaluation → artifacts. Pure computation plus the artifact writer; the
 * CLI adds the progress bar and the promotion decision.
 *
 * Every fit levels its targets with a market index fitted on its own rows (old rows teach shape and
 * location, the index sets the level) and predicts a row at its own month: past the fit's newest
 * data, at the index's drift.
 *
 * Evaluation looks like deployment:
 * - headline, forward in time and across scrapes: fit on everything listed before the newest
 *   snapshot (uybor July 2026), test on that snapshot as clients would send it (no price fences);
 * - leave-one-source-out: each source predicted by a model that never saw it, its intervals
 *   calibrated on the other sources' residuals; the worst source is reported;
 * - the same forward test with optional fields removed (as banks and other sites send them), and
 *   a plain gradient-boosting baseline on the same features and views.
 * Intervals are calibrated on leave-one-source-out residuals (rows scored by a model that saw
 * neither their source nor, for the newest, their period), per segment (new build, resale,
 * unknown) and per district where a group has enough rows. The served model is then refitted on
 * every row.
 */
import { DISTRICT_IDS, type Market } from '../vocabulary/codes';
import { ingestListings, dataSnapshot, SOURCE_FILES, type IngestResult, type ListingRecord, type ListingSource } from '../ingest';
import type { ObservationExport } from '../ingest/observation-export';
import { observationListings, type ObservationSourceReport } from '../ingest/observation-listings';
import { COLLECTED_SOURCES, type CollectedHomes, type CollectedSourceReport } from '../ingest/collected-homes';
import { countBy, crossFit, crossFitSteps, evaluateValuations, permutationImportance, subset, type CrossFit, type CrossFitConfig, type Dataset, type GroupedEvaluation } from '../ensemble/cross-fit';
import { districtOf, districtReport, indicesWhere, leaveOneSourceOut, metricsBy, metricsOfRows, segmentOf } from '../ensemble/source-views';
import { calibrateIntervals, combinedHalfWidth, groupHalfWidth, randomWalkAllowance, SCALE_POOLING_POWERS, type CalibratedIntervals, type IntervalMethod } from '../intervals';
import { accuracyMetrics, quantile, type AccuracyMetrics } from '../ensemble/metrics';
import { round3 } from '../ensemble/estimate';
import type { HistGradientBoostingRegressor } from '../trainers';
import { accuracyByConfidence, type AccuracyClass } from '../ensemble/confidence';
import type { MemberSpec } from '../ensemble/weights';
import { BASELINE, MEMBERS } from './ensemble';
import { periodIndex } from '../ensemble/encoding';
import { encodeFeatures, fitEncoding, FEATURE_GROUPS, FEATURE_NAMES, type FeatureEncoding, type FeatureSource } from './features';
import { marketReference } from './market';
import { fitMarketIndex, logLevelAt, monthsBeyondData, withScrapeVariance, type MarketIndex } from './market-index';
import { calibrationGroup } from './runtime';
import { MIXTURE_MARKETS, mixtureInterval, newBuildProbability, type MarketMixtureModel } from './market-mixture';
import { fitMarketMixture } from './market-mixture-fit';
import { loadGazetteer } from '../location/geocode';
import { districtEvaluation, ONNX_FILE, SCALE_COLUMN, type EvaluationReport, type GrossMisfits, type LevelCheck, type PooledForward, type ResidentialManifest } from './manifest';

/** Each listing file's source group: one site's scrapes of one season count as one source. */
export const SOURCE_GROUPS: Record<string, string> = {
  olx_2021: 'olx 2021-02',
  uybor_2023: 'uybor 2023-10',
  olx_2024: 'olx 2024-04',
  uybor_2025: 'uybor 2025',
  uybor_2025_b: 'uybor 2025',
  uybor_2025_en: 'uybor 2025',
  uybor_2026: 'uybor 2026-07',
  // An organisation's observed prices (npm run train -- --with-observations FILE): a dated source of their own.
  observations: 'observations',
  // The listings the service collects itself (npm run collect -- --export; ../ingest/collected-homes.ts): one source per site.
  uybor_collected: 'uybor collected',
  olx_collected: 'olx collected',
};
export const TRAINING_SOURCES = Object.keys(SOURCE_GROUPS);
/**
 * Left out, the oldest source is valued at a level extrapolated backwards from 2023 (the index has
 * no earlier point), which serving never does: its residuals neither calibrate nor count in the
 * pooling choice, and the leave-one-source-out table reports it apart.
 */
const OLDEST_SOURCE_GROUP = SOURCE_GROUPS.olx_2021;
/** The newest snapshot: the forward test, and the rows the served model adds last (unless collected listings are newer: forwardTestOf). */
export const FORWARD_TEST_SOURCE = 'uybor_2026';
/** How FORWARD_TEST_SOURCE is named in the protocols. */
const FORWARD_TEST_LABEL = "uybor's July 2026 snapshot";
/** The newest month of collected listings becomes the forward test with at least this many listings of the kind (the index's own floor for a month). */
export const MIN_COLLECTED_FORWARD_ROWS = 30;
/**
 * The same protocol one step earlier: everything before uybor's 2025 scrapes → those scrapes. A
 * second forward view, reported beside the headline; nothing is chosen on it.
 */
const BACKTEST_SOURCES: readonly ListingSource[] = ['uybor_2025', 'uybor_2025_b', 'uybor_2025_en'];
/**
 * A listing counts half as much for every RECENCY_HALF_LIFE_MONTHS it is older than the newest, in
 * fitting and in calibration. Two years, set a priori: the index now carries the level, so age only
 * discounts how flats were valued relative to each other, which moves slowly.
 */
export const RECENCY_HALF_LIFE_MONTHS = 24;
const COVERAGE = 0.9;
const IN_DISTRIBUTION_FOLDS = 5;
/** A segment or segment-district group gets its own interval quantile with at least this many calibration rows. */
const MIN_CALIBRATION_ROWS = 60;
/** The leave-one-source-out view: the pooling power is chosen on it and the report scores it. */
const SOURCE_VIEW = { notScored: OLDEST_SOURCE_GROUP, minGroupRows: MIN_CALIBRATION_ROWS };
/** What banks and other sites often send: the core fields and the market, nothing optional. */
const coreFieldsOnly = <R extends FeatureSource>(r: R): R => ({ ...r, renovation: null, buildingType: null, mahallaId: null, lat: null, lon: null, furniture: null, bathroom: null, seller: null });
/** Optional fields a bank or another site often lacks; the forward test is repeated without them. */
const MASKED_VIEWS: { name: string; mask: (r: FeatureSource) => FeatureSource }[] = [
  { name: 'without renovation, building type, mahalla, coordinates', mask: (r) => ({ ...r, renovation: null, buildingType: null, mahallaId: null, lat: null, lon: null }) },
  { name: 'without market (new build or resale)', mask: (r) => ({ ...r, market: null }) },
  { name: 'district, area, rooms, floor, floors and market only', mask: coreFieldsOnly },
  { name: 'district, area, rooms, floor and floors only', mask: (r) => ({ ...coreFieldsOnly(r), market: null }) },
];
/**
 * Every training row is also fitted with its optional fields removed (see CrossFitConfig.maskedCopies),
 * at this share of its weight. Chosen among 0.25, 0.5 and 1 on the leave-one-source-out views (all
 * fields: median APE 12.6/12.5/12.6%; core fields only: 14.3/14.2/14.3%), never on the forward test.
 */
export const MASKED_COPY_WEIGHT = 0.5;

/** A training row: the features' source plus its source group (the fold it is left out in). */
type Row = FeatureSource & { source: string };

/**
 * The flats' interval method (models/intervals): calibrated on leave-one-source-out residuals, per
 * segment within district, σ(x) pooled by a power chosen on that same view, and past the newest
 * data the market index's random walk.
 */
const INTERVALS: IntervalMethod<Row> = {
  coverage: COVERAGE,
  residuals: { rows: 'listings', heldOut: 'source', copies: 'core-fields-only copies', notCalibrating: { source: OLDEST_SOURCE_GROUP, why: 'its level would be extrapolated backwards' } },
  groups: { of: calibrationGroup, name: 'segment', values: 'new build, resale or unknown, apart when only the basic fields are given', within: 'district' },
  minGroupRows: MIN_CALIBRATION_ROWS,
  recencyHalfLifeMonths: RECENCY_HALF_LIFE_MONTHS,
  pooling: { candidates: SCALE_POOLING_POWERS, view: SOURCE_VIEW },
  drift: { rule: 'random walk', index: 'the market index net of scrape offsets' },
};

const FEATURES = {
  names: FEATURE_NAMES, groups: FEATURE_GROUPS, encode: encodeFeatures,
  fit: (rows: readonly FeatureSource[], y: ArrayLike<number>) => fitEncoding(rows, y, undefined, mahallaCentres()),
};
let centres: Record<string, [number, number]> | undefined;
/** The gazetteer's mahalla centres (models/artifacts/location/gazetteer.json), read once. */
function mahallaCentres(): Record<string, [number, number]> {
  centres ??= Object.fromEntries(loadGazetteer().mahallas.flatMap((m) => (m.lat !== null && m.lon !== null ? [[m.id, [m.lat, m.lon]]] : [])));
  return centres;
}
const MARKET_LEVEL = {
  fit: (rows: readonly FeatureSource[], y: Float64Array) => fitMarketIndex(rows, y, COVERAGE),
  at: (index: MarketIndex, row: FeatureSource) => logLevelAt(index, row.district, row.market, row.period),
  monthsBeyond: (index: MarketIndex, row: FeatureSource) => monthsBeyondData(index, row.period),
};
const crossFitConfig = (members: readonly MemberSpec[], seed: number): CrossFitConfig<Row, FeatureEncoding> => ({
  features: FEATURES,
  members,
  groupOf: INTERVALS.groups.of,
  foldOf: (row) => row.source,
  calibratesOn: (row) => row.source !== OLDEST_SOURCE_GROUP,
  level: MARKET_LEVEL as CrossFitConfig<Row, FeatureEncoding>['level'],
  monthOf: (row) => periodIndex(row.period),
  unitsOf: (row) => row.area,
  recencyHalfLifeMonths: INTERVALS.recencyHalfLifeMonths,
  anchorsRecency: (source) => source !== SOURCE_GROUPS.observations,
  folds: 0,
  seed,
  maskedCopies: { mask: coreFieldsOnly, weight: MASKED_COPY_WEIGHT },
});

export interface TrainOptions {
  seed?: number;
  /**
   * Listing files left out of every fit, as if they did not exist (the evaluation set still reads
   * the forward test file): a model trained without a file, to measure something else on that file
   * (bench/observations). Default: none.
   */
  excludeSources?: readonly ListingSource[];
  /** An organisation's observation export: its home prices join the listings as a source of their own. */
  observations?: ObservationExport | null;
  /** The collected homes export (../ingest/collected-homes.ts): its records join the listings as sources of their own (uybor_collected, olx_collected). */
  collected?: CollectedHomes | null;
  members?: readonly MemberSpec[];
  onProgress?: (done: number, total: number, step: string) => void;
}

export interface TrainedVersion {
  manifest: Omit<ResidentialManifest, 'version' | 'trainedAt'>;
  fitted: { spec: MemberSpec; model: ReturnType<MemberSpec['create']> }[];
  scaleModel: HistGradientBoostingRegressor;
  /** Rows of the forward test, so the promotion gate can score the current version on them. */
  headlineTest: { rows: FeatureSource[]; priceUsd: Float64Array };
  headlinePredictions: HeldOutPrediction[];
}

export interface HeldOutPrediction {
  district: string;
  source: string;
  segment: string;
  actual: number;
  predicted: number;
  low: number;
  high: number;
}

export function trainResidential(options: TrainOptions = {}): TrainedVersion {
  const started = Date.now();
  const members = options.members ?? MEMBERS;
  const config = crossFitConfig(members, options.seed ?? 42);

  const { records, report, observations, collected } = trainingRecords(options);
  const data = toDataset(records.filter((r) => r.propertyType === 'apartment' && TRAINING_SOURCES.includes(r.source)));
  // The forward test as clients would send it: the newest period (forwardTestOf).
  const forwardTest = forwardTestOf(records, 'apartment');
  const forward = toDataset(forwardTest.records);
  const backtestTest = toDataset(ingestListings({ sources: [...BACKTEST_SOURCES], priceFences: false }).records.filter((r) => r.propertyType === 'apartment'));
  const groups = new Set(data.source).size;
  const total = 1 + crossFitSteps(members.length, groups - 1) + crossFitSteps(members.length, groups - 2) + crossFitSteps(members.length, groups) + crossFitSteps(1, groups - 1) + crossFitSteps(members.length, IN_DISTRIBUTION_FOLDS) + 1;
  let done = 0;
  const progress = (step: string) => options.onProgress?.(++done, total, step);
  progress(`ingested ${data.rows.length} apartment listings${observations ? ` (${observations.kept} observed flats and houses among the records)` : ''}`);

  // Headline: everything before the newest snapshot → the newest snapshot.
  const { before, fit: headlineFit, score: scoreForward } = forwardView(data, forward, forwardTest.source, config, (s) => progress(`forward: ${s}`));
  const headlineResult = scoreForward(forward.rows);
  const headline: ResidentialManifest['evaluation']['headline'] = {
    ...evaluationReport(`Forward in time and across scrapes: fitted on every listing before the newest snapshot (${sourceList(before)}), tested on the ${forward.rows.length} Tashkent flats of ${forwardTest.label} as clients would send them (no price fences), valued at their listing month by the market index extrapolated from the fitted data; intervals calibrated on the fitted sources' leave-one-source-out residuals only.`, headlineResult, members, headlineFit.weights),
    segments: metricsBy(headlineResult.rows, segmentOf),
    level: levelCheck(headlineResult.rows),
  };
  const headlinePredictions = headlineResult.rows.map(({ group, ...row }) => ({ district: districtOf(group), segment: segmentOf(group), ...row }));
  const backtestView = forwardView(data, backtestTest, BACKTEST_SOURCES[0], config, (s) => progress(`backtest: ${s}`));
  const backtestResult = backtestView.score(backtestTest.rows);
  const backtest = {
    protocol: `The forward protocol one step earlier (a second forward view; nothing is chosen on it): fitted on ${sourceList(backtestView.before)}, tested on the ${backtestTest.rows.length} Tashkent flats of uybor's 2025 scrapes as clients would send them (no price fences). They carry no market, so each is valued as the mixture of its new-build and resale valuations.`,
    overall: backtestResult.overall,
    level: levelCheck(backtestResult.rows),
    ...withoutGrossMisfits(backtestResult.rows),
  };
  const pooled = pooledForward([{ source: sourceList(forward), rows: headlineResult.rows }, { source: sourceList(backtestTest), rows: backtestResult.rows }]);
  const maskedResults = MASKED_VIEWS.map(({ name, mask }) => ({ name, result: scoreForward(forward.rows.map((r) => ({ ...mask(r), source: r.source }))) }));

  // Leave-one-source-out over every source; the same fit is the served model (refitted on every row).
  const all = crossFit(data, config, (s) => progress(`leave-one-source-out: ${s}`));
  const marketIndex = indexOf(all, data);
  const servedIntervals = calibrateIntervals(INTERVALS, all.residuals, { scaleColumn: SCALE_COLUMN, index: marketIndex });
  const marketMixture = fitMarketMixture(data.rows);
  const { report: loso, heldOut: losoRows } = leaveOneSourceOut(all, config, servedIntervals, { ...SOURCE_VIEW, districts: DISTRICT_IDS, protocol: `Leave one source out: each source (one site's scrape of one season) predicted by a model fitted on the others, its market level read from an index that never saw it; intervals calibrated on the other sources' residuals. Overall, district and segment figures leave out ${OLDEST_SOURCE_GROUP}, whose level would be extrapolated backwards (shown by source only).` });

  // The baseline: one gradient-boosting model, same features, same views.
  const baselineConfig = crossFitConfig([BASELINE], options.seed ?? 42);
  const baselineFit = crossFit(before, baselineConfig, (s) => progress(`baseline: ${s}`));
  const baselinePred = baselineFit.predict(forward.rows);
  const baseline = {
    algorithm: BASELINE.algorithm,
    hyperparameters: BASELINE.hyperparameters,
    forward: accuracyMetrics(forward.priceUsd, forward.rows.map((r, i) => Math.exp(baselinePred.consensus[i]) * r.area)),
    leaveOneSourceOut: interpolatedSourcesMetrics(baselineFit, before),
    oursLeaveOneSourceOutOnTheSameRows: interpolatedSourcesMetrics(headlineFit, before),
  };

  const inDistribution = inDistributionView(data, members, options.seed ?? 42, (s) => progress(`in-distribution k-fold: ${s}`));

  const fitted = members.map((spec, j) => ({ spec, model: all.models[j] }));
  const featureImportance = permutationImportance(headlineFit, forward, FEATURES);
  progress('feature importance');

  const views = { headline, backtest, pooledForward: pooled, leaveOneSourceOut: loso, baseline, inDistribution, featureImportance };
  const districtAccuracy: Record<string, AccuracyClass> = Object.fromEntries(DISTRICT_IDS.map((id) => [id, districtEvaluation(views, id)?.accuracyClass ?? 'low']));
  const confidence = confidenceRule(losoRows, districtAccuracy);
  // Each view with fields removed, by the flat's own market (whether or not it was sent) and by the confidence level it would get at best.
  const masked = maskedResults.map(({ name, result }) => {
    const rows = result.rows.map((r, i) => ({ ...r, group: `${forward.rows[i].market ?? 'unknown'}/${districtOf(r.group)}` }));
    return { name, overall: result.overall, segments: metricsBy(rows, segmentOf), byConfidence: accuracyByConfidence(rows) };
  });
  const evaluation = { ...views, masked };
  return {
    manifest: {
      kind: 'residential',
      generatedBy: 'npm run train (tools/models/residential/train-cli.ts)',
      dataSnapshot: dataSnapshot(),
      training: {
        rows: data.rows.length, bySource: countBy(data.source), byDistrict: countBy(data.rows.map((r) => r.district)), seconds: (Date.now() - started) / 1000, ingest: report, maskedCopyWeight: MASKED_COPY_WEIGHT,
        ...(observations && { observations }),
        ...(collected && { collected }),
      },
      target: 'log_price_per_m2',
      features: { names: [...FEATURE_NAMES], encoding: all.encoding },
      onnx: { file: ONNX_FILE, input: 'features', output: 'prediction', columns: [...members.map((m) => m.name), SCALE_COLUMN] },
      members: fitted.map(({ spec }, j) => ({ name: spec.name, algorithm: spec.algorithm, weight: all.weights[j], hyperparameters: spec.hyperparameters })),
      intervals: servedIntervals.manifest,
      market: marketReference(
        data.rows.map((r, i) => ({ district: r.district, mahallaId: r.mahallaId, area: r.area, totalFloors: r.totalFloors, priceUsd: data.priceUsd[i] * Math.exp(-logLevelAt(marketIndex, r.district, r.market, r.period)) })),
        marketIndex.newestPeriod,
      ),
      marketIndex,
      ...(marketMixture && { marketMixture }),
      evaluation,
      districtAccuracy,
      confidence,
    },
    fitted,
    scaleModel: all.scaleModel,
    headlineTest: { rows: forward.rows, priceUsd: forward.priceUsd },
    headlinePredictions,
  };
}

/**
 * The listing files' records (less `excludeSources`), and the organisation's observed homes when an
 * export is given, as records of their own source (flats and houses: each trainer takes its own).
 */
export function trainingRecords(options: Pick<TrainOptions, 'excludeSources' | 'observations' | 'collected'>): IngestResult & { observations: ObservationSourceReport | null; collected: CollectedSourceReport | null } {
  const excluded = options.excludeSources ?? [];
  const ingested = ingestListings(excluded.length ? { sources: SOURCE_FILES.map((f) => f.source).filter((s) => !excluded.includes(s)) } : {});
  const collected = options.collected ?? null;
  const withCollected = (records: ListingRecord[]) => (collected ? [...records, ...collected.records] : records);
  if (!options.observations) return { records: withCollected(ingested.records), report: ingested.report, observations: null, collected: collected?.report ?? null };
  const observed = observationListings(options.observations);
  return { records: withCollected([...ingested.records, ...observed.records]), report: ingested.report, observations: observed.report, collected: collected?.report ?? null };
}

/** The forward test of a kind: its records as clients would send them, the source left out of its fit (null: by period alone), and how the protocols name it. */
export interface ForwardTest {
  records: ListingRecord[];
  source: ListingSource | null;
  label: string;
}

/**
 * The forward test is the newest period, as it has been: the newest snapshot (FORWARD_TEST_SOURCE,
 * its own ingestion without price fences), or, once collected listings are newer than it, their
 * newest month (both sites, each listing at its last asking price), when it holds at least
 * MIN_COLLECTED_FORWARD_ROWS listings of the kind. A collected month's fit learns from every row
 * listed before that month, earlier collected months included (fittedBeforeForwardTest by period).
 */
export function forwardTestOf(records: readonly ListingRecord[], propertyType: ListingRecord['propertyType']): ForwardTest {
  const snapshot = ingestListings({ sources: [FORWARD_TEST_SOURCE], priceFences: false }).records;
  const today: ForwardTest = { records: snapshot.filter((r) => r.propertyType === propertyType), source: FORWARD_TEST_SOURCE, label: FORWARD_TEST_LABEL };
  const collected = records.filter((r) => COLLECTED_SOURCES.includes(r.source) && r.propertyType === propertyType);
  if (collected.length === 0) return today;
  const newest = collected.reduce((p, r) => (r.period > p ? r.period : p), '');
  const snapshotNewest = snapshot.reduce((p, r) => (r.period > p ? r.period : p), '');
  const month = collected.filter((r) => r.period === newest);
  if (newest <= snapshotNewest || month.length < MIN_COLLECTED_FORWARD_ROWS) return today;
  return { records: month, source: null, label: `the listings collected in ${newest} (npm run collect: uybor.uz and olx.uz, each at its last asking price)` };
}

/**
 * Which rows a forward test's fit may learn from: not the test's own snapshot, and nothing observed
 * from the test's first month on (an organisation's observations can be newer than the test; they
 * would tell the fit the very level it is tested on).
 */
export function fittedBeforeForwardTest(test: readonly { period: string }[], testSource: string | null = FORWARD_TEST_SOURCE): (row: { source: string; period: string }) => boolean {
  const newestGroup = testSource === null ? null : SOURCE_GROUPS[testSource];
  const testStart = test.reduce((first, r) => (r.period < first ? r.period : first), '9999-12');
  return (row) => row.source !== newestGroup && row.period < testStart;
}

/**
 * The in-distribution view: random K-fold over every source mixed, so each test row's source and
 * months were also in its fit. Reported beside the others, labelled so; it chooses nothing.
 */
function inDistributionView(data: Dataset<Row>, members: readonly MemberSpec[], seed: number, progress: (step: string) => void): { protocol: string; overall: AccuracyMetrics } {
  const fit = crossFit(data, { ...crossFitConfig(members, seed), foldOf: undefined, folds: IN_DISTRIBUTION_FOLDS, maskedCopies: undefined }, progress);
  return {
    protocol: `In distribution (not a test of deployment): random ${IN_DISTRIBUTION_FOLDS}-fold over every source mixed, each listing predicted by a fit that saw its source and its months.`,
    overall: accuracyMetrics(data.priceUsd, data.rows.map((r, i) => Math.exp(fit.oofConsensus[i]) * r.area)),
  };
}

/**
 * The confidence rule's width ends, from the widths the served calibration gives the flats left out
 * one source at a time (as listed and with the basic fields only): full marks at the 10th
 * percentile, none at the 90th. Set from the widths alone, not from the errors; the accuracy at each
 * level on those flats is recorded to show whether the levels order the errors.
 */
function confidenceRule(rows: GroupedEvaluation['rows'], districtAccuracy: Record<string, AccuracyClass>): NonNullable<ResidentialManifest['confidence']> {
  const widths = rows.map((r) => (r.high - r.low) / r.predicted);
  const round2 = (x: number) => Math.round(x * 100) / 100;
  const confidenceWidths = { full: round2(quantile(widths, 0.1)), none: round2(quantile(widths, 0.9)) };
  return {
    widths: confidenceWidths,
    protocol: `the 10th and 90th percentiles of the relative interval widths of ${rows.length} leave-one-source-out valuations (as listed and with the basic fields only)`,
    leaveOneSourceOut: accuracyByConfidence(rows),
  };
}

/**
 * A forward test: fitted on every row listed before the test's first month and not from its source,
 * with the intervals calibrated and the market mixture learned on those rows alone; `score` values
 * test rows as serving would (./market-mixture.ts for rows without their market) and reports them.
 */
function forwardView(data: Dataset<Row>, test: Dataset<Row>, testSource: string | null, config: CrossFitConfig<Row, FeatureEncoding>, progress: (step: string) => void) {
  const fits = fittedBeforeForwardTest(test.rows, testSource);
  const before = subset(data, (i) => fits(data.rows[i]));
  const fit = crossFit(before, config, progress);
  const index = indexOf(fit, before);
  const intervals = calibrateIntervals(INTERVALS, fit.residuals, { scaleColumn: SCALE_COLUMN, index });
  const mixture = fitMarketMixture(before.rows);
  const score = (rows: Row[]) => evaluateValuations({ ...test, rows }, valueWithMixture(fit, intervals, index, mixture, rows), config, DISTRICT_IDS);
  return { before, fit, score };
}

/**
 * Estimates and intervals (USD) of held-out rows as serving makes them: a flat with its market from
 * the fit's consensus, σ(x) and its group's quantile, with the random walk's allowance past the
 * index's newest data; a flat without one as the mixture of its new-build and resale valuations
 * (./market-mixture.ts), when the fit's rows had labels to learn the mixture from.
 */
function valueWithMixture(fit: CrossFit<Row>, intervals: CalibratedIntervals<Row>, index: MarketIndex, mixture: MarketMixtureModel | null, rows: readonly Row[]) {
  const mixed = (r: Row) => mixture !== null && r.market === null;
  const variants = rows.flatMap((r) => (mixed(r) ? MIXTURE_MARKETS.map((market) => ({ ...r, market })) : [r]));
  const pred = fit.predict(variants);
  const scale = intervals.scale(pred.scale);
  const component = (k: number) => ({
    center: pred.consensus[k] + Math.log(variants[k].area),
    halfWidth: combinedHalfWidth(groupHalfWidth(intervals.calibration, calibrationGroup(variants[k]), 0) * scale[k], randomWalkAllowance(index, monthsBeyondData(index, variants[k].period))),
  });
  const n = rows.length;
  const valued = { estimate: new Float64Array(n), low: new Float64Array(n), high: new Float64Array(n) };
  let k = 0;
  rows.forEach((r, i) => {
    let log: { center: number; low: number; high: number };
    if (mixed(r)) {
      const p = newBuildProbability(mixture!, r);
      log = mixtureInterval([{ weight: p, ...component(k) }, { weight: 1 - p, ...component(k + 1) }], intervals.calibration.coverage);
      k += 2;
    } else {
      const { center, halfWidth } = component(k++);
      log = { center, low: center - halfWidth, high: center + halfWidth };
    }
    valued.estimate[i] = Math.exp(log.center);
    valued.low[i] = Math.exp(log.low);
    valued.high[i] = Math.exp(log.high);
  });
  return valued;
}

/** A listing priced at more than this multiple of its estimate, or under its inverse, is a price in the wrong unit or column, not a valuation error. */
const GROSS_MISFIT_RATIO = 10;

/**
 * The view's metrics without its gross misfits (a soʻm price in the dollar column, say), which
 * alone can set R² and MAE; recorded beside the full metrics, never instead of them, and only when
 * there are any.
 */
function withoutGrossMisfits(rows: GroupedEvaluation['rows']): { grossMisfits?: GrossMisfits } {
  const kept = rows.filter((r) => Math.abs(Math.log(r.actual / r.predicted)) <= Math.log(GROSS_MISFIT_RATIO));
  if (kept.length === rows.length) return {};
  return { grossMisfits: { rule: `asking price over ${GROSS_MISFIT_RATIO}× the estimate or under 1/${GROSS_MISFIT_RATIO} of it`, rows: rows.length - kept.length, overallWithout: metricsOfRows(kept) } };
}

/** The forward steps' rows pooled (PooledForward): bias and coverage overall and by segment. */
function pooledForward(steps: { source: string; rows: GroupedEvaluation['rows'] }[]): PooledForward {
  const rows = steps.flatMap((s) => s.rows);
  const withBias = (of: GroupedEvaluation['rows']) => ({ ...metricsOfRows(of), medianBias: round3(Math.exp(quantile(of.map((r) => Math.log(r.predicted / r.actual)), 0.5)) - 1) });
  const segments = [...new Set(rows.map((r) => segmentOf(r.group)))].sort();
  return {
    protocol: `Every forward step pooled row by row, each fitted only on the sources before its test (${steps.map((s) => s.source).join('; ')}): the median bias (estimate / price − 1) and the 90% interval's coverage with Wilson 95% bounds.`,
    steps: steps.map((s) => ({ source: s.source, n: s.rows.length })),
    overall: withBias(rows),
    segments: Object.fromEntries(segments.map((k) => [k, withBias(rows.filter((r) => segmentOf(r.group) === k))])),
  };
}

/**
 * How much of a forward test's error is the market level: the median log error of the estimates as
 * a ratio (the level the fit extrapolated against the one the test found), and the median APE and
 * coverage once that one number is taken out of every estimate and interval (the rest: each flat's own).
 */
function levelCheck(rows: GroupedEvaluation['rows']): LevelCheck {
  const logError = rows.map((r) => Math.log(r.predicted / r.actual));
  const level = quantile(logError, 0.5);
  const shifted = rows.map((r) => ({ ...r, predicted: r.predicted * Math.exp(-level), low: r.low * Math.exp(-level), high: r.high * Math.exp(-level) }));
  return {
    medianLevelError: round3(Math.exp(level) - 1),
    medianApeAtFoundLevel: round3(quantile(shifted.map((r) => Math.abs(r.predicted / r.actual - 1)), 0.5)),
    coverageAtFoundLevel: round3(shifted.filter((r) => r.actual >= r.low && r.actual <= r.high).length / rows.length),
  };
}

/** A fit's market index with each scrape's offset modelled and its volatility net of them (the drift allowance's random walk). */
function indexOf(fit: CrossFit<Row>, data: Dataset<Row>): MarketIndex {
  return withScrapeVariance(fit.level as MarketIndex, sourceOffsets(fit, data));
}

/**
 * How far each scrape's level sits from the market's: each source's median leave-one-source-out
 * log residual, for the sources between the oldest and the newest (whose levels were interpolated,
 * not extrapolated).
 */
function sourceOffsets(fit: CrossFit<Row>, data: Dataset<Row>): { source: string; offset: number }[] {
  const newestMonth = new Map<string, number>();
  for (const r of data.rows) newestMonth.set(r.source, Math.max(newestMonth.get(r.source) ?? -Infinity, periodIndex(r.period)));
  const sources = [...newestMonth.keys()].sort((a, b) => newestMonth.get(a)! - newestMonth.get(b)!).slice(1, -1);
  return sources.map((source) => ({ source, offset: quantile(indicesWhere(data, (r) => r.source === source).map((i) => data.y[i] - fit.oofConsensus[i]), 0.5) }));
}

function evaluationReport(protocol: string, result: GroupedEvaluation, members: readonly MemberSpec[], weights: readonly number[]): EvaluationReport {
  return { protocol, weights: Object.fromEntries(members.map((m, j) => [m.name, weights[j]])), overall: result.overall, districts: districtReport(result.rows), bySource: result.bySource };
}

/** Leave-one-source-out accuracy of a fit on every source but the oldest. */
function interpolatedSourcesMetrics(fit: CrossFit<Row>, data: Dataset<Row>): AccuracyMetrics {
  const idx = indicesWhere(data, (r) => r.source !== OLDEST_SOURCE_GROUP);
  return accuracyMetrics(idx.map((i) => data.priceUsd[i]), idx.map((i) => Math.exp(fit.oofConsensus[i]) * data.rows[i].area));
}

function sourceList(data: Dataset<Row>): string {
  return [...new Set(data.rows.map((r) => r.source))].join(', ');
}

/** Flat listings as the flat model's training rows (the house model levels its targets with an index fitted on them). */
export function toDataset(records: readonly ListingRecord[]): Dataset<Row> {
  return {
    rows: records.map((r) => ({
      district: r.district, mahallaId: r.mahallaId, area: r.area, rooms: r.rooms, floor: r.floor, totalFloors: r.totalFloors,
      renovation: r.renovation, buildingType: r.buildingType, furniture: r.furniture, bathroom: r.bathroom,
      market: r.market as Market | null, seller: r.seller, lat: r.lat, lon: r.lon, period: r.period, source: SOURCE_GROUPS[r.source],
    })),
    y: Float64Array.from(records, (r) => Math.log(r.priceUsd / r.area)),
    priceUsd: Float64Array.from(records, (r) => r.priceUsd),
    source: records.map((r) => SOURCE_GROUPS[r.source]),
  };
}
