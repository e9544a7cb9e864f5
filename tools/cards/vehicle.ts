/**
 * The vehicle model card a bank's credit committee reads before it lends against cars:
 * docs/VEHICLE_MODEL_CARD.md and its figures (docs/vehicle-model-card/<name>.svg), generated from
 * one version's manifest.json and evaluation.json and, for the market section, from the listings
 * themselves as training cleaned them (`ingestVehicles()`): every number about the market is
 * computed there, none is typed in.
 *
 * What a valuation past the newest data gets (the drift allowance, the market level, the bases) is
 * computed with the runtime's own functions (models/intervals, market-index.ts), so the card
 * says what the service does.
 *
 * Deterministic: the same artifact and data files give byte-identical output (no clock is read;
 * the only date is the manifest's trainedAt, the card's reference date; the bootstrap is seeded).
 * The formatting, the rules quoted word for word and the figure rendering are the residential
 * card's (./card-kit.ts).
 */
import { badgeFamily, MAKES } from '../../models/vehicle/vocabulary';
import { productionYearEntries, productionYears } from '../../models/vehicle/vocabulary/production-years';
import {
  ingestVehicles, OBSERVATION_SOURCE, VEHICLE_CORRECTIONS, VEHICLE_DROP_REASONS, VEHICLE_SOURCE_FILES, type VehicleIngestResult,
  type VehicleObservationReport, type VehicleRecord,
} from '../../models/vehicle/ingest';
import { vehicleGroup, VEHICLE_FEATURE_GROUPS, VEHICLE_MONOTONIC_CONSTRAINTS } from '../../models/vehicle/features';
import { readManifest, versionDir, VEHICLE_DIR, type VehicleEvaluationReport, type VehicleManifest } from '../../models/vehicle/manifest';
import { monthsPastIndex, vehicleLevelAt, VEHICLE_SEGMENTS, type VehicleSegment } from '../../models/vehicle/market-index';
import { VEHICLE_OUT_OF_DISTRIBUTION_FLAGS } from '../../models/vehicle/runtime';
import type { TrainedVehicleVersion } from '../../models/vehicle/train';
import { CONFIDENCE_WIDTH_PERCENTILES, MASKED_COPY_WEIGHT } from '../../models/vehicle/training-rules';
import { CONFIDENCE_LEVELS, STALE_DATA_MONTHS, type AccuracyClass, type ConfidenceLevel } from '../../models/ensemble/confidence';
import { combinedHalfWidth, linearAllowance, MIN_LEVEL_ROWS } from '../../models/intervals';
import { periodIndex } from '../../models/ensemble/encoding';
import { median, quantile, wilsonBounds, type AccuracyMetrics } from '../../models/ensemble/metrics';
import { groupBy } from '../../models/ingest/outliers';
import { regulatoryNotes } from './regulatory-notes';
import { Random } from '../../models/trainers/random';
import {
  accuracyClassRule, artifactLabel, BASE, cmp, CONFIDENCE_RULE, coverageBounds, coverageCheckTable, COVERAGE_VERDICTS, coverageLayers, coveragePoint,
  coverageVerdict, DASH, direction, directionBy, directionTable, DOCS_DIR, errorBarsSpec, errorsRiseAsConfidenceFalls, featureGroupLines, figureLinker, fixed, fsdVerdict, glossary, identityLines,
  importanceSpec, int, list, logFrame, METRIC_HEADER, METRIC_HEADER_WITH_BOUNDS, metricCells, MIN_CLASS_ROWS, PALETTE, pct, readEvaluationFile, renderCard,
  signedPct, table, writeCardFiles, type RenderedCard, type Spec,
} from './card-kit';

export interface VehicleModelCardOptions {
  /** The vehicle artifacts folder holding <version>/manifest.json. @default VEHICLE_DIR */
  artifactsRoot?: string;
  /** Where VEHICLE_MODEL_CARD.md and vehicle-model-card/ are written. @default <project>/docs */
  docsDir?: string;
  /** The cleaned listings the market section is computed from. @default ingestVehicles() of the sources the version was trained on */
  ingest?: VehicleIngestResult;
}

/** evaluation.json: the headline held-out predictions, row by row. */
export interface VehicleEvaluationFile {
  protocol: string;
  rows: TrainedVehicleVersion['headlinePredictions'];
}
type HeldOutRow = VehicleEvaluationFile['rows'][number];

export const VEHICLE_FIGURE_TITLES = {
  'predicted-vs-actual': 'Predicted vs actual price (headline)',
  'error-by-group': 'Error by make and model',
  'interval-coverage': '90% interval coverage by make and model',
  depreciation: 'Depreciation: asking price by age',
  'market-index': 'Market index: asking-price level by segment of makes',
  'feature-importance': 'Feature importance',
} as const;
export type VehicleFigureName = keyof typeof VEHICLE_FIGURE_TITLES;

/** The rule of `accuracyClass` in models/ensemble/metrics.ts, in words, for a make/model group. */
export const VEHICLE_ACCURACY_CLASS_RULE = accuracyClassRule('A make/model group');

/**
 * Facts of training and serving that neither the manifest records nor the code exports, quoted here
 * (a test reads them back from models/vehicle/train.ts and runtime.ts, so they cannot drift apart).
 */
export const VEHICLE_CODE_FACTS = {
  /** The weight of each listing's copy without its model (models/vehicle/training-rules.ts). */
  maskedCopyWeight: MASKED_COPY_WEIGHT,
  /** STALE_DATA_MONTHS (models/ensemble/confidence.ts): older market data than this flags the valuation and caps its confidence at medium. */
  staleMonths: STALE_DATA_MONTHS,
  /** The ends of the confidence rule's width term: these percentiles of the oldest forward split's in-period widths (models/vehicle/training-rules.ts). */
  confidenceWidthPercentiles: CONFIDENCE_WIDTH_PERCENTILES,
  /** runtime.ts UNUSUAL_MILEAGE: kilometres per year of age. */
  unusualKmPerYear: 60_000,
} as const;

/**
 * What issue 16 reported of the version before (a user's report, not a measurement these data
 * hold): the reason the drift allowance was made linear in the months rather than √months.
 */
export const ISSUE_16_REPORT = 'estimates made in spring 2026 ran 34% high';

const CARD_FILE = 'VEHICLE_MODEL_CARD.md';
const FIGURE_DIR = 'vehicle-model-card';
const figureLink = figureLinker<VehicleFigureName>(FIGURE_DIR, VEHICLE_FIGURE_TITLES);

// ───────────────────────────── entry points ─────────────────────────────

export function readVehicleEvaluation(version: string, root = VEHICLE_DIR): VehicleEvaluationFile | null {
  return readEvaluationFile<VehicleEvaluationFile>(versionDir(version, root));
}

/** The card of one version: its markdown and its figures (SVG text). Reads, never writes. */
export async function renderVehicleModelCard(version: string, options: VehicleModelCardOptions = {}): Promise<RenderedCard> {
  const root = options.artifactsRoot ?? VEHICLE_DIR;
  const manifest = readManifest(version, root);
  // A listing file added to ingestion after training is not this version's market.
  const ingest = options.ingest ?? ingestVehicles({ sources: manifest.training.ingest.sources.map((s) => s.source) });
  const ctx = context(manifest, readVehicleEvaluation(version, root), artifactLabel(versionDir(version, root), version), ingest);
  return renderCard((figures) => markdown(ctx, figures as VehicleFigureName[]), figureSpecs(ctx));
}

/** Writes docs/VEHICLE_MODEL_CARD.md and docs/vehicle-model-card/<name>.svg; returns the paths written. */
export async function writeVehicleModelCard(version: string, options: VehicleModelCardOptions = {}): Promise<{ markdown: string; figures: string[] }> {
  const card = await renderVehicleModelCard(version, options);
  return writeCardFiles(card, options.docsDir ?? DOCS_DIR, CARD_FILE, FIGURE_DIR, Object.keys(VEHICLE_FIGURE_TITLES));
}

// ───────────────────────────── the market, from the listings ─────────────────────────────


/** A line of the market tables: one or more make/model groups (vehicleGroup) valued as one car. */
export interface MarketSeries {
  name: string;
  groups: readonly string[];
}

/**
 * The big cars of the domestic (UzAuto, badge family Chevrolet) market. The Gentra is the Lacetti
 * renamed (the 2022 file calls every one a Lacetti) and sellers use Malibu and Malibu 2 for the
 * same new car, so each pair is one line.
 */
export const DOMESTIC_SERIES: readonly MarketSeries[] = [
  { name: 'Cobalt', groups: ['Chevrolet Cobalt'] },
  { name: 'Spark', groups: ['Chevrolet Spark'] },
  { name: 'Nexia 3', groups: ['Chevrolet Nexia 3'] },
  { name: 'Gentra/Lacetti', groups: ['Chevrolet Gentra', 'Chevrolet Lacetti'] },
  { name: 'Damas', groups: ['Chevrolet Damas'] },
  { name: 'Malibu', groups: ['Chevrolet Malibu', 'Chevrolet Malibu 2'] },
];
/** Every make outside the domestic badge family, each model its own car (fitted with its own level). */
export const OTHER_MAKES = 'other makes';
const DOMESTIC_FAMILY = badgeFamily('Chevrolet');

/** Ages (scrape year − model year) of the depreciation fit: age 0 holds new cars at the dealer's price, see NewCarPrices. */
export const FIT_AGES = { from: 1, to: 10 } as const;
/** Ages the tables and the figure show. */
const SHOWN_AGES = Array.from({ length: FIT_AGES.to + 1 }, (_, a) => a);
/** A median of fewer listings is not shown. */
export const MIN_CELL = 5;
/** A model year is compared across the scrapes only with at least this many listings in each. */
export const MIN_PAIR = 10;
/** The dealer's price: the most common exact asking price of new cars, if listings within ±1% of it are at least 20% of them. */
const DEALER_BAND = 0.01;
const DEALER_SHARE = 0.2;
const BOOTSTRAP_RESAMPLES = 1000;
const BOOTSTRAP_SEED = 42;

export interface ScrapeFacts {
  source: string;
  period: string;
  listings: number;
  makes: number;
  /** The make of every listing, where there is one. */
  soleMake: string | null;
  /** Share of listings of the domestic badge family (Chevrolet, Daewoo, Ravon). */
  domesticShare: number;
  /** Per feature group (as the importance report names them): the share of listings that state it. */
  known: Record<string, number>;
}

export interface AgeCell {
  age: number;
  n: number;
  /** Median asking price (USD) of the line's listings of this age; null for other makes, a mix of models. */
  medianUsd: number | null;
  /** Median of price ÷ the fitted price of its model at age 0; null without a fit. */
  relative: number | null;
}

export interface DepreciationFit {
  series: string;
  source: string;
  period: string;
  /** Listings and models (with two ages or more) in the fit. */
  listings: number;
  models: number;
  /** Slope of log price on age, within model: the log-linear fit. */
  slope: number;
  /** 1 − exp(slope): the share of its price a car loses each year of age. */
  annualRate: number;
  /** 95% bounds of annualRate, bootstrap over model-and-model-year cells (listings of a cell move together). */
  bounds: { low: number; high: number } | null;
  ages: AgeCell[];
}

export interface YearChange {
  series: string;
  /** The two consecutive scrapes compared (sources). */
  from: string;
  to: string;
  year: number;
  before: { median: number; n: number };
  after: { median: number; n: number };
  change: number;
}

export interface NewCarPrices {
  series: string;
  source: string;
  period: string;
  /** Listings of the current model year (age 0). */
  newListings: number;
  /** The repeated asking price of new cars, read as the dealer's list price; null where no price dominates. */
  dealer: { price: number; listings: number } | null;
  /** New cars listed at another price (resold, often with the wait bought out). */
  resale: { median: number; n: number } | null;
  oneYearOld: { median: number; n: number } | null;
}

export interface VehicleMarketFindings {
  scrapes: ScrapeFacts[];
  fits: DepreciationFit[];
  changes: YearChange[];
  newCars: NewCarPrices[];
}

/** Where a record's field says the feature group is stated (make, model, year and period always are). */
const KNOWN: Record<string, (r: VehicleRecord) => boolean> = {
  mileage: (r) => r.mileageKm !== null,
  engine: (r) => r.engineLitres !== null,
  fuel: (r) => r.fuel !== null,
  transmission: (r) => r.transmission !== null,
  body: (r) => r.body !== null,
  drive: (r) => r.drive !== null,
  'trim level': (r) => r.trim !== null,
  condition: (r) => r.defects !== null,
  region: (r) => r.region !== null,
};

interface Listing {
  series: string;
  /** The fit's model: the line for a domestic series, the make/model group for other makes. */
  model: string;
  year: number;
  age: number;
  price: number;
  logPrice: number;
}

function seriesOf(r: VehicleRecord): { series: string; model: string } | null {
  const group = vehicleGroup(r);
  const domestic = DOMESTIC_SERIES.find((s) => s.groups.includes(group));
  if (domestic) return { series: domestic.name, model: domestic.name };
  return badgeFamily(r.make) === DOMESTIC_FAMILY ? null : { series: OTHER_MAKES, model: group };
}

function scrapeYear(period: string): number {
  return Number(period.slice(0, 4));
}

function listingsOf(records: readonly VehicleRecord[], source: string): Listing[] {
  const out: Listing[] = [];
  for (const r of records) {
    if (r.source !== source) continue;
    const s = seriesOf(r);
    if (s) out.push({ ...s, year: r.year, age: scrapeYear(r.period) - r.year, price: r.priceUsd, logPrice: Math.log(r.priceUsd) });
  }
  return out;
}

/** The within-model least-squares slope of log price on age (each model its own level); NaN without spread in age. */
function withinModelSlope(rows: readonly Listing[]): number {
  let sxy = 0;
  let sxx = 0;
  for (const ofModel of groupBy(rows, (r) => r.model).values()) {
    const meanAge = ofModel.reduce((s, r) => s + r.age, 0) / ofModel.length;
    const meanLog = ofModel.reduce((s, r) => s + r.logPrice, 0) / ofModel.length;
    for (const r of ofModel) {
      sxy += (r.age - meanAge) * (r.logPrice - meanLog);
      sxx += (r.age - meanAge) ** 2;
    }
  }
  return sxx > 0 ? sxy / sxx : NaN;
}

/**
 * 95% bounds of the annual rate by a bootstrap over model-and-model-year cells. All listings of a
 * cell share one age, so a resample's within-model slope needs only each cell's count and sum of
 * log prices: sxy = Σ a·Σy − (Σ n·a)(Σ y)/N and sxx = Σ n·a² − (Σ n·a)²/N per model.
 */
function bootstrapBounds(rows: readonly Listing[]): { low: number; high: number } | null {
  const cells = [...groupBy(rows, (r) => `${r.model}\u0000${r.year}`).values()].map((c) => ({ model: c[0].model, age: c[0].age, n: c.length, sumY: c.reduce((t, r) => t + r.logPrice, 0) }));
  if (cells.length < 3) return null;
  const random = new Random(BOOTSTRAP_SEED);
  const rates: number[] = [];
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    const sums = new Map<string, { n: number; a: number; y: number; aa: number; ay: number }>();
    for (let k = 0; k < cells.length; k++) {
      const c = cells[random.int(cells.length)];
      const m = sums.get(c.model) ?? { n: 0, a: 0, y: 0, aa: 0, ay: 0 };
      m.n += c.n;
      m.a += c.n * c.age;
      m.y += c.sumY;
      m.aa += c.n * c.age * c.age;
      m.ay += c.age * c.sumY;
      sums.set(c.model, m);
    }
    let sxy = 0;
    let sxx = 0;
    for (const m of sums.values()) {
      sxy += m.ay - (m.a * m.y) / m.n;
      sxx += m.aa - (m.a * m.a) / m.n;
    }
    // A resample of one age per model says nothing about the slope (sxx 0 up to rounding).
    if (sxx > 1e-9) rates.push(1 - Math.exp(sxy / sxx));
  }
  return { low: quantile(rates, 0.025), high: quantile(rates, 0.975) };
}

function fitSeries(series: string, listings: readonly Listing[], source: string, period: string): DepreciationFit | null {
  const inWindow = listings.filter((r) => r.age >= FIT_AGES.from && r.age <= FIT_AGES.to);
  // Only models seen at two ages or more say anything about depreciation.
  const models = [...groupBy(inWindow, (r) => r.model)].filter(([, rows]) => new Set(rows.map((r) => r.age)).size > 1);
  const fitted = models.flatMap(([, rows]) => rows);
  const slope = withinModelSlope(fitted);
  if (!Number.isFinite(slope)) return null;
  const level = new Map(models.map(([model, rows]) => [model, rows.reduce((s, r) => s + r.logPrice - slope * r.age, 0) / rows.length]));
  const ages = SHOWN_AGES.map((age): AgeCell => {
    const ofAge = listings.filter((r) => r.age === age);
    const relative = ofAge.filter((r) => level.has(r.model)).map((r) => r.price / Math.exp(level.get(r.model)!));
    return {
      age,
      n: ofAge.length,
      medianUsd: series === OTHER_MAKES || ofAge.length < MIN_CELL ? null : median(ofAge.map((r) => r.price)),
      relative: relative.length >= MIN_CELL ? median(relative) : null,
    };
  });
  return { series, source, period, listings: fitted.length, models: models.length, slope, annualRate: 1 - Math.exp(slope), bounds: bootstrapBounds(fitted), ages };
}

function medianOf(rows: readonly Listing[]): { median: number; n: number } | null {
  return rows.length >= MIN_CELL ? { median: median(rows.map((r) => r.price)), n: rows.length } : null;
}

function newCarPrices(series: string, listings: readonly Listing[], source: string, period: string): NewCarPrices | null {
  const fresh = listings.filter((r) => r.age === 0);
  if (fresh.length < MIN_CELL) return null;
  const counts = new Map<number, number>();
  for (const r of fresh) counts.set(r.price, (counts.get(r.price) ?? 0) + 1);
  const [mode] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  const atDealer = (r: Listing) => Math.abs(r.price / mode - 1) <= DEALER_BAND;
  const dealerListings = fresh.filter(atDealer).length;
  const dealer = dealerListings >= MIN_CELL && dealerListings >= DEALER_SHARE * fresh.length ? { price: mode, listings: dealerListings } : null;
  return {
    series, source, period, newListings: fresh.length, dealer,
    resale: dealer ? medianOf(fresh.filter((r) => !atDealer(r))) : null,
    oneYearOld: medianOf(listings.filter((r) => r.age === 1)),
  };
}

/** What the listings say about the market: depreciation by age, the move between consecutive scrapes, new-car prices. */
export function vehicleMarketFindings(records: readonly VehicleRecord[]): VehicleMarketFindings {
  const present = new Set(records.map((r) => r.source));
  const sources = VEHICLE_SOURCE_FILES.filter((f) => present.has(f.source)).sort((a, b) => cmp(a.period, b.period));
  const scrapes: ScrapeFacts[] = sources.map(({ source, period }) => {
    const rows = records.filter((r) => r.source === source);
    const makes = new Set(rows.map((r) => r.make));
    return {
      source, period, listings: rows.length,
      makes: makes.size,
      soleMake: makes.size === 1 ? [...makes][0] : null,
      domesticShare: rows.filter((r) => badgeFamily(r.make) === DOMESTIC_FAMILY).length / rows.length,
      known: Object.fromEntries(Object.entries(KNOWN).map(([feature, isKnown]) => [feature, rows.filter(isKnown).length / rows.length])),
    };
  });
  const fits: DepreciationFit[] = [];
  const newCars: NewCarPrices[] = [];
  const bySource = new Map(sources.map(({ source, period }) => [source, { period, bySeries: groupBy(listingsOf(records, source), (r) => r.series) }]));
  for (const [source, { period, bySeries }] of bySource) {
    for (const series of [...DOMESTIC_SERIES.map((s) => s.name), OTHER_MAKES]) {
      const listings = bySeries.get(series) ?? [];
      const fit = fitSeries(series, listings, source, period);
      if (fit) fits.push(fit);
      const prices = series === OTHER_MAKES ? null : newCarPrices(series, listings, source, period);
      if (prices) newCars.push(prices);
    }
  }
  // The same model and model year in consecutive scrapes: the steps the market index and the forward splits measure too.
  const changes: YearChange[] = [];
  for (let k = 1; k < sources.length; k++) {
    const first = bySource.get(sources[k - 1].source)!;
    const last = bySource.get(sources[k].source)!;
    for (const { name } of DOMESTIC_SERIES) {
      const before = groupBy(first.bySeries.get(name) ?? [], (r) => String(r.year));
      const after = groupBy(last.bySeries.get(name) ?? [], (r) => String(r.year));
      for (const [year, rows] of [...before].sort((a, b) => cmp(a[0], b[0]))) {
        const later = after.get(year) ?? [];
        if (Number(year) > scrapeYear(first.period) || rows.length < MIN_PAIR || later.length < MIN_PAIR) continue;
        const b = median(rows.map((r) => r.price));
        const a = median(later.map((r) => r.price));
        changes.push({ series: name, from: sources[k - 1].source, to: sources[k].source, year: Number(year), before: { median: b, n: rows.length }, after: { median: a, n: later.length }, change: a / b - 1 });
      }
    }
  }
  return { scrapes, fits, changes, newCars };
}

// ───────────────────────────── what the card is computed from ─────────────────────────────

// ───────────────────────────── what the card is computed from ─────────────────────────────

type GroupMetrics = VehicleEvaluationReport['groups'][string];
type ForwardReport = VehicleManifest['evaluation']['forward'][number];

interface Context {
  m: VehicleManifest;
  rows: HeldOutRow[] | null;
  artifact: string;
  /** Every forward split, oldest first; the headline is the newest. */
  forward: ForwardReport[];
  headline: ForwardReport;
  /** The forward split before the headline, where there is one. */
  older: ForwardReport | null;
  kfold: VehicleEvaluationReport;
  market: VehicleMarketFindings;
  /** Set when the listings the market section read are not the manifest's snapshot. */
  snapshotNote: string | null;
  sourcePeriod: Record<string, string>;
  /** The card's reference date ('YYYY-MM-DD'): the manifest's trainedAt, so the card reads no clock. */
  referenceDate: string;
  /** Months from the newest market data to the reference date, as the runtime counts them (monthsPastIndex). */
  dataAgeMonths: number;
}

function context(m: VehicleManifest, evaluation: VehicleEvaluationFile | null, artifact: string, ingest: VehicleIngestResult): Context {
  const sourcePeriod: Record<string, string> = {};
  for (const s of m.training.ingest.sources) sourcePeriod[s.source] = s.period;
  const sameFiles = (a: VehicleManifest['dataSnapshot'], b: VehicleManifest['dataSnapshot']) => a.files.length === b.files.length && a.files.every((f, i) => f.sha256 === b.files[i].sha256);
  const forward = m.evaluation.forward;
  if (!forward.length) throw new Error(`vehicle model ${m.version} has no forward split: its card has no headline`);
  const referenceDate = m.trainedAt.slice(0, 10);
  return {
    m, rows: evaluation?.rows ?? null, artifact,
    forward, headline: forward[forward.length - 1], older: forward.length > 1 ? forward[forward.length - 2] : null,
    kfold: m.evaluation.kfold,
    market: vehicleMarketFindings(ingest.records),
    snapshotNote: sameFiles(ingest.report.snapshot, m.dataSnapshot) ? null : `The market section was computed from the listing files as they are now (snapshot \`${ingest.report.snapshot.id}\`), which differ from this version's snapshot \`${m.dataSnapshot.id}\`.`,
    sourcePeriod,
    referenceDate,
    dataAgeMonths: monthsPastIndex(m.marketIndex, referenceDate.slice(0, 7)),
  };
}

/** The accuracy class the service gives a group (manifest groupAccuracy), low where it has none. */
function serviceClass(ctx: Context, group: string): AccuracyClass {
  return ctx.m.groupAccuracy[group] ?? 'low';
}

/** The forward split a group's class comes from: the oldest with MIN_CLASS_ROWS held-out listings of it (train.ts), or null (low). */
function classSplit(ctx: Context, group: string): ForwardReport | null {
  return ctx.forward.find((f) => (f.groups[group]?.n ?? 0) >= MIN_CLASS_ROWS) ?? null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'YYYY-MM' → 'June 2022'. */
function monthName(period: string): string {
  return `${MONTHS[Number(period.slice(5, 7)) - 1]} ${period.slice(0, 4)}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function article(word: string): string {
  return /^[AEIOU]/i.test(word) ? 'an' : 'a';
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

function numberWord(n: number): string {
  return NUMBER_WORDS[n] ?? int(n);
}

function sourceLabel(ctx: Context, source: string): string {
  const observed = ctx.m.observations?.periods;
  if (source === OBSERVATION_SOURCE && observed) return `${source} (${monthName(observed.first)} to ${monthName(observed.last)})`;
  const period = ctx.sourcePeriod[source];
  return period ? `${source} (${monthName(period)})` : source;
}

/** A forward split by the years of its newest training snapshot and its test snapshot: '2022→2023'. */
function splitName(f: ForwardReport): string {
  return `${f.drift.newestTrained.slice(0, 4)}→${f.drift.test.slice(0, 4)}`;
}

/** The snapshots a forward split was fitted on, by month: 'November 2020 and June 2022'. */
function fittedOn(ctx: Context, f: ForwardReport): string {
  return list(Object.values(ctx.sourcePeriod).filter((p) => p < f.drift.test).sort().map(monthName));
}

/** The other forward splits of `f`, by name. */
function otherSplits(ctx: Context, f: ForwardReport): string {
  return list(ctx.forward.filter((x) => x !== f).map(splitName));
}

/**
 * Whether a split's served scoring is out of sample: the served rates are another split's, so
 * scoring it with the other splits' rates alone gives the same coverage and width.
 */
function servedOutOfSample(f: ForwardReport): boolean {
  return f.outOfSample !== null && f.outOfSample.intervalCoverage === f.overall.intervalCoverage && f.outOfSample.medianIntervalWidth === f.overall.medianIntervalWidth;
}

/** Training listings of a make/model group in the snapshots before `test` (the ones a forward split was fitted on). */
function listingsBefore(ctx: Context, group: string, test: string): number {
  return ctx.m.training.ingest.recordsByModel
    .filter((x) => vehicleGroup(x) === group)
    .reduce((t, x) => t + Object.entries(x.bySource).reduce((u, [s, n]) => u + ((ctx.sourcePeriod[s] ?? test) < test ? n ?? 0 : 0), 0), 0);
}

/** Groups of a report with at least `min` listings, most listings first. */
function groupsBySize(report: VehicleEvaluationReport, min: number): string[] {
  return Object.keys(report.groups).filter((g) => report.groups[g].n >= min).sort((a, b) => report.groups[b].n - report.groups[a].n || cmp(a, b));
}

function fitOf(ctx: Context, series: string, source: string): DepreciationFit | undefined {
  return ctx.market.fits.find((f) => f.series === series && f.source === source);
}

function firstScrape(ctx: Context): ScrapeFacts {
  return ctx.market.scrapes[0];
}

function lastScrape(ctx: Context): ScrapeFacts {
  return ctx.market.scrapes[ctx.market.scrapes.length - 1];
}

function rate(f: DepreciationFit | undefined): string {
  return f ? pct(f.annualRate) : DASH;
}

function rateWithBounds(f: DepreciationFit | undefined): string {
  return f ? `${pct(f.annualRate)}${f.bounds ? ` (${pct(f.bounds.low)}–${pct(f.bounds.high)})` : ''}` : DASH;
}

function groups(n: number): string {
  return `${int(n)} make/model group${n === 1 ? '' : 's'}`;
}

/** How the make/model groups of the training data are valued (runtime.ts basisOf), with their listings. */
interface BasisCoverage {
  groups: number;
  listings: number;
  /** Valued on their own listings: minListings or more; thin: fewer than thinListings of those. */
  own: number;
  thin: number;
  solid: number;
  listingsSolid: number;
  /** Fewer than minListings: valued on the make's level (its badge family has minMakeListings) or on the segment's. */
  onMake: number;
  onSegment: number;
  /** Badge families with fewer than minMakeListings listings, and the catalogue's makes with none. */
  thinMakes: number;
  unlistedMakes: number;
}

function basisCoverage(m: VehicleManifest): BasisCoverage {
  const familyOf = new Map<string, string>();
  for (const row of m.market.catalog) for (const x of row.models) familyOf.set(vehicleGroup({ make: row.make, model: x.model }), badgeFamily(row.make));
  const entries = Object.entries(m.market.group);
  const solid = entries.filter(([, g]) => g.listings >= m.thinListings);
  const below = entries.filter(([, g]) => g.listings < m.minListings);
  const makeStands = (group: string) => (m.market.make[familyOf.get(group) ?? ''] ?? 0) >= m.bases.minMakeListings;
  const listed = new Set(m.market.catalog.map((row) => row.make));
  return {
    groups: entries.length,
    listings: entries.reduce((s, [, g]) => s + g.listings, 0),
    own: entries.length - below.length,
    thin: entries.filter(([, g]) => g.listings >= m.minListings && g.listings < m.thinListings).length,
    solid: solid.length,
    listingsSolid: solid.reduce((s, [, g]) => s + g.listings, 0),
    onMake: below.filter(([group]) => makeStands(group)).length,
    onSegment: below.filter(([group]) => !makeStands(group)).length,
    thinMakes: Object.values(m.market.make).filter((n) => n < m.bases.minMakeListings).length,
    unlistedMakes: MAKES.filter((x) => !listed.has(x.name)).length,
  };
}

// ───────────────────────────── past the newest data: what the runtime does ─────────────────────────────


/** The allowance per month a confidence level gets (linearAllowance: its own where measured, else the overall one). */
function perMonthOf(m: VehicleManifest, level: ConfidenceLevel): { perMonth: number; own: boolean; rows: number | null } {
  const own = m.drift.byLevel[level];
  return own ? { perMonth: own.perMonth, own: true, rows: own.rows } : { perMonth: m.drift.perMonth, own: false, rows: null };
}

/** The log half-width of a typical in-period interval: the k-fold median width, width = 2·sinh(half-width). */
function typicalHalfWidth(ctx: Context): number {
  return Math.asinh(ctx.kfold.overall.medianIntervalWidth / 2);
}

/** A valuation `months` past the newest data at `level`, with a calibrated half-width `calibrated`: as runtime.ts assesses it. */
function pastTheData(m: VehicleManifest, months: number, level: ConfidenceLevel, calibrated: number): { allowance: number; halfWidth: number; widening: number } {
  const allowance = linearAllowance(m.drift, months, level);
  const halfWidth = combinedHalfWidth(calibrated, allowance);
  return { allowance, halfWidth, widening: allowance > 0 ? Math.round((Math.sinh(halfWidth) / Math.sinh(calibrated) - 1) * 1000) / 1000 : 0 };
}

/** 'estimate ÷ 1.99 to × 1.99' for a log half-width. */
function multiple(halfWidth: number): string {
  return `÷${fixed(Math.exp(halfWidth), 2)} to ×${fixed(Math.exp(halfWidth), 2)}`;
}

/** A number with its sign, the minus a true minus: +0.146, −0.030. */
function signedFixed(x: number, digits: number): string {
  return x > 0 ? `+${fixed(x, digits)}` : x < 0 ? `−${fixed(-x, digits)}` : fixed(x, digits);
}

/** A market index step as a percentage change of the level. */
function stepPct(logChange: number): string {
  return signedPct(Math.exp(logChange) - 1);
}

/** The served move per year of an index step, as the `vehicleMarketIndex` query gives it (runtime.ts marketIndex). */
function movePerYear(step: { from: string; to: string; change: number }): number {
  return Math.round(((step.change * 12) / Math.max(1, periodIndex(step.to) - periodIndex(step.from))) * 1000) / 1000;
}

/** Per forward split, the allowance per √month that would have covered it as the linear rate did (the same quantile, rescaled). */
function perRootMonth(f: ForwardReport): number {
  return f.drift.perMonth * Math.sqrt(f.drift.months);
}

// ───────────────────────────── markdown ─────────────────────────────

function markdown(ctx: Context, figures: readonly VehicleFigureName[]): string {
  const sections = [header(ctx), summary(ctx), today(ctx), rules(ctx), data(ctx), market(ctx, figures), marketIndexSection(ctx, figures), method(ctx), evaluation(ctx, figures), regulatory(ctx), glossary(glossaryLines(ctx))].filter(Boolean);
  return `${sections.join('\n\n')}\n`;
}

/** The regulatory notes (./regulatory-notes.ts) on the headline rows, by make/model group; none without evaluation.json. */
function regulatory(ctx: Context): string {
  const { rows } = ctx;
  if (!rows?.length) return '';
  return regulatoryNotes({
    groupName: 'make/model group', rows, groupOf: (r) => r.group,
    forwardView: `the ${int(rows.length)} listings of ${monthName(ctx.headline.drift.test)}, valued by a fit on the snapshots before it, ${ctx.headline.drift.months} months earlier`,
    newestData: monthName(ctx.m.marketIndex.newestPeriod), dataAgeMonths: ctx.dataAgeMonths, trainingRows: ctx.m.training.rows,
  }).join('\n');
}

function glossaryLines(ctx: Context): string[] {
  const scrapes = ctx.market.scrapes;
  const year = scrapes.length ? scrapeYear(scrapes[0].period) - 1 : null;
  return [
    '- **coverage 95% bounds**: the Wilson 95% confidence bounds of the measured coverage: on a few hundred listings the share moves by several points by chance alone.',
    `- **age**: the scrape year minus the model year${year !== null ? ` (${article(String(year))} ${year} car is ${list(scrapes.map((s) => `${scrapeYear(s.period) - year} in ${monthName(s.period)}`))})` : ''}.`,
    '- **annual depreciation**: 1 − exp(slope) of a least-squares line of log asking price on age, each model with its own level: the share of its price a car loses per year of age.',
    '- **forward split**: a model fitted only on the snapshots before one and tested on that one, months later, as a bank uses it: the newest split is the headline.',
    '- **drift allowance**: how much the interval widens per month between the newest market data and the valuation date (log half-width per month, added in quadrature to the in-period one).',
    '- **in sample / out of sample**: a number measured on the same rows that set the rule it tests (in sample, flattering) or on rows that played no part in it (out of sample).',
    '- **matched cell**: one make, model and model year with listings in two consecutive snapshots: the market index compares like with like.',
    '- **basis**: what an estimate stands on: the make and model\'s own listings (`model`), the make\'s level (`make`) or the market segment\'s (`segment`).',
  ];
}

function header(ctx: Context): string {
  const { m } = ctx;
  const c = basisCoverage(m);
  const weights = m.members.map((x) => `\`${x.name}\` ${fixed(x.weight, 2)}`).join(', ');
  const zero = m.members.filter((x) => x.weight === 0).map((x) => `\`${x.name}\``);
  const splits = ctx.forward.map((f) => `${f === ctx.headline ? '**' : ''}${splitName(f)}${f === ctx.headline ? ' (headline)**' : ''}: fitted on ${fittedOn(ctx, f)}, tested on the ${int(f.overall.n)} listings of ${monthName(f.drift.test)}, ${f.drift.months} months later`);
  return [
    `# Model card: used-vehicle valuation, vehicle model ${m.version}`,
    '',
    `Generated from \`${ctx.artifact}/manifest.json\`${ctx.rows ? ' and `evaluation.json`' : ''}, and for the market section from the cleaned listings, by \`node dist/models/vehicle/model-card-cli.js ${m.version}\`. Do not edit by hand: retraining regenerates it.`,
    '',
    table(
      ['', ''],
      [
        ['Model version', `\`${m.version}\``],
        ['Trained at', m.trainedAt],
        ['Data snapshot', `\`${m.dataSnapshot.id}\`: ${m.dataSnapshot.files.map((f) => `\`${f.path}\` (${int(f.rows)} rows)`).join(', ')}`],
        ['Training rows', `${int(m.training.rows)} listings (${Object.entries(m.training.bySource).map(([s, n]) => `${int(n)} from ${sourceLabel(ctx, s)}`).join(', ')})`],
        ...(m.observations ? [['Observations', observationsCell(m.observations)]] : []),
        ['Evaluation: forward in time', `${splits.join('; ')}`],
        ['Newest market data', `${monthName(m.marketIndex.newestPeriod)}: ${ctx.dataAgeMonths} months before the training date (${ctx.referenceDate}, the card's reference date)`],
        ['Target', 'log of the asking price (USD); the estimate is exp(prediction)'],
        ['Ensemble members and weights', `${weights} (learned out of fold; ${m.members.length} members${zero.length ? `; ${list(zero)} carries no weight` : ''})`],
        ['Interval', `${pct(m.intervals.coverage, 0)} prediction interval: normalised split conformal within the data, widened past the newest data by the drift allowance (linear in the months, per confidence level)`],
        ['Valued on its own listings (basis `model`)', `make and model with \`minListings\` = ${m.minListings} training listings or more (${groups(c.own)} of ${int(c.groups)}); flagged THIN_MODEL_DATA below \`thinListings\` = ${m.thinListings} (${groups(c.thin)})`],
        ['Valued on the make\'s level (basis `make`)', `fewer listings, or a model the catalogue does not list, of a make with \`minMakeListings\` = ${m.bases.minMakeListings} listings or more: flagged MODEL_NOT_IN_MARKET_DATA (${groups(c.onMake)} of the data)`],
        ['Valued on the segment\'s level (basis `segment`)', `a make with fewer than ${m.bases.minMakeListings} listings (${int(c.thinMakes)} makes of the data, ${int(c.unlistedMakes)} catalogue makes with none), given a body type: flagged MAKE_NOT_IN_MARKET_DATA (${groups(c.onSegment)} of the data)`],
        ['No valuation (INSUFFICIENT_MARKET_DATA, HTTP 422)', 'such a make without a body type: there is no segment to stand on'],
        ['Produced by', m.generatedBy],
      ],
      [false, false],
    ),
    '',
    'Data snapshot files (SHA-256 recorded in the manifest):',
    '',
    table(['file', 'rows', 'SHA-256'], m.dataSnapshot.files.map((f) => [`\`${f.path}\``, int(f.rows), `\`${f.sha256}\``]), [false, true, false]),
  ].join('\n');
}

/** The observation export a version was trained on (`--with-observations`): what was kept, and where it enters. */
function observationsCell(o: VehicleObservationReport): string {
  const types = Object.entries(o.byPriceType).filter(([, n]) => n.lines > 0).map(([type, n]) => `${type} ${int(n.kept)} of ${int(n.lines)}`);
  const dropped = Object.entries(o.dropped).map(([reason, n]) => `${int(n)} \`${reason}\``);
  return [
    `the organisation's export \`${o.file}\` (SHA-256 \`${o.sha256}\`): ${int(o.kept)} of ${int(o.lines)} vehicle lines kept`,
    o.periods ? `, observed ${monthName(o.periods.first)} to ${monthName(o.periods.last)}` : '',
    types.length ? `; by price type (kept of lines) ${types.join(', ')}` : '',
    `; dropped ${dropped.length ? dropped.join(', ') : 'none'} (reasons in models/vehicle/ingest/observations.ts).`,
    ' Each is dated by the month observed: a forward split fits on it only when that month is before its test month, and never tests on it; the served model and the market index take it as any dated row.',
  ].join('');
}

function domesticRange(ctx: Context, source: string): { low: DepreciationFit; high: DepreciationFit } | null {
  const fits = DOMESTIC_SERIES.map((s) => fitOf(ctx, s.name, source)).filter((f): f is DepreciationFit => f !== undefined).sort((a, b) => a.annualRate - b.annualRate);
  return fits.length ? { low: fits[0], high: fits[fits.length - 1] } : null;
}

/** Per pair of consecutive scrapes: the median change of the same domestic model and model year. */
interface PairChange {
  from: ScrapeFacts;
  to: ScrapeFacts;
  months: number;
  changes: YearChange[];
  median: number;
}

function pairChanges(ctx: Context): PairChange[] {
  const scrapes = ctx.market.scrapes;
  return scrapes.slice(1).flatMap((to, k) => {
    const from = scrapes[k];
    const changes = ctx.market.changes.filter((c) => c.from === from.source && c.to === to.source);
    return changes.length ? [{ from, to, months: periodIndex(to.period) - periodIndex(from.period), changes, median: median(changes.map((c) => c.change)) }] : [];
  });
}

/** The domestic segment's index steps (the market-wide step where the other segments took it). */
function domesticSteps(ctx: Context) {
  return ctx.m.marketIndex.segments.domestic.steps;
}

function summary(ctx: Context): string {
  const { m, headline: hf, older } = ctx;
  const h = hf.overall;
  const dir = ctx.rows?.length ? direction(ctx.rows) : null;
  const ownRate = hf.drift.perMonth >= m.drift.perMonth;
  const outOfSample = [...ctx.forward].reverse().filter((f) => f.outOfSample);
  const faster = older && older.drift.perMonth > 0 ? hf.drift.perMonth / older.drift.perMonth : null;
  const today = CONFIDENCE_LEVELS.map((level) => linearAllowance(m.drift, ctx.dataAgeMonths, level));
  const s = [
    'This model estimates the asking price, in US dollars, of a used car in Uzbekistan from its make and model, model year, mileage, engine, fuel, gearbox, body, drive, trim, condition and region,',
    'and gives with every estimate a range meant to contain the price 9 times out of 10 and a confidence level (high, medium or low).',
    `It is tested forward in time, as a bank uses it: fitted only on the listings of ${fittedOn(ctx, hf)} and tested on the ${int(h.n)} listings of ${monthName(hf.drift.test)}, ${hf.drift.months} months later, half of its estimates were within ${pct(h.medianApe)} of the asking price, ${pct(h.ppe10, 0)} within 10% and ${pct(h.ppe20, 0)} within 20% (MAPE ${pct(h.mape)}, R² ${fixed(h.r2)}).`,
    `Its ${pct(m.intervals.coverage, 0)} range held ${pct(h.intervalCoverage)} of those prices, but **that coverage is partly in sample**: past the newest data the range widens by a drift allowance per month, and the service uses the largest allowance any forward split needed${ownRate ? `, which is this split's own (${pct(m.drift.perMonth, 2)} a month)` : ` (${pct(m.drift.perMonth, 2)} a month; this split needed ${pct(hf.drift.perMonth, 2)})`}.`,
    outOfSample.length ? `Strictly out of sample, each split scored with the other split's allowance alone, the range held ${list(outOfSample.map((f) => `${pct(f.outOfSample!.intervalCoverage)} on ${splitName(f)} (with ${pct(f.outOfSample!.allowancePerMonth, 2)} a month)`))}${faster !== null && faster > 1 ? `: the market moved ${fixed(faster, 1)} times faster in ${splitName(hf).replace('→', '–')} than in ${splitName(older!).replace('→', '–')} (in allowance needed per month), and nothing says the next period will not move faster still` : ''}.` : '',
    dir ? `On the headline test the estimates ran ${dir.medianSigned < 0 ? 'below' : 'above'} the asking price (median ${signedPct(dir.medianSigned)}, ${pct(dir.above, 0)} above): ${dir.medianSigned < 0 ? 'a model that has not seen a rising market under-values, the safe direction for collateral; in a falling market the same lag over-values' : 'for collateral this is the risky direction'}.` : '',
    marketSentence(ctx),
    ctx.dataAgeMonths > VEHICLE_CODE_FACTS.staleMonths
      ? `**The newest listings are from ${monthName(m.marketIndex.newestPeriod)}, ${ctx.dataAgeMonths} months before the training date**: a valuation now is at the ${monthName(m.marketIndex.newestPeriod)} price level, is flagged MARKET_DATA_OLDER_THAN_12_MONTHS, and its range is widened for ${ctx.dataAgeMonths} months of drift, on its own by a factor of ${fixed(Math.exp(Math.min(...today)), 2)} to ${fixed(Math.exp(Math.max(...today)), 2)} each way depending on the trained tier, which raises its FSD (the stated confidence), and its drivers say why; see the next section.`
      : `The newest listings are from ${monthName(m.marketIndex.newestPeriod)}, ${ctx.dataAgeMonths} months before the training date; see the next section for what the months since do to a valuation.`,
    'The model values asking prices, not transaction prices: use the estimate, its range and its confidence together, and send low-confidence or flagged valuations to a valuer.',
  ];
  return ['## Summary for the credit committee', '', s.filter(Boolean).join(' ')].join('\n');
}

/** The market in one sentence for the summary: slow depreciation, rising prices, the waiting-list premium. */
function marketSentence(ctx: Context): string {
  const first = firstScrape(ctx);
  const last = lastScrape(ctx);
  const others = first ? fitOf(ctx, OTHER_MAKES, first.source) : undefined;
  if (!first || !others) return '';
  const domestic = DOMESTIC_SERIES.map((x) => fitOf(ctx, x.name, first.source)).filter((f): f is DepreciationFit => f !== undefined);
  const slower = domestic.filter((f) => f.annualRate < others.annualRate).sort((a, b) => a.annualRate - b.annualRate);
  const faster = domestic.filter((f) => f.annualRate >= others.annualRate);
  const pairs = pairChanges(ctx);
  const cobalt = ctx.market.newCars.find((x) => x.series === DOMESTIC_SERIES[0].name && x.source === last.source && x.dealer && x.oneYearOld);
  const parts = [
    slower.length ? `in ${monthName(first.period)} ${list(slower.map((f) => f.series))} lost ${pct(slower[0].annualRate)}–${pct(slower[slower.length - 1].annualRate)} of their asking price per year of age against ${pct(others.annualRate)} for other makes${faster.length ? ` (${list(faster.map((f) => `${f.series} ${pct(f.annualRate)}`))})` : ''}` : '',
    pairs.length ? `the same domestic model and model year asked a median ${list(pairs.map((p) => `${signedPct(p.median)} from ${monthName(p.from.period)} to ${monthName(p.to.period)} (${p.months} months)`))}` : '',
    cobalt && cobalt.oneYearOld!.median > cobalt.dealer!.price ? `in ${monthName(last.period)} a one-year-old ${cobalt.series} asked ${signedPct(cobalt.oneYearOld!.median / cobalt.dealer!.price - 1)} over a new one at the dealer's price` : '',
  ].filter(Boolean);
  return parts.length ? `The market: ${parts.join('; ')}; see "The market".` : '';
}

function today(ctx: Context): string {
  const { m } = ctx;
  const index = m.marketIndex;
  const newest = monthName(index.newestPeriod);
  const months = ctx.dataAgeMonths;
  const calibrated = typicalHalfWidth(ctx);
  const last = domesticSteps(ctx)[domesticSteps(ctx).length - 1];
  const rows = CONFIDENCE_LEVELS.map((level) => {
    const rate = perMonthOf(m, level);
    const past = pastTheData(m, months, level, calibrated);
    return [
      level, `${pct(rate.perMonth, 2)}${rate.own ? '' : ' (overall)'}`, rate.rows === null ? DASH : int(rate.rows), String(months), fixed(past.allowance, 3), multiple(past.allowance),
      fixed(past.halfWidth, 3), multiple(past.halfWidth), signedPct(past.widening, 0),
    ];
  });
  // The example reply: the level most headline listings get.
  const common = [...m.evaluation.byConfidence].sort((a, b) => b.n - a.n || CONFIDENCE_LEVELS.indexOf(a.level) - CONFIDENCE_LEVELS.indexOf(b.level))[0]?.level ?? 'medium';
  const example = pastTheData(m, months, common, calibrated);
  const domesticMake = index.segments.domestic.makes[0] ?? 'Chevrolet';
  const marketLevel = {
    valuation_date: ctx.referenceDate,
    newest_data_period: index.newestPeriod,
    data_age_months: months,
    index_ratio: Math.round(Math.exp(vehicleLevelAt(index, domesticMake, ctx.referenceDate.slice(0, 7))) * 1000) / 1000,
    interval_widening: example.widening,
  };
  const root = ctx.forward.map(perRootMonth);
  const rootServed = Math.max(...root);
  const linearTotal = ctx.forward.map((f) => f.drift.perMonth * f.drift.months);
  return [
    '## What this means for a bank today',
    '',
    `The card's reference date is the training date, ${ctx.referenceDate} (the card reads no clock): a valuation made then is ${months} months past the newest market data, one made later more so.`,
    '',
    `- **The market data are ${months} months old.** The newest listings the model learned from are of ${newest}. Every valuation made more than ${VEHICLE_CODE_FACTS.staleMonths} months after them carries the flag MARKET_DATA_OLDER_THAN_12_MONTHS and its range is widened for the months since, which raises its FSD and lowers its stated confidence${months > VEHICLE_CODE_FACTS.staleMonths ? ': **every valuation the service makes now carries it**' : ''}.`,
    `- **An estimate is ${article(newest)} ${newest} price level.** Within the data the market index (see "Market index") moves a valuation to its date; from ${newest} on it holds the level (index_ratio ${fixed(marketLevel.index_ratio, 3)}): no trend is extrapolated.${last ? ` Its last measured step, ${monthName(last.from)} → ${monthName(last.to)}, was ${stepPct(last.change)} for domestic cars; whatever the market did after ${newest}, up or down, is not in the estimate.` : ''}`,
    `- **The interval widens with the months instead: the drift allowance** (models/intervals/drift.ts). A log half-width of (allowance per month) × (months past the data) is added in quadrature to the in-period one, the allowance per month set by the valuation's confidence level, read before the allowance and before the cap. At ${months} months:`,
    '',
    table(
      ['confidence level (before the cap)', 'allowance per month', 'held-out rows behind it', 'months', 'allowance (log half-width)', 'on its own', `with a typical in-period interval (±${fixed(calibrated, 3)})`, 'range', 'interval_widening'],
      rows,
      [false, true, true, true, true, false, true, false, true],
    ),
    '',
    `  The typical in-period interval is the k-fold median (${pct(ctx.kfold.overall.medianIntervalWidth, 1)} of the estimate wide, a log half-width of ±${fixed(calibrated, 3)}); a narrower one widens more in relative terms. A valuation rated high before the cap keeps the high level's allowance and is reported as medium.`,
    '',
    `- **The reply says so.** For a valuation on ${ctx.referenceDate} at the ${common} level with that typical interval, \`market_level\` reads:`,
    '',
    '```json',
    JSON.stringify({ market_level: marketLevel }, null, 2),
    '```',
    '',
    `- **Linear in the months, not √months.** A level held flat while the market trends falls behind in proportion to the time, which a random walk's √months would understate; the form was chosen with the report of issue 16 in mind, that ${ISSUE_16_REPORT}: a report from use, not a measurement these data hold. The forward splits cannot tell the two forms apart: ${list(ctx.forward.map((f, k) => `the ${f.drift.months}-month gap of ${splitName(f)} needed a log half-width of ${fixed(linearTotal[k], 3)} in all`))}, so the pace of the market, not the length of the gap, set the allowance, and two gaps this close (${list(ctx.forward.map((f) => String(f.drift.months)))} months) fit either form. The choice matters this far out: measured per √month the same splits give at most ${fixed(rootServed, 4)}, which at ${months} months is a half-width of ${fixed(rootServed * Math.sqrt(months), 3)} (${multiple(rootServed * Math.sqrt(months))}) against the linear ${fixed(m.drift.perMonth * months, 3)} (${multiple(m.drift.perMonth * months)}) at the overall rate.`,
    `- **What would fix it:** listings newer than ${VEHICLE_CODE_FACTS.staleMonths} months, from any source the ingestion reads; retraining then moves the level to them, lifts the flag and measures the allowance again.`,
  ].join('\n');
}

interface FlagRule {
  flag: string;
  when: string;
  /** Counted by the confidence rule (−0.1 each): raised before the level is read, and not the data's age. */
  scored: boolean;
}

/** The flags of models/vehicle/runtime.ts and when each is raised (a test keeps the list equal to the runtime's). */
export function vehicleFlagRules(m: Pick<VehicleManifest, 'thinListings' | 'minListings' | 'bases' | 'marketIndex'>): FlagRule[] {
  return [
    { flag: 'MODEL_NOT_IN_MARKET_DATA', when: `valued on the make's level: a model the catalogue does not list, or fewer than \`minListings\` = ${m.minListings} training listings of the make and model, of a make with \`minMakeListings\` = ${m.bases.minMakeListings} or more`, scored: true },
    { flag: 'MAKE_NOT_IN_MARKET_DATA', when: `valued on the market segment's level: a make (badge family) with fewer than \`minMakeListings\` = ${m.bases.minMakeListings} training listings, and a body type given`, scored: true },
    { flag: 'THIN_MODEL_DATA', when: `valued on its own listings, fewer than \`thinListings\` = ${m.thinListings} of them`, scored: true },
    { flag: 'YEAR_OUTSIDE_MODEL_DATA', when: 'valued on its own listings, the model year more than one year outside the model years they cover', scored: true },
    { flag: 'UNUSUAL_MILEAGE', when: `more than ${int(VEHICLE_CODE_FACTS.unusualKmPerYear)} km per year of age (age at the valuation date from mid model year, at least half a year)`, scored: true },
    { flag: 'MARKET_DATA_OLDER_THAN_12_MONTHS', when: `the valuation date is more than ${VEHICLE_CODE_FACTS.staleMonths} months after the newest training listings (${monthName(m.marketIndex.newestPeriod)}): the drift allowance widens the interval, and so its FSD`, scored: false },
    { flag: 'FAR_FROM_GROUP_MEDIAN', when: 'the estimate is more than 50% above or below the median training asking price of the same make, model and model year', scored: true },
    { flag: 'MODELS_DISAGREE', when: 'the members\' estimates spread by more than 20% of the estimate', scored: true },
    { flag: 'ASKING_PRICE_BELOW_INTERVAL', when: 'the asking price the client gave is below the interval (raised after the confidence is set)', scored: false },
    { flag: 'ASKING_PRICE_ABOVE_INTERVAL', when: 'the asking price the client gave is above the interval (raised after the confidence is set)', scored: false },
  ];
}

function rules(ctx: Context): string {
  const { m } = ctx;
  const c = basisCoverage(m);
  const factor = m.intervals.outOfDistributionFactor;
  const cobalt = productionYears('Chevrolet', 'Cobalt');
  const made = productionYearEntries();
  const widthSplit = ctx.forward[0];
  const byClass = new Map<string, Record<AccuracyClass, number>>();
  for (const group of Object.keys(m.groupAccuracy).sort()) {
    const split = classSplit(ctx, group);
    const key = split ? splitName(split) : 'none (fewer than 30 held-out listings in every split)';
    const counts = byClass.get(key) ?? { high: 0, good: 0, fair: 0, low: 0 };
    counts[m.groupAccuracy[group]]++;
    byClass.set(key, counts);
  }
  const order = [...ctx.forward.map(splitName), ...[...byClass.keys()].filter((k) => !ctx.forward.some((f) => splitName(f) === k))];
  return [
    '## Honesty rules, flags and confidence',
    '',
    '### What an estimate stands on',
    '',
    `A request is valued on the most specific market data that can carry it (models/vehicle/runtime.ts), each basis with its own calibrated interval; the reply's \`basis\` says which:`,
    '',
    table(['basis', 'when', 'interval (in period)', 'flag', 'make/model groups of the data'], [
      ['`model`', `the make and model has \`minListings\` = ${m.minListings} training listings or more`, `its own: q·σ(x) per make/model group (see "Intervals")`, `none (THIN_MODEL_DATA below ${m.thinListings})`, `${int(c.own)} (${groups(c.thin)} thin)`],
      ['`make`', `fewer listings or a model the catalogue does not list, and the make (badge family) has \`minMakeListings\` = ${m.bases.minMakeListings} or more`, `plain conformal, q = ${fixed(m.bases.make.q, 3)}: estimate ${multiple(m.bases.make.q)}`, 'MODEL_NOT_IN_MARKET_DATA', int(c.onMake)],
      ['`segment`', `the make has fewer than ${m.bases.minMakeListings} listings (or none), and a body type is given: the market's level for the body, engine and year`, `plain conformal, q = ${fixed(m.bases.segment.q, 3)}: estimate ${multiple(m.bases.segment.q)}`, 'MAKE_NOT_IN_MARKET_DATA', int(c.onSegment)],
      ['none', 'such a make without a body type', 'no number: INSUFFICIENT_MARKET_DATA (HTTP 422 on REST, an error entry on GraphQL)', DASH, DASH],
    ], [false, false, false, false, true]),
    '',
    `The ${groups(c.solid)} with ${m.thinListings} listings or more hold ${pct(c.listingsSolid / c.listings)} of the training listings. A valuation not on the model's own listings gets accuracy class low, so its confidence is at most medium. The make's and the segment's q were calibrated in period on every listing predicted by a model that never saw its make and model, or its make (see "Valuations on the make's and the segment's level").`,
    '',
    `**Production years.** A model year before the model was made, or more than a year after it stopped, is refused as a typo, not collateral (HTTP 400 INVALID_PARAMETER, models/vehicle/vocabulary/production-years.ts: ${int(made.length)} models with their years${cobalt ? `; a Chevrolet Cobalt before ${cobalt.from}, for example` : ''}). A model the table does not list is checked only against the field's range.`,
    '',
    `Flags a valuation can carry (models/vehicle/runtime.ts). Flags raised before the confidence is read lower its score by 0.1 each; those marked *widens* also widen the interval ×${factor} each (at most three times):`,
    '',
    table(['flag', 'raised when', 'widens the interval', 'lowers the confidence score'], vehicleFlagRules(m).map((f) => [`\`${f.flag}\``, f.when, VEHICLE_OUT_OF_DISTRIBUTION_FLAGS.has(f.flag) ? `widens ×${factor}` : 'no', f.scored ? 'yes' : 'no']), [false, false, false, false]),
    '',
    '### Confidence rule',
    '',
    'Every valuation carries a confidence score and level (models/ensemble/confidence.ts; for vehicles the group is the make/model group):',
    '',
    '```text',
    CONFIDENCE_RULE,
    '```',
    '',
    `For vehicles the manifest sets its own width ends (\`confidenceWidths\`): W1 = ${fixed(m.confidenceWidths.full, 3)} and W0 = ${fixed(m.confidenceWidths.none, 3)}, the ${VEHICLE_CODE_FACTS.confidenceWidthPercentiles.full}th and ${VEHICLE_CODE_FACTS.confidenceWidthPercentiles.none}th percentiles of the in-period relative widths on the oldest forward split (${splitName(widthSplit)}). These ends serve the trained tier only: the score 0.5·width + 0.2·agreement + 0.3·group (minus 0.1 a flag) on the in-period width, before the drift allowance, sorts valuations into tiers (high ≥ 0.75, medium ≥ 0.5, else low; a group of low class never high), and each tier has its own drift allowance (see "What this means for a bank today"). What a client is told is the FSD of the range served, allowance included, by the rule above.`,
    '',
    '### Accuracy class of a make/model group',
    '',
    `${VEHICLE_ACCURACY_CLASS_RULE} The class the confidence rule uses (manifest \`groupAccuracy\`) is the group's forward point accuracy: its class on the oldest forward split where it has at least ${MIN_CLASS_ROWS} held-out listings (${list(ctx.forward.map(splitName))}, in that order), else low. Intervals do not enter it. Classes of the ${groups(Object.keys(m.groupAccuracy).length)}, by the split they come from:`,
    '',
    table(['class taken from', 'high', 'good', 'fair', 'low', 'groups'], order.filter((k) => byClass.has(k)).map((k) => {
      const x = byClass.get(k)!;
      return [k, int(x.high), int(x.good), int(x.fair), int(x.low), int(x.high + x.good + x.fair + x.low)];
    })),
  ].join('\n');
}

function data(ctx: Context): string {
  const { m } = ctx;
  const ingest = m.training.ingest;
  const sources = ingest.sources;
  const out: string[] = ['## Data', ''];
  if (ctx.snapshotNote) out.push(`> ${ctx.snapshotNote}`, '');
  const facts = ctx.market.scrapes;
  out.push(`### The ${numberWord(facts.length)} scrapes`, '');
  out.push(`${facts.length === 1 ? 'The file is a scrape' : `All ${numberWord(facts.length)} files are scrapes`} of avtoelon.uz, a used-car classifieds site. No listing carries its own date, so a listing is dated by its scrape. What each holds, counted on the cleaned listings:`, '');
  const features = Object.keys(KNOWN);
  out.push(table(
    ['', ...facts.map((f) => `\`${f.source}\``)],
    [
      ['scraped', ...facts.map((f) => monthName(f.period))],
      ['listings kept', ...facts.map((f) => int(f.listings))],
      ['makes', ...facts.map((f) => int(f.makes))],
      ['Chevrolet, Daewoo, Ravon (domestic)', ...facts.map((f) => pct(f.domesticShare))],
      ...features.map((feature) => [`${feature} stated`, ...facts.map((f) => pct(f.known[feature], 0))]),
    ],
    [false, ...facts.map(() => true)],
  ));
  const described = facts.map((f) => {
    const missing = features.filter((x) => f.known[x] === 0);
    return `the ${monthName(f.period)} scrape ${f.soleMake ? `holds ${f.soleMake} only` : `covers ${int(f.makes)} makes`}${missing.length ? `, without ${list(missing)}` : ''}`;
  });
  out.push('', `So ${described.join('; ')}. A feature a scrape does not state is missing for all its listings, and the models learn nothing from it there.`);

  out.push('', '### Ingestion', '');
  out.push(`Cleaning turned ${int(ingest.totals.rowsIn)} rows into ${int(ingest.totals.rowsOut)} listings; the rest were dropped for the reasons below.`, '');
  out.push(table(
    ['source', 'file', 'period', 'rows in', 'kept', 'dropped'],
    [...sources.map((s) => [s.source, `\`${s.path}\``, s.period, int(s.rowsIn), int(s.rowsOut), int(s.rowsIn - s.rowsOut)]), ['**total**', '', '', int(ingest.totals.rowsIn), int(ingest.totals.rowsOut), int(ingest.totals.rowsIn - ingest.totals.rowsOut)]],
    [false, false, false, true, true, true],
  ));
  const reasons = (Object.keys(VEHICLE_DROP_REASONS) as (keyof typeof VEHICLE_DROP_REASONS)[]).filter((r) => ingest.totals.dropped[r]);
  out.push('', 'Rows dropped, by reason and source:', '');
  out.push(table(
    ['reason', ...sources.map((s) => s.source), 'total', 'meaning'],
    reasons.map((r) => [`\`${r}\``, ...sources.map((s) => (s.dropped[r] ? int(s.dropped[r]) : '·')), int(ingest.totals.dropped[r]), VEHICLE_DROP_REASONS[r]]),
    [false, ...sources.map(() => true), true, false],
  ));
  const corrections = (Object.keys(VEHICLE_CORRECTIONS) as (keyof typeof VEHICLE_CORRECTIONS)[]).filter((c) => sources.some((s) => s.corrections[c]));
  if (corrections.length) {
    out.push('', 'Corrections in rows that were kept (a cell set to unknown is never guessed):', '');
    out.push(table(
      ['correction', ...sources.map((s) => s.source), 'meaning'],
      corrections.map((c) => [`\`${c}\``, ...sources.map((s) => (s.corrections[c] ? int(s.corrections[c]) : '·')), VEHICLE_CORRECTIONS[c]]),
      [false, ...sources.map(() => true), false],
    ));
  }
  const unresolved = sources.reduce((t, s) => t + Object.values(s.unresolvedRegions).reduce((a, b) => a + b, 0), 0);
  out.push('', `Price fences: ${int(ingest.priceFences.length)} fences per model and model year (median ± k·MAD of log price); ${int(ingest.unfencedRecords)} listings in no group large enough for a fence were kept unfenced. ${int(unresolved)} kept listings name a place no region was found for (region unknown).`);

  out.push('', '### Listings per make', '');
  const byMakeSource = new Map<string, Record<string, number>>();
  for (const x of ingest.recordsByModel) {
    const entry = byMakeSource.get(x.make) ?? {};
    for (const [s, n] of Object.entries(x.bySource)) entry[s] = (entry[s] ?? 0) + (n ?? 0);
    byMakeSource.set(x.make, entry);
  }
  const top = ingest.recordsByMake.slice(0, TOP_MAKES);
  const rest = ingest.recordsByMake.slice(TOP_MAKES);
  out.push(table(
    ['make', ...sources.map((s) => s.source), 'listings', 'share'],
    [
      ...top.map((x) => [x.make, ...sources.map((s) => int(byMakeSource.get(x.make)?.[s.source] ?? 0)), int(x.records), pct(x.records / ingest.totals.rowsOut)]),
      ...(rest.length ? [[`${rest.length} other makes`, ...sources.map((s) => int(rest.reduce((t, x) => t + (byMakeSource.get(x.make)?.[s.source] ?? 0), 0))), int(rest.reduce((t, x) => t + x.records, 0)), pct(rest.reduce((t, x) => t + x.records, 0) / ingest.totals.rowsOut)]] : []),
    ],
  ));
  out.push('', `Listings per model (top ${TOP_MAKES}):`, '');
  out.push(table(
    ['make', 'model', ...sources.map((s) => s.source), 'listings'],
    ingest.recordsByModel.slice(0, TOP_MAKES).map((x) => [x.make, x.model, ...sources.map((s) => int(x.bySource[s.source as keyof typeof x.bySource] ?? 0)), int(x.records)]),
    [false, false, ...sources.map(() => true), true],
  ));
  out.push('', `The make and model groups the model calibrates and reports by join the badge family (a Daewoo or Ravon Nexia is valued with its Chevrolet namesake): ${int(Object.keys(m.market.group).length)} groups.`);
  return out.join('\n');
}

const TOP_MAKES = 15;

function market(ctx: Context, figures: readonly VehicleFigureName[]): string {
  const out: string[] = ['## The market', ''];
  const facts = ctx.market.scrapes;
  if (!facts.length) return [...out, 'No listings were available to describe the market.'].join('\n');
  const first = firstScrape(ctx);
  const series = [...DOMESTIC_SERIES.map((s) => s.name), OTHER_MAKES];
  out.push(`The issue behind this card says the market has low depreciation and strong demand for domestic Chevrolets, and asks to let the data show it. Every number below is computed from the cleaned listings (${list(facts.map((f) => `${int(f.listings)} of ${monthName(f.period)}`))}). The lines are the big domestic models, ${list(DOMESTIC_SERIES.map((s) => (s.groups.length > 1 ? `${s.name} (${list(s.groups)}, one car)` : s.name)))}, and, where a scrape has them, all other makes, each of their models with its own price level. Asking prices, in US dollars.`);

  out.push('', '### Depreciation by age', '');
  out.push(`Annual depreciation from a least-squares fit of log asking price on age (scrape year − model year) within one scrape, ages ${FIT_AGES.from}–${FIT_AGES.to}, each model with its own level; age 0 is left out because new cars are often listed at the dealer's price, not a market one (below). In brackets: 95% bounds from ${BOOTSTRAP_RESAMPLES} bootstrap resamples of model-and-model-year cells.`, '');
  const fiveYears = (f: DepreciationFit | undefined) => (f ? pct(Math.exp(5 * f.slope), 0) : DASH);
  out.push(table(
    ['line', ...facts.flatMap((f) => [`${monthName(f.period)}: per year`, 'listings (models)']), `value kept after 5 years (${monthName(first.period)})`],
    series.map((s) => [s, ...facts.flatMap((f) => {
      const fit = fitOf(ctx, s, f.source);
      return [rateWithBounds(fit), fit ? `${int(fit.listings)}${fit.models > 1 ? ` (${fit.models})` : ''}` : DASH];
    }), fiveYears(fitOf(ctx, s, first.source))]),
    [false, ...facts.flatMap(() => [true, true]), true],
  ));
  out.push('', depreciationFinding(ctx));

  out.push('', `Asking price relative to a new car of the same model, by age, ${monthName(first.period)} (100% = the fit's price at age 0; a median of fewer than ${MIN_CELL} listings is left out, ·):`, '');
  const firstFits = series.map((s) => fitOf(ctx, s, first.source)).filter((f): f is DepreciationFit => f !== undefined);
  out.push(table(['line', ...SHOWN_AGES.map(String)], firstFits.map((f) => [f.series, ...f.ages.map((a) => (a.relative === null ? '·' : pct(a.relative, 0)))])));
  out.push('', 'Median asking price (USD) by age:', '');
  const usdRows = DOMESTIC_SERIES.flatMap((s) => facts.map((f) => fitOf(ctx, s.name, f.source)).filter((f): f is DepreciationFit => f !== undefined).map((f) => [s.name, monthName(f.period), ...f.ages.map((a) => (a.medianUsd === null ? '·' : int(a.medianUsd)))]));
  out.push(table(['line', 'scrape', ...SHOWN_AGES.map(String)], usdRows, [false, false, ...SHOWN_AGES.map(() => true)]));
  out.push('', figureLink(figures, 'depreciation', `Median asking price relative to a new car of the same model (the fit's level at age 0), by age, per scrape; medians of ${MIN_CELL} listings or more.`));

  for (const pair of pairChanges(ctx)) out.push('', ...priceChange(ctx, pair));
  if (ctx.market.newCars.some((x) => x.dealer)) out.push('', ...waitingList(ctx));
  out.push('', '### What it means for collateral', '');
  out.push(collateralReading(ctx));
  return out.join('\n');
}

function depreciationFinding(ctx: Context): string {
  const first = firstScrape(ctx);
  const range = domesticRange(ctx, first.source);
  const others = fitOf(ctx, OTHER_MAKES, first.source);
  if (!range) return '';
  const cobalt = fitOf(ctx, DOMESTIC_SERIES[0].name, first.source);
  const slower = others ? DOMESTIC_SERIES.map((s) => fitOf(ctx, s.name, first.source)).filter((f): f is DepreciationFit => !!f && f.annualRate < others.annualRate) : [];
  const clear = others?.bounds ? slower.filter((f) => f.bounds && f.bounds.high < others.bounds!.low) : [];
  const s = [`In ${monthName(first.period)} the big domestic models lost ${pct(range.low.annualRate)} (${range.low.series}) to ${pct(range.high.annualRate)} (${range.high.series}) of their asking price per year of age${cobalt ? `; a ${cobalt.series} ${pct(cobalt.annualRate)} a year, so after five years it still asks ${pct(Math.exp(5 * cobalt.slope), 0)} of a new one's price` : ''}.`];
  if (others) {
    s.push(`Other makes lost ${rateWithBounds(others)} a year (${int(others.listings)} listings of ${others.models} models).`);
    s.push(slower.length
      ? `${list(slower.map((f) => f.series))} depreciated more slowly than other makes${clear.length === slower.length ? ', and none of their 95% bounds overlaps that of other makes' : clear.length ? `; the 95% bounds do not overlap for ${list(clear.map((f) => f.series))}` : ', though the bounds overlap: the other makes are few and varied'}.`
      : 'No domestic line depreciated more slowly than other makes.');
    const faster = DOMESTIC_SERIES.map((x) => fitOf(ctx, x.name, first.source)).filter((f): f is DepreciationFit => !!f && f.annualRate >= others.annualRate);
    if (faster.length) s.push(`${list(faster.map((f) => `${f.series} (${pct(f.annualRate)})`))} did not.`);
  }
  for (const later of ctx.market.scrapes.slice(1)) {
    const r = domesticRange(ctx, later.source);
    const o = fitOf(ctx, OTHER_MAKES, later.source);
    if (r) s.push(`In ${monthName(later.period)} the range was ${pct(r.low.annualRate)} (${r.low.series}) to ${pct(r.high.annualRate)} (${r.high.series})${o ? `, other makes ${pct(o.annualRate)}` : ' (domestic cars only)'}.`);
  }
  return s.join(' ');
}

/** The share of the big domestic models' new listings at a dealer's price in the latest scrape, for the figure. */
function dealerNote(ctx: Context): string {
  const last = lastScrape(ctx);
  const fresh = ctx.market.newCars.filter((x) => x.source === last.source);
  const atDealer = fresh.reduce((t, x) => t + (x.dealer?.listings ?? 0), 0);
  const all = fresh.reduce((t, x) => t + x.newListings, 0);
  return atDealer ? ` Age 0 in ${monthName(last.period)}: ${pct(atDealer / all, 0)} of new listings at the dealer's price.` : '';
}

function priceChange(ctx: Context, pair: PairChange): string[] {
  const { changes } = pair;
  const years = [...new Set(changes.map((c) => c.year))].sort((a, b) => b - a);
  const names = DOMESTIC_SERIES.map((s) => s.name).filter((n) => changes.some((c) => c.series === n));
  const cell = (series: string, year: number) => changes.find((c) => c.series === series && c.year === year);
  const perSeries = names.map((n) => ({ name: n, change: median(changes.filter((c) => c.series === n).map((c) => c.change)) }));
  // The example the text quotes: the Cobalt model year with the most listings in both scrapes.
  const example = [...changes.filter((c) => c.series === DOMESTIC_SERIES[0].name)].sort((a, b) => Math.min(b.before.n, b.after.n) - Math.min(a.before.n, a.after.n) || b.year - a.year)[0];
  const up = changes.filter((c) => c.change > 0).length;
  const step = domesticSteps(ctx).find((s) => s.from === pair.from.period && s.to === pair.to.period);
  return [
    `### ${monthName(pair.from.period)} → ${monthName(pair.to.period)}: the same car asked ${pair.median >= 0 ? 'more' : 'less'}`, '',
    `Median asking price of the same model and model year in the two scrapes (${MIN_PAIR} listings or more in each). The car is ${pair.months} months older in the second scrape, so a change is net of that depreciation.`, '',
    table(['model year', ...names], [
      ...years.map((y) => [String(y), ...names.map((n) => {
        const c = cell(n, y);
        return c ? signedPct(c.change) : '·';
      })]),
      ['**median**', ...perSeries.map((p) => `**${signedPct(p.change)}**`)],
    ]),
    '',
    `${up} of ${changes.length} model years asked more in ${monthName(pair.to.period)}; the median change was ${signedPct(pair.median)}.${example ? ` For example a ${example.year} ${example.series}: ${int(example.before.median)} USD in ${monthName(pair.from.period)} (${example.before.n} listings), ${int(example.after.median)} USD in ${monthName(pair.to.period)} (${example.after.n} listings), ${signedPct(example.change)}.` : ''}${step ? ` The domestic market index, over every matched model and model year, moved ${stepPct(step.change)} over the same step (see "Market index").` : ''}`,
  ];
}

function waitingList(ctx: Context): string[] {
  const rows = ctx.market.newCars.filter((x) => x.dealer);
  const without = ctx.market.newCars.filter((x) => !x.dealer);
  const latest = lastScrape(ctx).source;
  const premium = (x: NewCarPrices) => x.oneYearOld!.median / x.dealer!.price - 1;
  const cobalt = rows.find((x) => x.series === DOMESTIC_SERIES[0].name && x.source === latest && x.oneYearOld);
  const dearer = rows.filter((x) => x !== cobalt && x.oneYearOld && premium(x) > 0).sort((a, b) => premium(b) - premium(a));
  const cheaper = rows.filter((x) => x.oneYearOld && premium(x) <= 0);
  return [
    '### New at the dealer, dearer used: the waiting-list premium', '',
    `New cars (age 0) are often listed at one repeated price, to the dollar: we read the most common exact asking price of a model's new listings as the dealer's list price where listings within ±${pct(DEALER_BAND, 0)} of it are at least ${pct(DEALER_SHARE, 0)} of them. The other new listings are other trims' list prices and cars resold without the wait.`, '',
    table(
      ['line', 'scrape', 'new listings', "dealer's price (USD)", 'listings at it', 'other new listings: median', 'one year old: median', 'one year old vs dealer'],
      rows.map((x) => [
        x.series, monthName(x.period), int(x.newListings), int(x.dealer!.price), `${int(x.dealer!.listings)} (${pct(x.dealer!.listings / x.newListings, 0)})`,
        x.resale ? `${int(x.resale.median)} (${int(x.resale.n)})` : DASH, x.oneYearOld ? `${int(x.oneYearOld.median)} (${int(x.oneYearOld.n)})` : DASH,
        x.oneYearOld ? signedPct(x.oneYearOld.median / x.dealer!.price - 1) : DASH,
      ]),
      [false, false, true, true, true, true, true, true],
    ),
    '',
    [
      cobalt && premium(cobalt) > 0 ? `A new ${cobalt.series} at the dealer's price (${int(cobalt.dealer!.price)} USD in ${monthName(cobalt.period)}) sits below a one-year-old used one (median ${int(cobalt.oneYearOld!.median)} USD, ${signedPct(premium(cobalt))}): buyers pay to skip the dealer's waiting list.` : '',
      dearer.length ? `${cobalt && premium(cobalt) > 0 ? 'The same holds for' : 'A one-year-old car asks more than a new one at the dealer\'s price for'} ${list(dearer.map((x) => `${x.series} (${monthName(x.period)}, ${signedPct(premium(x))})`))}.` : '',
      cheaper.length ? `A one-year-old car asked less than the dealer's price, as a used car normally does, for ${list(cheaper.map((x) => `${x.series} (${monthName(x.period)}, ${signedPct(premium(x))})`))}.` : '',
      without.length ? `No single price dominates the new listings of ${list(without.map((x) => `${x.series} (${monthName(x.period)})`))}.` : '',
    ].filter(Boolean).join(' '),
    '',
    `**The model flattens this premium on purpose.** It is the one exception to sane ageing the data show, and both tree members are constrained against it: all else equal, a newer model year never lowers the estimate and more kilometres never raise it (\`VEHICLE_MONOTONIC_CONSTRAINTS\`, see "Sane ageing"). So the model cannot value a one-year-old car above a new one of the same model; where the listings say otherwise it pools the two. That is intended: the premium is the price of skipping a queue for the dealer's controlled price, not value a lender can recover once supply catches up.`,
  ];
}

function collateralReading(ctx: Context): string {
  const first = firstScrape(ctx);
  const cobalt = fitOf(ctx, DOMESTIC_SERIES[0].name, first.source);
  const last = lastScrape(ctx);
  const premium = ctx.market.newCars.filter((x) => x.source === last.source && x.dealer && x.oneYearOld && x.oneYearOld.median > x.dealer.price).map((x) => x.oneYearOld!.median / x.dealer!.price - 1);
  const pairs = pairChanges(ctx);
  const latest = pairs[pairs.length - 1];
  return [
    `- **Slow depreciation helps a lender**${cobalt ? `: a ${cobalt.series} loses about ${pct(cobalt.annualRate)} of its asking price per year of age, so over a three-year loan it keeps ${pct(Math.exp(3 * cobalt.slope), 0)} of it, all else equal` : ''}.`,
    `- **It rests on scarcity.** ${premium.length ? `In ${monthName(last.period)} one-year-old cars asked ${signedPct(Math.min(...premium))} to ${signedPct(Math.max(...premium))} over the dealer's price of a new one` : 'Used cars can ask more than the dealer'}${latest ? `, and the same cars asked ${signedPct(latest.median)} more than ${latest.months} months before` : ''}. If supply catches up, a used car's price can fall towards the dealer's: for a nearly new car that gap is the size of the risk. Nothing in these scrapes shows such a fall, and nothing after ${monthName(last.period)} is in them.`,
    '- **Lend against the estimate, not the premium**: for a car bought above the dealer\'s price, the estimate and its interval, not the purchase price, are the collateral value.',
  ].join('\n');
}

function marketIndexSection(ctx: Context, figures: readonly VehicleFigureName[]): string {
  const index = ctx.m.marketIndex;
  const segments = VEHICLE_SEGMENTS.map((segment) => ({ segment, ...index.segments[segment] }));
  const rows = segments.flatMap(({ segment, points, steps }) => points.map((p) => {
    const step = steps.find((s) => s.to === p.period);
    return [
      segment, monthName(p.period), int(p.listings), fixed(Math.exp(p.logLevel), 3), `${fixed(Math.exp(p.logLevel - 1.96 * p.se), 3)}–${fixed(Math.exp(p.logLevel + 1.96 * p.se), 3)}`,
      step ? stepPct(step.change) : DASH, step ? fixed(step.se, 4) : DASH, step ? (step.cells ? int(step.cells) : '0 (market-wide step)') : DASH, step ? signedFixed(movePerYear(step), 3) : DASH,
    ];
  }));
  const makes = (segment: VehicleSegment) => {
    const x = index.segments[segment].makes;
    return x.length > 8 ? `${int(x.length)} makes` : list(x);
  };
  const out = [
    '## Market index', '',
    `**Method** (models/vehicle/market-index.ts): ${index.method}. Segments: domestic (${makes('domestic')}), russian (${makes('russian')}) and foreign (${makes('foreign')}). Training brings every listing to the newest level (${monthName(index.newestPeriod)}) by its segment's index before the members see it: old listings teach shape, the index sets the level. A valuation dated within the data is moved to its date (linear between snapshots); from ${monthName(index.newestPeriod)} on the level is held and the drift allowance widens the interval instead. Published by GraphQL \`vehicleMarketIndex(segment)\`: per snapshot the index (newest = 1) with its 95% band and listings, and per step the move per year (log change × 12 / months).`, '',
    table(['segment', 'snapshot', 'listings', 'index (newest = 1)', '95% band', 'step from the previous snapshot', 'standard error (log)', 'matched cells', 'move per year (log)'], rows, [false, false, true, true, false, true, true, true, true]),
  ];
  const notes: string[] = [];
  const domestic = index.segments.domestic.steps;
  if (domestic.length > 1) {
    const paces = domestic.map(movePerYear);
    notes.push(`The domestic level moved ${list(domestic.map((s, k) => `${stepPct(s.change)} from ${monthName(s.from)} to ${monthName(s.to)} (${signedFixed(paces[k], 3)} a year in log)`))}${paces[0] !== 0 ? `: the last step's pace was ${fixed(paces[paces.length - 1] / paces[0], 1)} times the first's` : ''}.`);
  }
  const borrowed = segments.flatMap(({ segment, steps }) => steps.filter((s) => s.cells === 0).map((s) => ({ segment, step: s })));
  for (const [key, group] of groupBy(borrowed, (b) => `${b.step.from}|${b.step.to}`)) {
    const [from, to] = key.split('|');
    const dom = domestic.find((s) => s.from === from && s.to === to);
    const same = dom && dom.cells > 0 && group.every((b) => b.step.change === dom.change);
    const scrape = ctx.market.scrapes.find((s) => s.period === to);
    notes.push(`${scrape?.soleMake ? `The ${monthName(to)} scrape holds ${scrape.soleMake} only, so` : 'In'} ${list(group.map((b) => `the ${b.segment}`))} segment${group.length > 1 ? 's' : ''} had no matched cells from ${monthName(from)} to ${monthName(to)} and took the market-wide step${same ? `, which there is the domestic cells' step (${stepPct(dom.change)}): their level since ${monthName(from)} is the domestic market's move, not their own` : ''}.`);
  }
  // A borrowed step's standard error holds the spread of the segments measured in that step; with one measured, none.
  const alone = borrowed.filter((b) => segments.filter((x) => x.steps.some((st) => st.from === b.step.from && st.to === b.step.to && st.cells > 0)).length <= 1);
  const measured = domestic.map((_, k) => segments.map((x) => x.steps[k])).filter((steps) => steps.every((x) => x && x.cells > 0));
  if (alone.length && measured.length) {
    const spread = measured[0];
    const lo = spread.reduce((a, b) => (b.change < a.change ? b : a));
    const hi = spread.reduce((a, b) => (b.change > a.change ? b : a));
    const segmentOf = (step: (typeof spread)[number]) => segments.find((x) => x.steps.includes(step))!.segment;
    const names = [...new Set(alone.map((b) => b.segment))];
    notes.push(`How far a segment can stray from the market-wide step: from ${monthName(lo.from)} to ${monthName(lo.to)}, where every segment was measured, the steps ran from ${stepPct(lo.change)} (${segmentOf(lo)}) to ${stepPct(hi.change)} (${segmentOf(hi)}). A borrowed step's standard error is widened by the spread of the segments measured in the same step; with one segment measured, market-index.ts widens it by the step's own standard error instead (×√2, to ${fixed(Math.max(...alone.map((b) => b.step.se)), 4)}), which holds none of such a spread: for ${list(names)} makes the band understates the uncertainty of the ${monthName(index.newestPeriod)} level.`);
  }
  if (notes.length) out.push('', ...notes.map((n) => `- ${n}`));
  out.push('', figureLink(figures, 'market-index', 'The index of the served version per segment of makes: the level at each snapshot relative to the newest (1), with its 95% band.'));
  return out.join('\n');
}

function method(ctx: Context): string {
  const { m } = ctx;
  const iv = m.intervals;
  const enc = m.features.encoding;
  const zero = m.members.filter((x) => x.weight === 0).map((x) => `\`${x.name}\``);
  const weightsOf = (w: Record<string, number>) => Object.entries(w).map(([n, x]) => `\`${n}\` ${fixed(x, 2)}`).join(', ');
  const served = JSON.stringify(Object.fromEntries(m.members.map((x) => [x.name, x.weight])));
  const views: [string, VehicleEvaluationReport][] = [...ctx.forward.map((f) => [`the ${splitName(f)} split`, f] as [string, VehicleEvaluationReport]), ['the unseen-model view', m.evaluation.unseenModel], ['the unseen-make view', m.evaluation.unseenMake]];
  const otherWeights = views.filter(([, r]) => JSON.stringify(r.weights) !== served);
  return [
    '## Method',
    '',
    '### Features',
    '',
    `${m.features.names.length} features, built by one module (models/vehicle/features.ts) for training and serving alike, grouped as the importance figures report them:`,
    '',
    ...featureGroupLines(m.features.names, VEHICLE_FEATURE_GROUPS),
    '',
    `Make and model enter as smoothed target encodings of log price: a model is shrunk towards its make and a make towards the whole market (pseudo-count ${enc.smoothing}), so a model with few listings barely moves the estimate. Daewoo and Ravon share the Chevrolet badge family's make level. ${int(Object.keys(enc.make).length)} makes and ${int(Object.keys(enc.model).length)} models are encoded. Trees cannot extrapolate in time: serving prices every car as of the newest period (${enc.newestPeriod}) and the market index sets the level.`,
    '',
    ...ageing(ctx),
    '',
    '### Training rows',
    '',
    `Every listing enters at its segment's ${monthName(m.marketIndex.newestPeriod)} level (see "Market index"). Every listing also enters a second time without its model, with weight ${VEHICLE_CODE_FACTS.maskedCopyWeight} (models/vehicle/train.ts): the trees learn what make, body, engine and year say when the model is one the data does not hold, which is what a valuation on the make's or the segment's level asks of them. Only the real listings calibrate the intervals.`,
    '',
    '### Ensemble',
    '',
    table(['member', 'algorithm', 'weight', 'hyperparameters'], m.members.map((x) => [`\`${x.name}\``, x.algorithm, fixed(x.weight, 2), `\`${JSON.stringify(x.hyperparameters)}\``]), [false, false, true, false]),
    '',
    `The consensus is the weighted mean of the members' log prices, weights learned on out-of-fold predictions (least squared error). The served weights come from all listings.${zero.length ? ` ${list(zero)} got weight 0: trained, exported and reported per valuation (the reply's \`models\`), but ${zero.length > 1 ? 'they do' : 'it does'} not move the estimate.` : ''}${otherWeights.length ? ` Elsewhere the learned weights differ: ${list(otherWeights.map(([name, r]) => `${weightsOf(r.weights)} in ${name}`))}.` : ''}`,
    '',
    '### Intervals (in period)',
    '',
    `Manifest: "${iv.method}".`,
    '',
    `Within the data the interval is estimate × exp(±q·σ(x)), σ(x) the error a small residual-scale model (column \`${iv.scale?.column ?? DASH}\`) expects for this listing${iv.scale?.pooling ? `, pooled toward the median one (${fixed(iv.scale.pooling.center, 3)}) with power ${iv.scale.pooling.power}` : ''}, and q the conformal quantile per make/model group with at least ${iv.minRows} calibration rows; thinner groups use the overall quantile (${fixed(iv.global, 3)}) widened ×${iv.thinDataFactor}. Each out-of-distribution flag widens q ×${iv.outOfDistributionFactor}. A valuation on the make's or the segment's level uses a plain interval, estimate × exp(±q) (see "What an estimate stands on").`,
    '',
    ...driftMethod(ctx),
  ].join('\n');
}

/** The monotonic constraints as the manifest's members carry them. */
function ageing(ctx: Context): string[] {
  const { m } = ctx;
  const names = m.features.names;
  const constraintsOf = (x: VehicleManifest['members'][number]) => (Array.isArray(x.hyperparameters.monotonicCst) ? (x.hyperparameters.monotonicCst as number[]) : null);
  const carrying = m.members.filter((x) => constraintsOf(x));
  const first = carrying[0] ? constraintsOf(carrying[0])! : null;
  const same = first !== null && carrying.every((x) => JSON.stringify(constraintsOf(x)) === JSON.stringify(first));
  const code = JSON.stringify(first) === JSON.stringify(VEHICLE_MONOTONIC_CONSTRAINTS);
  const constrained = first ? names.map((name, i) => ({ name, sign: first[i] ?? 0 })).filter((c) => c.sign !== 0) : [];
  const out = ['### Sane ageing: monotonic constraints', ''];
  if (!constrained.length) return [...out, 'No member carries monotonic constraints: nothing stops an estimate from rising with age or mileage.'];
  out.push(
    `${carrying.length === m.members.length ? (m.members.length === 2 ? 'Both tree members carry' : 'Every member carries') : `${list(carrying.map((x) => `\`${x.name}\``))} ${carrying.length > 1 ? 'carry' : 'carries'}`} ${same ? 'the same' : 'these'} monotonic constraints${code ? ' (`VEHICLE_MONOTONIC_CONSTRAINTS`, models/vehicle/features.ts)' : ''}, so their weighted consensus keeps them too: all else equal,`,
    '',
    table(['feature', 'constraint', 'meaning'], constrained.map((c) => [`\`${c.name}\``, c.sign > 0 ? '+1' : '−1', c.sign > 0 ? 'a higher value never lowers the estimate' : 'a higher value never raises the estimate']), [false, true, false]),
    '',
    `A newer model year (younger at listing) is never worth less, more kilometres never worth more. The data's one exception, measured in "The market" (the waiting-list premium: a one-year-old car asking more than a new one at the dealer's price), is flattened on purpose. There is no mileage-per-year feature: at a fixed mileage it rises with the model year, which would fight the year's constraint.`,
  );
  return out;
}

function driftMethod(ctx: Context): string[] {
  const { m } = ctx;
  const d = m.drift;
  const served = ctx.forward.find((f) => f.drift.perMonth === d.perMonth);
  return [
    '### Drift allowance (past the newest data)',
    '',
    `Manifest: "${d.protocol}" (models/intervals/forward-drift.ts). In each forward split the model's own index was fitted on its training snapshots only, so it held the level flat over the gap, as serving holds it past ${monthName(m.marketIndex.newestPeriod)}: the allowance measures what a held level and an older model miss, per month of gap.`,
    '',
    table(['forward split', 'newest snapshot trained on', 'snapshot tested', 'months', 'held-out listings', 'allowance per month this split alone needs'], ctx.forward.map((f) => [
      splitName(f), monthName(f.drift.newestTrained), monthName(f.drift.test), String(f.drift.months), int(f.drift.rows), pct(f.drift.perMonth, 2),
    ]), [false, false, false, true, true, true]),
    '',
    `The service uses the largest any split needed: **${pct(d.perMonth, 2)} a month** overall${served ? ` (the ${splitName(served)} split's)` : ''}, and per confidence level (a level with fewer than ${MIN_LEVEL_ROWS} held-out rows in a split has no rate of its own there; the largest over the splits that have one):`,
    '',
    table(['confidence level', 'allowance per month', 'held-out rows behind it (all splits)'], CONFIDENCE_LEVELS.map((level) => {
      const x = perMonthOf(m, level);
      return [level, `${pct(x.perMonth, 2)}${x.own ? '' : ' (overall: no rate of its own)'}`, x.rows === null ? DASH : int(x.rows)];
    })),
    '',
    `Because each rate is the largest any split needed, a split scored with it is scored partly in sample: its coverage is near ${pct(d.coverage, 0)} by construction where its own rate is the largest. The strictly out-of-sample check scores each split with the other split's rate alone (see "Evaluation").`,
  ];
}

function groupTable(ctx: Context, report: VehicleEvaluationReport, groups: readonly string[], withServiceClass: boolean): string {
  const rows = groups.map((g) => {
    const x: GroupMetrics = report.groups[g];
    const used = serviceClass(ctx, g);
    const from = classSplit(ctx, g);
    return [g, ...metricCells(x, true), x.accuracyClass, ...(withServiceClass ? [used === x.accuracyClass ? used : `**${used}**`, from ? splitName(from) : DASH] : [])];
  });
  rows.push(['**all groups**', ...metricCells(report.overall, true), '', ...(withServiceClass ? ['', ''] : [])]);
  return table(
    ['make and model', ...METRIC_HEADER_WITH_BOUNDS, 'accuracy class', ...(withServiceClass ? ['class used by the service', 'taken from'] : [])],
    rows,
    [false, ...METRIC_HEADER_WITH_BOUNDS.map(() => true), false, ...(withServiceClass ? [false, false] : [])],
  );
}

/** A split's overall numbers with the coverage and width of another allowance (Wilson bounds recomputed on its n). */
function rescored(overall: AccuracyMetrics, coverage: number, width: number): AccuracyMetrics {
  return { ...overall, intervalCoverage: coverage, intervalCoverageBounds95: wilsonBounds(Math.round(coverage * overall.n), overall.n), medianIntervalWidth: width };
}

/** Metric cells showing only the coverage, its bounds and the width (the other cells are the row above's). */
function coverageOnlyCells(x: AccuracyMetrics): string[] {
  return metricCells(x, true).map((c, i) => (i === 0 || i >= 7 ? c : ''));
}

function evaluation(ctx: Context, figures: readonly VehicleFigureName[]): string {
  const { m, headline: hf, older } = ctx;
  const h = hf.overall;
  const k = ctx.kfold;
  const target = m.intervals.coverage;
  const out: string[] = ['## Evaluation', ''];
  out.push(`**Headline protocol.** ${hf.protocol}`, '');
  for (const f of ctx.forward.filter((x) => x !== hf)) out.push(`**Earlier forward split.** ${f.protocol}`, '');
  out.push(`**In-period view (not a headline).** ${k.protocol}`, '');
  out.push(`**Unseen model and unseen make.** ${m.evaluation.unseenModel.protocol} ${m.evaluation.unseenMake.protocol}`, '');

  out.push('### Overall', '');
  const rows: string[][] = [];
  for (const f of [...ctx.forward].reverse()) {
    if (servedOutOfSample(f)) {
      rows.push([`${splitName(f)}${f === hf ? ' (headline)' : ''}: served allowance (${otherSplits(ctx, f)}'s rates), out of sample`, ...metricCells(f.overall, true)]);
      continue;
    }
    rows.push([`${splitName(f)}${f === hf ? ' (headline)' : ''}: served allowance, partly in sample`, ...metricCells(f.overall, true)]);
    if (f.outOfSample) rows.push([`${splitName(f)}: ${otherSplits(ctx, f)} allowance alone (${pct(f.outOfSample.allowancePerMonth, 2)} a month), out of sample`, ...coverageOnlyCells(rescored(f.overall, f.outOfSample.intervalCoverage, f.outOfSample.medianIntervalWidth))]);
  }
  rows.push(['k-fold, in period only (no allowance)', ...metricCells(k.overall, true)]);
  rows.push(['unseen model, in period (basis `make`)', ...metricCells(m.evaluation.unseenModel.overall, true)]);
  rows.push(['unseen make, in period (basis `segment`)', ...metricCells(m.evaluation.unseenMake.overall, true)]);
  out.push(table(['evaluation', ...METRIC_HEADER_WITH_BOUNDS], rows));
  const oos = hf.outOfSample;
  out.push('', [
    `On the headline split the served interval held **${pct(h.intervalCoverage)}** (95% bounds ${coverageBounds(h)})${hf.drift.perMonth >= m.drift.perMonth ? `, in sample: the served rate is this split's own` : ''}.`,
    oos ? `Scored with ${otherSplits(ctx, hf)}'s rate alone it held **${pct(oos.intervalCoverage)}** with a median width of ${pct(oos.medianIntervalWidth, 0)} of the estimate (${pct(hf.overall.medianIntervalWidth, 0)} served).` : '',
    older?.outOfSample ? `The other way round, ${splitName(older)} scored with ${splitName(hf)}'s rate held ${pct(older.outOfSample.intervalCoverage)} (${pct(older.outOfSample.medianIntervalWidth, 0)} wide): wider than it needed.` : '',
    'The served rates have not yet been tested on a period after the ones they were measured on: that test awaits the next snapshot.',
  ].filter(Boolean).join(' '));
  out.push('', figureLink(figures, 'predicted-vs-actual', `The ${int(ctx.rows?.length ?? 0)} held-out listings of the headline test, counted in cells of a log-scale grid. On the solid line the estimate is exact; between the dashed lines it is within 20% of the asking price.`));

  const tested = groupsBySize(hf, 1);
  out.push('', `### By make and model, ${splitName(hf)} (headline)`, '');
  out.push(`Median APE and coverage per model, as the issue asks, with every metric and the count behind it: fitted on ${fittedOn(ctx, hf)}, tested on ${monthName(hf.drift.test)}.`, '');
  out.push(groupTable(ctx, hf, tested, true));
  out.push('', `Groups with at least one held-out listing, most listings first. Coverage is with the served allowance, so in sample as the overall one is (no per-group out-of-sample coverage is recorded). The accuracy class is computed from the row's own numbers; the service uses the class of the oldest split where the group has ${MIN_CLASS_ROWS} held-out listings (in bold where it differs).`);
  const newModels = groupsBySize(hf, MIN_CLASS_ROWS).map((g) => ({ g, before: listingsBefore(ctx, g, hf.drift.test) })).filter((x) => x.before < m.minListings);
  if (newModels.length) {
    out.push('', `The largest errors are on models the split was fitted (almost) without: ${list(newModels.map((x) => `${x.g} (${int(x.before)} listing${x.before === 1 ? '' : 's'} before ${monthName(hf.drift.test)}, median APE ${pct(hf.groups[x.g].medianApe)})`))}. They were valued from their make and the rest of the listing alone, as a model the data does not hold is valued on the make's level.`);
  }
  const rank = (c: AccuracyClass) => ['low', 'fair', 'good', 'high'].indexOf(c);
  const inherited = groupsBySize(hf, MIN_CLASS_ROWS).filter((g) => classSplit(ctx, g) !== hf && classSplit(ctx, g) !== null);
  const higher = inherited.filter((g) => rank(serviceClass(ctx, g)) > rank(hf.groups[g].accuracyClass));
  if (higher.length) {
    out.push('', `For ${int(higher.length)} of the ${groups(inherited.length)} whose class the service takes from an older split, that class is higher than the headline's own: ${list(higher.map((g) => `${g} (${serviceClass(ctx, g)} against ${hf.groups[g].accuracyClass})`))}. For these groups the accuracy of one split did not carry over to the next.`);
  }
  out.push('', figureLink(figures, 'error-by-group', `Median absolute percentage error (bars) and MAPE (black tick) per make and model on the headline test${older ? `, with the MAPE on the ${splitName(older)} split (red diamond)` : ''}; groups with ${MIN_CLASS_ROWS} held-out listings or more.`));
  const big = groupsBySize(hf, MIN_CLASS_ROWS);
  out.push('', `**Coverage check** (headline, served allowance; groups with at least ${MIN_CLASS_ROWS} held-out listings):`, '');
  out.push(coverageCheckTable('make and model', [...big.map((g) => [g, hf.groups[g]] as const), ['**all groups**', h] as const], target));
  const under = big.filter((g) => coverageVerdict(hf.groups[g], target) === COVERAGE_VERDICTS[0]);
  const over = big.filter((g) => coverageVerdict(hf.groups[g], target) === COVERAGE_VERDICTS[2]);
  out.push('', `${under.length ? `Below the band: ${list(under.map((g) => `${g} (${pct(hf.groups[g].intervalCoverage)})`))}. ` : ''}${over.length ? `Above it: ${int(over.length)} of ${int(big.length)} groups. ` : ''}One allowance per confidence level, not per model, evens out across models only in total.`);
  out.push('', figureLink(figures, 'interval-coverage', `Share of asking prices inside the 90% interval per make and model (${MIN_CLASS_ROWS} held-out listings or more), with 95% bounds, on each forward split with the served allowance; the overall coverage with the other split's allowance alone is added. The target is 90% (dashed) and the band 88–92% (shaded).`));

  if (older) {
    const olderBig = groupsBySize(older, MIN_CLASS_ROWS);
    out.push('', `### By make and model, ${splitName(older)}`, '');
    out.push(`Fitted on ${fittedOn(ctx, older)}, tested on ${monthName(older.drift.test)}; groups with at least ${MIN_CLASS_ROWS} held-out listings (the classes the service uses come from here first).`, '');
    out.push(groupTable(ctx, older, olderBig, false));
  }

  if (ctx.rows?.length) {
    const dirs = directionBy(ctx.rows, big, (r) => r.group);
    const all = direction(ctx.rows);
    out.push('', '### Direction of errors (headline)', '');
    out.push('For collateral an estimate above the price is the risky error. Estimate against asking price on the held-out listings (from evaluation.json):', '');
    out.push(directionTable('make and model', [...[...dirs].map(([g, x]) => [g, x] as const), ['**all groups**', all] as const]));
    out.push('', all.medianSigned < 0
      ? `The estimates ran below the asking price (median ${signedPct(all.medianSigned)}, ${pct(all.above, 0)} above): the model learned prices ${hf.drift.months} months older in a rising market. Under-valuation is the safe error for collateral; the same lag in a falling market over-values.`
      : `The estimates ran above the asking price (median ${signedPct(all.medianSigned)}, ${pct(all.above, 0)} above): for collateral this is the risky direction.`);
  }

  out.push('', ...confidenceCheck(ctx));
  out.push('', ...basesSection(ctx));

  const kBig = groupsBySize(k, MIN_CLASS_ROWS);
  const kSmall = Object.keys(k.groups).filter((g) => !kBig.includes(g));
  out.push('', '### In-period view: by make and model (k-fold)', '');
  out.push(`In-period only: every listing predicted at its own snapshot's level by a model that saw its snapshot, no drift allowance. It flatters the model; the forward splits are what a bank will see.`, '');
  out.push(groupTable(ctx, k, kBig, false));
  out.push('', `Groups with at least ${MIN_CLASS_ROWS} listings. ${kSmall.length === 1 ? 'One smaller group' : `${int(kSmall.length)} smaller groups`} (${int(kSmall.reduce((t, g) => t + k.groups[g].n, 0))} listings) ${kSmall.length === 1 ? 'is' : 'are'} left out. The k-fold coverage is close to 90% by construction (its intervals were calibrated on these out-of-fold residuals).`);
  out.push('', '### By source (k-fold, in period)', '');
  out.push(table(['source', ...METRIC_HEADER], Object.entries(k.bySource).map(([s, x]) => [sourceLabel(ctx, s), ...metricCells(x)])));

  out.push('', '### Feature importance', '');
  const imp = m.evaluation.featureImportance;
  const test = ctx.market.scrapes.find((f) => f.period === hf.drift.test);
  const missing = test ? Object.keys(KNOWN).filter((f) => test.known[f] === 0) : [];
  out.push(table(['feature', 'share of importance'], imp.map((f) => [f.feature, pct(f.importance)])));
  out.push('', `Permutation importance on the headline held-out listings (the rise in mean absolute log error when a feature group is shuffled), as a share of the total.${missing.length ? ` ${capitalise(list(missing))} ${missing.length > 1 ? 'are' : 'is'} never stated in the test scrape, so ${missing.length > 1 ? 'they score' : 'it scores'} 0 there whatever ${missing.length > 1 ? 'they are' : 'it is'} worth elsewhere;` : ''} the listing period is constant within the test scrape and cannot score either.`);
  out.push('', figureLink(figures, 'feature-importance', 'Share of importance per feature group, headline test.'));
  return out.join('\n');
}

function confidenceCheck(ctx: Context): string[] {
  const { m, headline: hf } = ctx;
  const levels = m.evaluation.byConfidence;
  const total = levels.reduce((s, c) => s + c.n, 0);
  const target = m.intervals.coverage;
  const bounded = levels.map((c) => ({ ...c, bounds: wilsonBounds(Math.round(c.coverage * c.n), c.n) }));
  const verdict = (c: (typeof bounded)[number]) => coverageVerdict({ intervalCoverage: c.coverage, intervalCoverageBounds95: c.bounds } as AccuracyMetrics, target);
  const ordered = errorsRiseAsConfidenceFalls(levels);
  const holds = bounded.every((c) => verdict(c) === COVERAGE_VERDICTS[1]);
  const fromHeadline = Object.keys(hf.groups).filter((g) => classSplit(ctx, g) === hf);
  const fromHeadlineRows = fromHeadline.reduce((s, g) => s + hf.groups[g].n, 0);
  return [
    '### Is the stated confidence honest, and does it sort valuations by error?', '',
    `Headline listings grouped by the level the service states for them (manifest \`evaluation.byConfidence\`): the band of the FSD their served range implies, drift allowance included. A level is honest when about 68% of its prices fall within ±FSD; the FSD verdict reads the share's Wilson 95% bounds against 60–76%.`, '',
    table(['confidence (FSD band)', 'n', 'share', 'within ±FSD (95% bounds)', 'FSD verdict', 'median APE', 'PPE10', 'PPE20', 'coverage (90%)', 'coverage 95% bounds', 'coverage verdict'], bounded.map((c) => [
      c.level, int(c.n), pct(c.n / total, 0), c.withinFsd === undefined ? DASH : `${pct(c.withinFsd)} (${pct(c.withinFsdBounds!.low)}–${pct(c.withinFsdBounds!.high)})`, fsdVerdict(c),
      pct(c.medianApe), pct(c.ppe10, 0), pct(c.ppe20, 0), pct(c.coverage), `${pct(c.bounds.low)}–${pct(c.bounds.high)}`, verdict(c),
    ]), [false, true, true, false, false, true, true, true, true, false, false]),
    '',
    [
      ordered ? `The median error rises from ${levels.map((c) => `${pct(c.medianApe)} (${c.level})`).join(' to ')}, as it should.` : 'The median error does **not** rise steadily from high to low confidence on this test: the confidence level needs review before it is relied on.',
      holds ? `Coverage holds at every level, but in sample: each tier's allowance is the largest any split needed at that tier, this one included.` : `Coverage does not hold at every level (${list(bounded.filter((c) => verdict(c) !== COVERAGE_VERDICTS[1]).map((c) => `${c.level} ${pct(c.coverage)}`))}).`,
      fromHeadline.length ? `The classes of ${groups(fromHeadline.length)} (${int(fromHeadlineRows)} of the ${int(hf.overall.n)} listings) come from this split itself, as they have fewer than ${MIN_CLASS_ROWS} listings in an older one: for them the level is in sample too.` : '',
    ].filter(Boolean).join(' '),
  ];
}

function basesSection(ctx: Context): string[] {
  const { m } = ctx;
  const iv = m.intervals;
  const views = [
    { basis: 'make' as const, name: 'unseen-model', report: m.evaluation.unseenModel, calibration: m.bases.make },
    { basis: 'segment' as const, name: 'unseen-make', report: m.evaluation.unseenMake, calibration: m.bases.segment },
  ];
  const served = JSON.stringify(Object.fromEntries(m.members.map((x) => [x.name, x.weight])));
  const out = [
    "### Valuations on the make's and the segment's level", '',
    `A model the data does not hold is valued on its make's level; a make with too little data, on its segment's. What such a valuation can claim was measured in period, on every listing predicted by a model that never saw its make and model (unseen model) or its make (unseen make), each calibrating a plain interval estimate × exp(±q):`, '',
    table(['view', 'basis it calibrates', 'rows', 'q (log half-width)', 'served interval', 'served width', 'median APE', 'PPE20', 'R²'], views.map((v) => [
      v.name, `\`${v.basis}\``, int(v.calibration.rows), fixed(v.calibration.q, 3), `estimate ${multiple(v.calibration.q)}`, pct(2 * Math.sinh(v.calibration.q), 0), pct(v.report.overall.medianApe), pct(v.report.overall.ppe20, 0), fixed(v.report.overall.r2),
    ]), [false, false, true, true, false, true, true, true, true]),
    '',
    `The members' out-of-fold predictions are blended with the served weights (${served}), as a served valuation is. The served q is the ${pct(iv.coverage, 0)} conformal quantile of those residuals (listings weighted by recency), and the views' coverage (${list(views.map((v) => `${pct(v.report.overall.intervalCoverage)} for the ${v.name} view`))}, unweighted) is that interval's. Neither view is forward in time: past the newest data the drift allowance is added as for any valuation.`,
  ];
  const mismatched = views.filter((v) => JSON.stringify(v.report.weights) !== served);
  if (mismatched.length) throw new Error(`the ${mismatched.map((v) => v.name).join(', ')} view was not blended with the served weights`);
  out.push('', 'By source (in period):', '');
  out.push(table(['view', 'source', ...METRIC_HEADER.slice(0, 7)], views.flatMap((v) => Object.entries(v.report.bySource).map(([s, x]) => [v.name, sourceLabel(ctx, s), ...metricCells(x).slice(0, 7)])), [false, false, ...METRIC_HEADER.slice(0, 7).map(() => true)]));
  return out;
}

// ───────────────────────────── figures ─────────────────────────────

function figureSpecs(ctx: Context): [VehicleFigureName, Spec][] {
  const specs: [VehicleFigureName, Spec][] = [];
  if (ctx.rows?.length) specs.push(['predicted-vs-actual', predictedVsActual(ctx)]);
  specs.push(['error-by-group', errorByGroup(ctx)]);
  specs.push(['interval-coverage', coverageByGroup(ctx)]);
  if (ctx.market.fits.length) specs.push(['depreciation', depreciation(ctx)]);
  specs.push(['market-index', marketIndexFigure(ctx)]);
  specs.push(['feature-importance', featureImportance(ctx)]);
  return specs;
}

const GRID = 60;

/** A 2-D histogram on log scales: twelve thousand points would make a heavy, overplotted SVG. */
function predictedVsActual(ctx: Context): Spec {
  const rows = ctx.rows!;
  const frame = logFrame(rows.flatMap((r) => [r.actual, r.predicted]));
  const origin = Math.log(frame.lo);
  const step = (Math.log(frame.hi) - origin) / GRID;
  const cell = (v: number) => Math.min(GRID - 1, Math.floor((Math.log(v) - origin) / step));
  const edge = (i: number) => Math.exp(origin + i * step);
  const counts = new Map<number, number>();
  for (const r of rows) {
    const key = cell(r.actual) * GRID + cell(r.predicted);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const values = [...counts].sort((a, b) => a[0] - b[0]).map(([key, count]) => {
    const i = Math.floor(key / GRID);
    const j = key % GRID;
    return { x: edge(i), x2: edge(i + 1), y: edge(j), y2: edge(j + 1), count };
  });
  const xTitle = 'Actual asking price (USD, log scale)';
  const yTitle = 'Predicted price (USD, log scale)';
  return {
    ...BASE,
    title: { text: VEHICLE_FIGURE_TITLES['predicted-vs-actual'], subtitle: [`${int(rows.length)} held-out listings of ${monthName(ctx.headline.drift.test)}, model ${ctx.m.version} (${splitName(ctx.headline)} split), in cells of a ${GRID}×${GRID} log grid.`, 'Solid line: predicted = actual; dashed lines: ±20%.'] },
    width: 520,
    height: 520,
    layer: [
      {
        data: { values },
        mark: { type: 'rect', clip: true, aria: false },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale: frame.scale, axis: frame.axis(xTitle) },
          x2: { field: 'x2' },
          y: { field: 'y', type: 'quantitative', scale: frame.scale, axis: frame.axis(yTitle) },
          y2: { field: 'y2' },
          color: { field: 'count', type: 'quantitative', title: 'Listings in the cell', scale: { type: 'log', scheme: 'blues' }, legend: { direction: 'horizontal', gradientLength: 240 } },
        },
      },
      identityLines(frame, xTitle, yTitle),
    ],
  };
}

/** Figure labels: without the make where every group shown is of the domestic family (long labels are cut short). */
function figureNames(groupNames: readonly string[]): { name: (group: string) => string; title: string } {
  const prefix = `${DOMESTIC_FAMILY} `;
  return groupNames.every((g) => g.startsWith(prefix))
    ? { name: (g) => g.slice(prefix.length), title: `${DOMESTIC_FAMILY} model` }
    : { name: (g) => g, title: 'Make and model' };
}

function errorByGroup(ctx: Context): Spec {
  const h = ctx.headline;
  const older = ctx.older;
  const shown = groupsBySize(h, MIN_CLASS_ROWS);
  const names = figureNames(shown);
  const label = (g: string) => `${names.name(g)} (n=${int(h.groups[g].n)})`;
  return errorBarsSpec({
    title: VEHICLE_FIGURE_TITLES['error-by-group'],
    subtitle: [`Headline test, model ${ctx.m.version}: fitted on ${fittedOn(ctx, h)}, tested ${h.drift.months} months later.`, `Bars: median APE; black tick: MAPE${older ? `; red diamond: MAPE on the ${splitName(older)} split (${MIN_CLASS_ROWS}+ listings)` : ''}.`],
    yTitle: `${names.title} (held-out listings)`,
    rows: shown.map((g) => ({ label: label(g), medianApe: h.groups[g].medianApe, mape: h.groups[g].mape })),
    order: [...shown].sort((a, b) => h.groups[a].medianApe - h.groups[b].medianApe || cmp(a, b)).map(label),
    ...(older ? { compare: { measure: `MAPE, ${splitName(older)} split`, values: shown.filter((g) => (older.groups[g]?.n ?? 0) >= MIN_CLASS_ROWS).map((g) => ({ label: label(g), value: older.groups[g].mape })) } } : {}),
  });
}

function coverageByGroup(ctx: Context): Spec {
  const target = ctx.m.intervals.coverage;
  const panel = (f: ForwardReport) => {
    const shown = groupsBySize(f, MIN_CLASS_ROWS);
    const names = figureNames(shown);
    const values = [
      coveragePoint('All groups, served allowance', f.overall, target),
      ...(f.outOfSample && !servedOutOfSample(f) ? [coveragePoint(`All groups, ${otherSplits(ctx, f)} allowance alone`, rescored(f.overall, f.outOfSample.intervalCoverage, f.outOfSample.medianIntervalWidth), target)] : []),
      ...shown.map((g) => coveragePoint(names.name(g), f.groups[g], target)),
    ];
    return { title: { text: `${splitName(f)}: ${f.drift.months} months later${f === ctx.headline ? ' (headline)' : ''}`, fontSize: 13 }, ...coverageLayers(values, target, names.title, 300) };
  };
  return {
    ...BASE,
    title: { text: VEHICLE_FIGURE_TITLES['interval-coverage'], subtitle: [`Model ${ctx.m.version}, forward splits. Dashed line: the 90% target; shaded: 88–92%; black lines: 95% bounds of each share.`, 'Groups with the served allowance (partly in sample); the second bar scores the split with the other split\'s allowance alone.'] },
    hconcat: [...ctx.forward].reverse().map(panel),
  };
}

const SERIES_COLOURS = ['#4c78a8', '#f58518', '#54a24b', '#b279a2', '#e45756', '#72b7b2'];

function depreciation(ctx: Context): Spec {
  const names = [...DOMESTIC_SERIES.map((s) => s.name), OTHER_MAKES];
  const points = ctx.market.fits.flatMap((f) => f.ages.filter((a) => a.relative !== null).map((a) => ({ scrape: monthName(f.period), series: f.series, age: a.age, relative: a.relative })));
  const scrapes = ctx.market.scrapes.map((s) => monthName(s.period));
  const rates = (name: string) => ctx.market.scrapes.map((s) => rate(fitOf(ctx, name, s.source))).join(' / ');
  return {
    ...BASE,
    title: {
      text: VEHICLE_FIGURE_TITLES.depreciation,
      subtitle: [
        'Median asking price relative to a new car of the same model (the fitted level at age 0), by age.',
        `Annual depreciation, ${scrapes.join(' / ')}: ${names.slice(0, 3).map((n) => `${n} ${rates(n)}`).join('; ')};`,
        `${names.slice(3).map((n) => `${n} ${rates(n)}`).join('; ')}.${dealerNote(ctx)}`,
      ],
    },
    data: { values: points },
    facet: { column: { field: 'scrape', type: 'nominal', title: null, sort: scrapes, header: { labelFontSize: 13 } } },
    spec: {
      width: 300,
      height: 300,
      layer: [
        { mark: { type: 'rule', color: '#999999', strokeDash: [3, 3] }, encoding: { y: { datum: 1 } } },
        {
          mark: { type: 'line', point: { size: 30 }, strokeWidth: 2 },
          encoding: {
            x: { field: 'age', type: 'quantitative', title: 'Age (scrape year − model year)', scale: { domain: [0, FIT_AGES.to] }, axis: { values: SHOWN_AGES } },
            y: { field: 'relative', type: 'quantitative', title: 'Relative to a new car of the model', scale: { zero: false }, axis: { format: '.0%' } },
            color: { field: 'series', type: 'nominal', title: null, scale: { domain: names, range: [...SERIES_COLOURS.slice(0, DOMESTIC_SERIES.length), PALETTE.dark] } },
          },
        },
      ],
    },
  };
}

/** The market index per segment: level and 95% band at each snapshot, on a time axis in decimal years (no time zone enters). */
function marketIndexFigure(ctx: Context): Spec {
  const index = ctx.m.marketIndex;
  const values = VEHICLE_SEGMENTS.flatMap((segment) => index.segments[segment].points.map((p) => ({
    segment, snapshot: monthName(p.period), year: 2020 + (periodIndex(p.period) + 0.5) / 12,
    index: Math.exp(p.logLevel), low: Math.exp(p.logLevel - 1.96 * p.se), high: Math.exp(p.logLevel + 1.96 * p.se),
  })));
  const years = values.map((v) => v.year);
  const from = Math.floor(Math.min(...years));
  const to = Math.ceil(Math.max(...years));
  const x = { field: 'year', type: 'quantitative', title: 'Snapshot', scale: { domain: [from, to] }, axis: { values: Array.from({ length: to - from + 1 }, (_, i) => from + i), format: 'd' } };
  const y = { field: 'index', type: 'quantitative', title: `Index (${monthName(index.newestPeriod)} = 1)`, scale: { zero: false } };
  const borrowed = VEHICLE_SEGMENTS.filter((s) => index.segments[s].steps.some((st) => st.cells === 0));
  return {
    ...BASE,
    title: {
      text: VEHICLE_FIGURE_TITLES['market-index'],
      subtitle: [
        `Matched-cell index of asking prices, model ${ctx.m.version}: level at each snapshot relative to the newest, with its 95% band (shaded).`,
        borrowed.length ? `${capitalise(list(borrowed))}: a step without matched cells of its own takes the market-wide step.` : 'Every step measured on the segment\'s own matched cells.',
      ],
    },
    data: { values },
    facet: { column: { field: 'segment', type: 'nominal', title: null, sort: [...VEHICLE_SEGMENTS], header: { labelFontSize: 13 } } },
    spec: {
      width: 220,
      height: 260,
      layer: [
        { mark: { type: 'rule', color: '#999999', strokeDash: [3, 3] }, encoding: { y: { datum: 1 } } },
        { mark: { type: 'area', color: PALETTE.ours, opacity: 0.2 }, encoding: { x, y: { field: 'low', type: 'quantitative', title: y.title, scale: y.scale }, y2: { field: 'high' } } },
        { mark: { type: 'line', point: { size: 40 }, color: PALETTE.ours, strokeWidth: 2 }, encoding: { x, y } },
        { mark: { type: 'text', dy: -10, fontSize: 10, color: '#333333' }, encoding: { x, y, text: { field: 'index', type: 'quantitative', format: '.3f' } } },
      ],
    },
  };
}

function featureImportance(ctx: Context): Spec {
  return importanceSpec({
    title: VEHICLE_FIGURE_TITLES['feature-importance'],
    subtitle: [`Model ${ctx.m.version}: permutation importance on the headline held-out listings, share of total.`, 'A feature the test scrape never states scores 0 there.'],
    series: [{ name: 'this model', colour: PALETTE.ours }],
    rows: ctx.m.evaluation.featureImportance.map((f) => ({ feature: f.feature, values: [f.importance] })),
  });
}
