/**
 * Training of one house version: the house rows of the listing files → targets levelled by the
 * flats' market index → a house member set cross-fitted by source → intervals calibrated on
 * leave-one-source-out residuals → evaluation → artifacts. The flat model is untouched by house
 * rows: the flats only lend their market index and their district price levels.
 *
 * Evaluation as for flats:
 * - headline, forward in time and across scrapes: fitted on the houses listed before uybor's July
 *   2026 snapshot, tested on that snapshot's houses as clients would send them (no price fences).
 *   Those come without their plot (uybor's export has one area column), so the headline measures
 *   valuations without the plot;
 * - leave one source out, with and without the plot;
 * - the served model is refitted on every house.
 */
import { dataSnapshot, type ListingRecord } from '../ingest';
import { countBy, crossFit, crossFitSteps, evaluate, permutationImportance, subset, type CrossFit, type CrossFitConfig, type Dataset } from '../ensemble/cross-fit';
import { districtReport, leaveOneSourceOut, metricsBy, segmentOf, type EvaluationReport } from '../ensemble/source-views';
import { calibrateIntervals, MIN_GROUP_ROWS, randomWalkAllowance, SCALE_POOLING_POWERS, type IntervalMethod } from '../intervals';
import { median, quantile } from '../ensemble/metrics';
import { DEFAULT_CONFIDENCE_WIDTHS, type AccuracyClass } from '../ensemble/confidence';
import { periodIndex } from '../ensemble/encoding';
import type { MemberSpec } from '../ensemble/weights';
import type { HistGradientBoostingRegressor } from '../trainers';
import { fitMarketIndex, logLevelAt, monthsBeyondData, type MarketIndex } from '../residential/market-index';
import { marketReference } from '../residential/market';
import { fittedBeforeForwardTest, forwardTestOf, RECENCY_HALF_LIFE_MONTHS, TRAINING_SOURCES, toDataset, trainingRecords } from '../residential/train';
import type { ObservationExport } from '../ingest/observation-export';
import type { CollectedHomes } from '../ingest/collected-homes';
import { DISTRICT_IDS, type DistrictId } from '../vocabulary/codes';
import { encodeHouseFeatures, fitHouseEncoding, HOUSE_FEATURE_GROUPS, HOUSE_FEATURE_NAMES, type HouseEncoding, type HouseFeatureSource } from './features';
import { HOUSE_ONNX_FILE, HOUSE_SCALE_COLUMN, type HouseDistrictMarket, type HouseManifest } from './manifest';
import { HOUSE_MEMBERS } from './members';
import { houseCalibrationGroup, landShareOf, LAND_STEP } from './runtime';
import { typicalHouse } from './attribution';

/** Each file's house source group: the fold it is left out in. */
const HOUSE_SOURCE_GROUPS: Record<string, string> = {
  uybor_2023: 'uybor 2023-10',
  uybor_houses_2025: 'uybor 2025',
  uybor_2026: 'uybor 2026-07',
  observations: 'observations',
  uybor_collected: 'uybor collected',
  olx_collected: 'olx collected',
};
const COVERAGE = 0.9;
/** A district with fewer training houses than this is refused: too few to say what a house there is worth. */
export const MIN_HOUSE_LISTINGS = 15;
/** Each house is also fitted without its plot (CrossFitConfig.maskedCopies), at half its weight, as flats are fitted without their optional fields. */
const WITHOUT_PLOT_WEIGHT = 0.5;
const withoutPlot = <R extends HouseFeatureSource>(r: R): R => ({ ...r, landAreaSotka: null });
/** Fewer than this many houses with a plot: no district median per sotka is quoted. */
const MIN_SOTKA_MEDIAN_ROWS = 5;

type Row = HouseFeatureSource & { source: string };

/**
 * The leave-one-source-out view the pooling power is chosen on and the report scores. Its groups
 * take their segment's quantile below 40 rows, the served calibration's below MIN_GROUP_ROWS (60):
 * so version 2026.11.3 was trained; aligning them would change the house model.
 */
const SOURCE_VIEW = { minGroupRows: 40 };

/**
 * The houses' interval method (models/intervals): as the flats', with plot segments for segments,
 * and past the newest data the flats' market index's random walk (the houses have no index of their own).
 */
const INTERVALS: IntervalMethod<Row> = {
  coverage: COVERAGE,
  residuals: { rows: 'houses', heldOut: 'source', copies: 'copies without the plot' },
  groups: { of: houseCalibrationGroup, name: 'plot segment', values: 'with or without the plot', within: 'district' },
  minGroupRows: MIN_GROUP_ROWS,
  recencyHalfLifeMonths: RECENCY_HALF_LIFE_MONTHS,
  pooling: { candidates: SCALE_POOLING_POWERS, view: SOURCE_VIEW },
  drift: { rule: 'random walk', index: "the flats' market index" },
};

/** The cross-fit of house rows whose targets are levelled by a flat index fitted beforehand (the level model ignores the house rows). */
function crossFitConfig(index: MarketIndex, flatDistrictLevel: Record<string, number>, seed: number, members: readonly MemberSpec[]): CrossFitConfig<Row, HouseEncoding> {
  return {
    features: {
      names: HOUSE_FEATURE_NAMES, groups: HOUSE_FEATURE_GROUPS, encode: encodeHouseFeatures,
      fit: (rows, y) => fitHouseEncoding(rows, y, flatDistrictLevel),
    },
    members,
    groupOf: INTERVALS.groups.of,
    foldOf: (row) => row.source,
    level: {
      fit: () => index,
      at: (_index, row) => logLevelAt(index, row.district, null, row.period),
      monthsBeyond: (_index, row) => monthsBeyondData(index, row.period),
    },
    monthOf: (row) => periodIndex(row.period),
    unitsOf: (row) => row.area,
    recencyHalfLifeMonths: INTERVALS.recencyHalfLifeMonths,
    anchorsRecency: (source) => source !== HOUSE_SOURCE_GROUPS.observations,
    folds: 0,
    seed,
    maskedCopies: { mask: withoutPlot, weight: WITHOUT_PLOT_WEIGHT },
  };
}

/** The flats' market index and each district's median flat log price per m² at the newest level, from flat rows. */
function flatLevels(flats: ReturnType<typeof toDataset>): { index: MarketIndex; flatDistrictLevel: Record<string, number> } {
  const index = fitMarketIndex(flats.rows, flats.y, COVERAGE);
  const byDistrict = new Map<string, number[]>();
  flats.rows.forEach((r, i) => {
    const list = byDistrict.get(r.district) ?? [];
    list.push(flats.y[i] - logLevelAt(index, r.district, r.market, r.period));
    byDistrict.set(r.district, list);
  });
  return { index, flatDistrictLevel: Object.fromEntries([...byDistrict].map(([d, ys]) => [d, Math.round(median(ys) * 1e4) / 1e4])) };
}

export interface TrainedHouseVersion {
  manifest: Omit<HouseManifest, 'version' | 'trainedAt'>;
  fitted: { spec: MemberSpec; model: ReturnType<MemberSpec['create']> }[];
  scaleModel: HistGradientBoostingRegressor;
  headlinePredictions: unknown[];
}

export interface TrainHouseOptions {
  seed?: number;
  members?: readonly MemberSpec[];
  /** An organisation's observation export: its houses (and flats, for the level) join the listings as a source of their own. */
  observations?: ObservationExport | null;
  /** The collected homes export: its houses (and flats, for the level) join the listings as sources of their own. */
  collected?: CollectedHomes | null;
  onProgress?: (done: number, total: number, step: string) => void;
}

export function trainHouses(options: TrainHouseOptions = {}): TrainedHouseVersion {
  const started = Date.now();
  const seed = options.seed ?? 42;
  const members = options.members ?? HOUSE_MEMBERS;

  const { records, observations, collected } = trainingRecords(options);
  const flats = toDataset(records.filter((r) => r.propertyType === 'apartment' && TRAINING_SOURCES.includes(r.source)));
  const data = houseDataset(records.filter((r) => r.propertyType === 'house' && r.source in HOUSE_SOURCE_GROUPS));
  // The newest period as clients would send it (forwardTestOf): the newest snapshot's houses, or the newest collected month's.
  const forwardTest = forwardTestOf(records, 'house');
  const forward = houseDataset(forwardTest.records);
  const sources = new Set(data.source).size;
  const total = 1 + crossFitSteps(members.length, sources - 1) + crossFitSteps(members.length, sources) + 1;
  let done = 0;
  const progress = (step: string) => options.onProgress?.(++done, total, step);
  progress(`ingested ${data.rows.length} house listings`);

  // Headline: houses before the newest snapshot → the newest snapshot's houses; the level from flats before it too.
  const fitsBeforeForward = fittedBeforeForwardTest(forward.rows, forwardTest.source);
  const flatsBefore = subset(flats, (i) => fitsBeforeForward(flats.rows[i]));
  const levelsBefore = flatLevels(flatsBefore);
  const before = subset(data, (i) => fitsBeforeForward(data.rows[i]));
  const headlineConfig = crossFitConfig(levelsBefore.index, levelsBefore.flatDistrictLevel, seed, members);
  const headlineFit = crossFit(before, headlineConfig, (s) => progress(`forward: ${s}`));
  const headlineIntervals = calibrateIntervals(INTERVALS, headlineFit.residuals, { scaleColumn: HOUSE_SCALE_COLUMN, index: levelsBefore.index });
  const score = (rows: Row[]) => {
    const pred = headlineFit.predict(rows);
    const allowance = Float64Array.from(rows, (r) => randomWalkAllowance(levelsBefore.index, monthsBeyondData(levelsBefore.index, r.period)));
    return evaluate({ ...forward, rows }, { consensus: pred.consensus, scale: headlineIntervals.scale(pred.scale), allowance }, headlineIntervals.calibration, headlineConfig, DISTRICT_IDS);
  };
  const headlineResult = score(forward.rows);
  const headline: EvaluationReport = {
    protocol: `Forward in time and across scrapes: fitted on the houses listed before the newest snapshot (${[...new Set(before.source)].join(', ')}), their level from the flats' market index fitted on the flats before it; tested on the ${forward.rows.length} Tashkent houses of ${forwardTest.label} as clients would send them (no price fences; the export gives one area, so they come without their plot), valued at their listing month; intervals calibrated on the fitted sources' leave-one-source-out residuals.`,
    weights: Object.fromEntries(members.map((m, j) => [m.name, headlineFit.weights[j]])),
    overall: headlineResult.overall,
    districts: districtReport(headlineResult.rows),
    bySource: headlineResult.bySource,
    segments: metricsBy(headlineResult.rows, segmentOf),
  };

  // Every house: leave one source out, and the served model.
  const levels = flatLevels(flats);
  const config = crossFitConfig(levels.index, levels.flatDistrictLevel, seed, members);
  const all = crossFit(data, config, (s) => progress(`leave-one-source-out: ${s}`));
  const served = calibrateIntervals(INTERVALS, all.residuals, { scaleColumn: HOUSE_SCALE_COLUMN, index: levels.index });
  const { report: loso, heldOut } = leaveOneSourceOut(all, config, served, {
    ...SOURCE_VIEW,
    districts: DISTRICT_IDS,
    protocol: 'Leave one source out: each source\'s houses predicted by a model fitted on the other sources\' houses, their level from the flats\' market index; intervals calibrated on the other sources\' residuals. "Without plot" rows are each house again with its plot removed.',
  });
  const withPlot = subset(before, (i) => before.rows[i].landAreaSotka !== null);
  const plotViews = [
    { name: 'forward test (as sent: no plot)', overall: headlineResult.overall },
    { name: 'leave one source out, with the plot', overall: loso.segments?.['with plot'] ?? loso.overall },
    ...(loso.coreFieldsOnly ? [{ name: 'leave one source out, the same houses without the plot', overall: loso.coreFieldsOnly.overall }] : []),
  ];

  const featureImportance = permutationImportance(headlineFit, withPlot, headlineConfig.features);
  progress('feature importance');
  const market = houseMarket(data, levels.index);
  const districtAccuracy: Record<string, AccuracyClass> = Object.fromEntries(DISTRICT_IDS.map((id) => [id, loso.districts[id]?.accuracyClass ?? 'low']));
  const landShares = landSharesOf(all, data);
  const heldOutWidths = widthRange(heldOut);
  // House manifests record the chosen power (scale.pooling), not every candidate's coverage.
  const { selection: _, ...intervals } = served.manifest;
  return {
    manifest: {
      kind: 'house',
      generatedBy: 'npm run train -- --kind house (tools/models/house/train-cli.ts)',
      dataSnapshot: dataSnapshot(),
      training: {
        rows: data.rows.length, bySource: countBy(data.source), byDistrict: countBy(data.rows.map((r) => r.district)), seconds: (Date.now() - started) / 1000, maskedCopyWeight: WITHOUT_PLOT_WEIGHT,
        ...(observations && { observations }),
        ...(collected && { collected }),
      },
      target: 'log_price_per_m2',
      features: { names: [...HOUSE_FEATURE_NAMES], encoding: all.encoding as HouseEncoding },
      onnx: { file: HOUSE_ONNX_FILE, input: 'features', output: 'prediction', columns: [...members.map((m) => m.name), HOUSE_SCALE_COLUMN] },
      members: members.map((spec, j) => ({ name: spec.name, algorithm: spec.algorithm, weight: all.weights[j], hyperparameters: spec.hyperparameters })),
      intervals,
      marketIndex: levels.index,
      market,
      marketLevelledTo: levels.index.newestPeriod,
      minListings: MIN_HOUSE_LISTINGS,
      evaluation: { headline, leaveOneSourceOut: loso, withoutPlot: plotViews, landShare: landShares, featureImportance },
      districtAccuracy,
      confidence: {
        widths: DEFAULT_CONFIDENCE_WIDTHS,
        protocol: `the flat rule's absolute width ends, so that a level means the same for a house as for a flat; the house model's own leave-one-source-out widths run ${heldOutWidths.full}–${heldOutWidths.none} of the estimate (10th–90th percentile), so a house is seldom above low`,
      },
    },
    fitted: members.map((spec, j) => ({ spec, model: all.models[j] })),
    scaleModel: all.scaleModel,
    headlinePredictions: headlineResult.rows,
  };
}

/** The 10th and 90th percentiles of the relative interval widths of held-out valuations. */
function widthRange(rows: readonly { predicted: number; low: number; high: number }[]): { full: number; none: number } {
  const widths = rows.map((r) => (r.high - r.low) / r.predicted);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return { full: r2(quantile(widths, 0.1)), none: r2(quantile(widths, 0.9)) };
}

/**
 * The land share the served model gives each training house with a plot: its elasticity to the
 * plot (as serving computes it, models/house/runtime.ts), over the houses it was fitted on.
 */
function landSharesOf(fit: CrossFit<Row>, data: Dataset<Row>): HouseManifest['evaluation']['landShare'] {
  const step = LAND_STEP;
  const rows = data.rows.filter((r) => r.landAreaSotka !== null);
  const up = fit.predict(rows.map((r) => ({ ...r, landAreaSotka: r.landAreaSotka! * step }))).consensus;
  const down = fit.predict(rows.map((r) => ({ ...r, landAreaSotka: r.landAreaSotka! / step }))).consensus;
  const shares = rows.map((_, i) => landShareOf(up[i], down[i]));
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    median: r3(median(shares)), p10: r3(quantile(shares, 0.1)), p90: r3(quantile(shares, 0.9)),
    method: `the ensemble's elasticity to the plot area (the log change of the estimate between the plot ×${step} and ÷${step}, over the log change of the plot; for price = land + building this is the land's share), over the ${rows.length} training houses with a plot`,
  };
}

/**
 * The flats' district reference figures (models/residential/market.ts) over the houses, plus the
 * median price per sotka of plot, every price first brought to the index's newest month (the houses
 * span 2023–2026).
 */
function houseMarket(data: Dataset<Row>, index: MarketIndex): Record<string, HouseDistrictMarket> {
  const levelled = data.rows.map((r, i) => data.priceUsd[i] * Math.exp(-logLevelAt(index, r.district, null, r.period)));
  const reference = marketReference(data.rows.map((r, i) => ({ district: r.district, mahallaId: null, area: r.area, totalFloors: r.totalFloors, priceUsd: levelled[i] }))).district;
  return Object.fromEntries(DISTRICT_IDS.filter((id) => reference[id]).map((id) => {
    const perSotka = data.rows.flatMap((r, i) => (r.district === id && r.landAreaSotka !== null ? [levelled[i] / r.landAreaSotka] : []));
    const typical = typicalHouse(data.rows.filter((r) => r.district === id));
    return [id, { ...reference[id], medianPricePerSotka: perSotka.length >= MIN_SOTKA_MEDIAN_ROWS ? Math.round(median(perSotka) / 10) * 10 : null, ...(typical && { typical }) }];
  }));
}

function houseDataset(records: readonly ListingRecord[]): Dataset<Row> {
  const source = records.map((r) => HOUSE_SOURCE_GROUPS[r.source]);
  return {
    rows: records.map((r, i) => ({
      district: r.district as DistrictId, area: r.area, landAreaSotka: r.landAreaSotka, rooms: r.rooms, totalFloors: r.totalFloors,
      renovation: r.renovation, buildingType: r.buildingType,
      gas: r.amenities?.gas ?? null, water: r.amenities?.water_supply ?? null, sewerage: r.amenities?.sewerage ?? null,
      period: r.period, source: source[i],
    })),
    y: Float64Array.from(records, (r) => Math.log(r.priceUsd / r.area)),
    priceUsd: Float64Array.from(records, (r) => r.priceUsd),
    source,
  };
}

