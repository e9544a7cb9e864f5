/**
 * The vehicle model card a bank's credit committee reads before it lends against cars:
 * docs/VEHICLE_MODEL_CARD.md and its figures (docs/vehicle-model-card/<name>.svg), generated from
 * one version's manifest.json and evaluation.json and, for the market section, from the listings
 * themselves as training cleaned them (`ingestVehicles()`): every number about the market is
 * computed there, none is typed in.
 *
 * Deterministic: the same artifact and data files give byte-identical output (no clock is read;
 * the only date is the manifest's trainedAt; the bootstrap is seeded). The formatting, the rules
 * quoted word for word and the figure rendering are the residential card's (models/ensemble/card-kit.ts).
 */
import { badgeFamily } from './vocabulary';
import { ingestVehicles, VEHICLE_CORRECTIONS, VEHICLE_DROP_REASONS, VEHICLE_SOURCE_FILES, type VehicleIngestResult, type VehicleRecord } from './ingest';
import { vehicleGroup, VEHICLE_FEATURE_GROUPS } from './features';
import { readManifest, versionDir, VEHICLE_DIR, type VehicleEvaluationReport, type VehicleManifest } from './manifest';
import { VEHICLE_OUT_OF_DISTRIBUTION_FLAGS } from './runtime';
import type { TrainedVehicleVersion } from './train';
import type { AccuracyClass } from '../ensemble/confidence';
import { periodIndex } from '../ensemble/encoding';
import { median, quantile, wilsonBounds, type AccuracyMetrics } from '../ensemble/metrics';
import { groupBy } from '../ingest/outliers';
import { Random } from '../trainers/random';
import {
  accuracyClassRule, artifactLabel, BASE, cmp, confidenceSection, CONFIDENCE_RULE, coverageBounds, coverageCheckTable, COVERAGE_VERDICTS, coverageLayers, coveragePoint,
  coverageVerdict, DASH, direction, directionBy, directionTable, DOCS_DIR, errorBarsSpec, featureGroupLines, figureLinker, fixed, glossary, identityLines,
  importanceSpec, int, list, logFrame, METRIC_HEADER, METRIC_HEADER_WITH_BOUNDS, metricCells, MIN_CLASS_ROWS, PALETTE, pct, readEvaluationFile, renderCard,
  signedPct, table, writeCardFiles, type RenderedCard, type Spec,
} from '../ensemble/card-kit';

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
  'feature-importance': 'Feature importance',
} as const;
export type VehicleFigureName = keyof typeof VEHICLE_FIGURE_TITLES;

/** The rule of `accuracyClass` in models/ensemble/metrics.ts, in words, for a make/model group. */
export const VEHICLE_ACCURACY_CLASS_RULE = accuracyClassRule('A make/model group');

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
  // A listing file added to ingestion after training (avtoelon_2020) is not this version's market.
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

/** What the listings say about the market: depreciation by age, the move between the scrapes, new-car prices. */
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
  const changes: YearChange[] = [];
  if (sources.length >= 2) {
    const first = bySource.get(sources[0].source)!;
    const last = bySource.get(sources[sources.length - 1].source)!;
    for (const { name } of DOMESTIC_SERIES) {
      const before = groupBy(first.bySeries.get(name) ?? [], (r) => String(r.year));
      const after = groupBy(last.bySeries.get(name) ?? [], (r) => String(r.year));
      for (const [year, rows] of [...before].sort((a, b) => cmp(a[0], b[0]))) {
        const later = after.get(year) ?? [];
        if (Number(year) > scrapeYear(first.period) || rows.length < MIN_PAIR || later.length < MIN_PAIR) continue;
        const b = median(rows.map((r) => r.price));
        const a = median(later.map((r) => r.price));
        changes.push({ series: name, year: Number(year), before: { median: b, n: rows.length }, after: { median: a, n: later.length }, change: a / b - 1 });
      }
    }
  }
  return { scrapes, fits, changes, newCars };
}

// ───────────────────────────── what the card is computed from ─────────────────────────────

type GroupMetrics = VehicleEvaluationReport['groups'][string];

interface Context {
  m: VehicleManifest;
  rows: HeldOutRow[] | null;
  artifact: string;
  headline: VehicleEvaluationReport;
  kfold: VehicleEvaluationReport;
  market: VehicleMarketFindings;
  /** Set when the listings the market section read are not the manifest's snapshot. */
  snapshotNote: string | null;
  sourcePeriod: Record<string, string>;
  /** The headline's training and test sources and the months between them. */
  trainSources: string[];
  testSources: string[];
  gapMonths: number;
  /** Months from the newest listing period to the training date. */
  dataAgeMonths: number;
}

function context(m: VehicleManifest, evaluation: VehicleEvaluationFile | null, artifact: string, ingest: VehicleIngestResult): Context {
  const sourcePeriod: Record<string, string> = {};
  for (const s of m.training.ingest.sources) sourcePeriod[s.source] = s.period;
  const testSources = Object.keys(m.evaluation.headline.bySource);
  const trainSources = Object.keys(m.training.bySource).filter((s) => !testSources.includes(s));
  const newestOf = (sources: string[]) => Math.max(...sources.map((s) => periodIndex(sourcePeriod[s] ?? m.features.encoding.newestPeriod)));
  const sameFiles = (a: VehicleManifest['dataSnapshot'], b: VehicleManifest['dataSnapshot']) => a.files.length === b.files.length && a.files.every((f, i) => f.sha256 === b.files[i].sha256);
  return {
    m, rows: evaluation?.rows ?? null, artifact, headline: m.evaluation.headline, kfold: m.evaluation.kfold,
    market: vehicleMarketFindings(ingest.records),
    snapshotNote: sameFiles(ingest.report.snapshot, m.dataSnapshot) ? null : `The market section was computed from the listing files as they are now (snapshot \`${ingest.report.snapshot.id}\`), which differ from this version's snapshot \`${m.dataSnapshot.id}\`.`,
    sourcePeriod, trainSources, testSources,
    gapMonths: newestOf(testSources) - newestOf(trainSources),
    dataAgeMonths: periodIndex(m.trainedAt.slice(0, 7)) - periodIndex(m.features.encoding.newestPeriod),
  };
}

function serviceClass(ctx: Context, group: string): AccuracyClass {
  return ctx.m.groupAccuracy[group] ?? 'low';
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'YYYY-MM' → 'June 2022'. */
function monthName(period: string): string {
  return `${MONTHS[Number(period.slice(5, 7)) - 1]} ${period.slice(0, 4)}`;
}

/** When the headline's training listings were scraped. */
function trainedOn(ctx: Context): string {
  return list(ctx.trainSources.map((s) => (ctx.sourcePeriod[s] ? monthName(ctx.sourcePeriod[s]) : s)));
}

function article(word: string): string {
  return /^[AEIOU]/i.test(word) ? 'an' : 'a';
}

function sourceLabel(ctx: Context, source: string): string {
  const period = ctx.sourcePeriod[source];
  return period ? `${source} (${monthName(period)})` : source;
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

/** Honesty-rule bookkeeping over the make/model groups of the market reference. */
function marketCoverage(m: VehicleManifest): { none: number; thin: number; solid: number; groups: number; listingsSolid: number; listings: number } {
  const groups = Object.values(m.market.group);
  const listings = groups.reduce((s, g) => s + g.listings, 0);
  const solid = groups.filter((g) => g.listings >= m.thinListings);
  return {
    none: groups.filter((g) => g.listings < m.minListings).length,
    thin: groups.filter((g) => g.listings >= m.minListings && g.listings < m.thinListings).length,
    solid: solid.length, groups: groups.length, listings,
    listingsSolid: solid.reduce((s, g) => s + g.listings, 0),
  };
}

// ───────────────────────────── markdown ─────────────────────────────

function markdown(ctx: Context, figures: readonly VehicleFigureName[]): string {
  const sections = [header(ctx), summary(ctx), today(ctx), rules(ctx), data(ctx), market(ctx, figures), method(ctx), evaluation(ctx, figures), glossary(GLOSSARY)];
  return `${sections.join('\n\n')}\n`;
}

const GLOSSARY = [
  '- **coverage 95% bounds**: the Wilson 95% confidence bounds of the measured coverage: on a few hundred listings the share moves by several points by chance alone.',
  '- **age**: the scrape year minus the model year (a 2019 car is 3 in mid-2022 and 4 in August 2023).',
  '- **annual depreciation**: 1 − exp(slope) of a least-squares line of log asking price on age, each model with its own level: the share of its price a car loses per year of age.',
];

function header(ctx: Context): string {
  const { m } = ctx;
  const c = marketCoverage(m);
  const weights = m.members.map((x) => `\`${x.name}\` ${fixed(x.weight, 2)}`).join(', ');
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
        ['Held-out test rows (headline)', `${int(ctx.headline.overall.n)}: fitted on ${list(ctx.trainSources.map((s) => `\`${s}\``))}, tested on ${list(ctx.testSources.map((s) => `\`${s}\``))}, ${ctx.gapMonths} months later`],
        ['Newest market data', `${monthName(m.features.encoding.newestPeriod)}: ${ctx.dataAgeMonths} months before training`],
        ['Target', 'log of the asking price (USD); the estimate is exp(prediction)'],
        ['Ensemble members and weights', `${weights} (learned out of fold; ${m.members.length} members)`],
        ['Interval', `${pct(m.intervals.coverage, 0)} prediction interval (normalised split conformal, with a drift allowance)`],
        ['No valuation (INSUFFICIENT_MARKET_DATA)', `make and model with fewer than \`minListings\` = ${m.minListings} training listings (${int(c.none)} of ${groups(c.groups)})`],
        ['Valued, flagged THIN_MODEL_DATA', `${m.minListings} to ${m.thinListings - 1} training listings (\`thinListings\` = ${m.thinListings}; ${groups(c.thin)})`],
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

function domesticRange(ctx: Context, source: string): { low: DepreciationFit; high: DepreciationFit } | null {
  const fits = DOMESTIC_SERIES.map((s) => fitOf(ctx, s.name, source)).filter((f): f is DepreciationFit => f !== undefined).sort((a, b) => a.annualRate - b.annualRate);
  return fits.length ? { low: fits[0], high: fits[fits.length - 1] } : null;
}

/** The median of every domestic model year's change between the first and the last scrape. */
function medianChange(ctx: Context): number | null {
  return ctx.market.changes.length ? median(ctx.market.changes.map((c) => c.change)) : null;
}

function summary(ctx: Context): string {
  const { m } = ctx;
  const h = ctx.headline.overall;
  const k = ctx.kfold.overall;
  const served = m.evaluation.kfoldWithDriftAllowance;
  const rise = medianChange(ctx);
  const dir = ctx.rows?.length ? direction(ctx.rows) : null;
  const s = [
    `This model estimates the asking price, in US dollars, of a used car in Uzbekistan from its make and model, model year, mileage, engine, fuel, gearbox, body, drive, trim, condition and region,`,
    `and gives with every estimate a range meant to contain the price 9 times out of 10 and a confidence level (high, medium or low).`,
    `Fitted only on the ${trainedOn(ctx)} listings and tested on ${int(h.n)} listings ${ctx.gapMonths} months later, half of its estimates were within ${pct(h.medianApe)} of the asking price, ${pct(h.ppe10, 0)} within 10% and ${pct(h.ppe20, 0)} within 20% (MAPE ${pct(h.mape)}, R² ${fixed(h.r2)});`,
    `its ${pct(m.intervals.coverage, 0)} range, calibrated within one period, held only ${pct(h.intervalCoverage)} of those prices${rise !== null ? `, because the market had moved: the same model and model year asked a median ${signedPct(rise)} more` : ''}.`,
    `The ranges the service gives are therefore widened to what that forward test needed (the drift allowance): on a random split they hold ${pct(served.intervalCoverage)} of prices and are typically ${pct(served.medianIntervalWidth, 0)} of the estimate wide, against ${pct(k.intervalCoverage)} and ${pct(k.medianIntervalWidth, 0)} before.`,
    `On that random split (k-fold, ${int(k.n)} listings) half of the estimates were within ${pct(k.medianApe)} (MAPE ${pct(k.mape)}, R² ${fixed(k.r2)}).`,
    dir ? `On the forward test the estimates ran ${dir.medianSigned < 0 ? 'below' : 'above'} the asking price (median ${signedPct(dir.medianSigned)}, ${pct(dir.above, 0)} above): ${dir.medianSigned < 0 ? 'a model that has not seen a rising market under-values, the safe direction for collateral; in a falling market the same lag would over-value' : 'for collateral this is the risky direction'}.` : '',
    marketSentence(ctx),
    `The newest listings are from ${monthName(m.features.encoding.newestPeriod)}: every valuation carries the flag MARKET_DATA_OLDER_THAN_12_MONTHS, see the next section.`,
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
  const rise = medianChange(ctx);
  const cobalt = ctx.market.newCars.find((x) => x.series === DOMESTIC_SERIES[0].name && x.source === last.source && x.dealer && x.oneYearOld);
  const parts = [
    slower.length ? `in ${monthName(first.period)} ${list(slower.map((f) => f.series))} lost ${pct(slower[0].annualRate)}–${pct(slower[slower.length - 1].annualRate)} of their asking price per year of age against ${pct(others.annualRate)} for other makes${faster.length ? ` (${list(faster.map((f) => `${f.series} ${pct(f.annualRate)}`))})` : ''}` : '',
    rise !== null ? `${ctx.gapMonths} months later the same model and model year asked a median ${signedPct(rise)} more` : '',
    cobalt && cobalt.oneYearOld!.median > cobalt.dealer!.price ? `a one-year-old ${cobalt.series} asked ${signedPct(cobalt.oneYearOld!.median / cobalt.dealer!.price - 1)} over a new one at the dealer's price` : '',
  ].filter(Boolean);
  return parts.length ? `The market: ${parts.join('; ')}; see "The market".` : '';
}

function today(ctx: Context): string {
  const { m } = ctx;
  const rise = medianChange(ctx);
  return [
    '## What this means for a bank today',
    '',
    `- **The market data are ${ctx.dataAgeMonths} months old.** The newest listings the model learned from are from ${monthName(m.features.encoding.newestPeriod)}; it was trained on ${m.trainedAt.slice(0, 10)}. The service flags every valuation made more than 12 months after the newest data with MARKET_DATA_OLDER_THAN_12_MONTHS, so **every valuation it makes now carries that flag**: its interval is widened ×${m.intervals.outOfDistributionFactor} and its confidence score lowered by 0.1 (the flag counts as an anomaly flag).`,
    `- **An estimate is ${article(monthName(m.features.encoding.newestPeriod))} ${monthName(m.features.encoding.newestPeriod)} asking price.** What the market did since is not in it.${rise !== null ? ` Between the two scrapes (${ctx.gapMonths} months) the same domestic model and model year moved by a median ${signedPct(rise)}: a move of that size since ${monthName(m.features.encoding.newestPeriod)}, up or down, is possible and not seen by the model.` : ''}`,
    `- **The interval allows for one such move, not for any.** The served intervals are widened to what the ${ctx.gapMonths}-month forward test needed (see "Intervals and drift"); a longer or larger move can still leave prices outside them.`,
    '- **What would fix it:** listings newer than a year, from any source the ingestion reads; retraining then lifts the flag and the allowance is measured again.',
  ].join('\n');
}

interface FlagRule {
  flag: string;
  when: string;
}

/** The flags of models/vehicle/runtime.ts and when each is raised (a test keeps the list equal to the runtime's). */
export function vehicleFlagRules(m: Pick<VehicleManifest, 'thinListings' | 'features'>): FlagRule[] {
  return [
    { flag: 'THIN_MODEL_DATA', when: `fewer than \`thinListings\` = ${m.thinListings} training listings of the make and model` },
    { flag: 'YEAR_OUTSIDE_MODEL_DATA', when: 'model year more than one year outside the model years the make and model\'s training listings cover' },
    { flag: 'UNUSUAL_MILEAGE', when: 'more than 60,000 km per year of age' },
    { flag: 'MARKET_DATA_OLDER_THAN_12_MONTHS', when: `the valuation is made more than 12 months after the newest training listings (${monthName(m.features.encoding.newestPeriod)})` },
    { flag: 'FAR_FROM_GROUP_MEDIAN', when: 'the estimate is more than 50% above or below the median training asking price of the same make, model and model year' },
    { flag: 'MODELS_DISAGREE', when: 'the weighted members\' estimates spread by more than 20% of the estimate' },
    { flag: 'ASKING_PRICE_BELOW_INTERVAL', when: 'the asking price the client gave is below the interval' },
    { flag: 'ASKING_PRICE_ABOVE_INTERVAL', when: 'the asking price the client gave is above the interval' },
  ];
}

function groups(n: number): string {
  return `${int(n)} make/model group${n === 1 ? '' : 's'}`;
}

function rules(ctx: Context): string {
  const { m } = ctx;
  const c = marketCoverage(m);
  const factor = m.intervals.outOfDistributionFactor;
  return [
    '## Honesty rules, flags and confidence',
    '',
    `- **No valuation below \`minListings\` = ${m.minListings}.** A make and model with fewer training listings gets no number at all: the API answers INSUFFICIENT_MARKET_DATA (HTTP 422 on REST, an error entry on GraphQL). ${int(c.none)} of the ${groups(c.groups)} in the training data ${c.none === 1 ? 'is' : 'are'} below it.`,
    `- **Flagged below \`thinListings\` = ${m.thinListings}.** ${groups(c.thin)} with ${m.minListings}–${m.thinListings - 1} listings ${c.thin === 1 ? 'is' : 'are'} valued with the flag THIN_MODEL_DATA. The ${groups(c.solid)} with ${m.thinListings} or more hold ${pct(c.listingsSolid / c.listings)} of the training listings.`,
    '',
    `Flags a valuation can carry (models/vehicle/runtime.ts). Every flag lowers the confidence score by 0.1; those marked *widens* also widen the interval ×${factor} each (at most three times):`,
    '',
    table(['flag', 'raised when', 'widens the interval'], vehicleFlagRules(m).map((f) => [`\`${f.flag}\``, f.when, VEHICLE_OUT_OF_DISTRIBUTION_FLAGS.has(f.flag) ? `widens ×${factor}` : 'no']), [false, false, false]),
    '',
    '### Confidence rule',
    '',
    'Every valuation carries a confidence score and level (models/ensemble/confidence.ts; for vehicles the group is the make/model group):',
    '',
    '```text',
    CONFIDENCE_RULE,
    '```',
    '',
    '### Accuracy class of a make/model group',
    '',
    `${VEHICLE_ACCURACY_CLASS_RULE} The class the confidence rule uses is the headline (held-out) class where the group has at least ${MIN_CLASS_ROWS} held-out listings, else its k-fold class where it has ${MIN_CLASS_ROWS} k-fold listings, else low.`,
  ].join('\n');
}

function data(ctx: Context): string {
  const { m } = ctx;
  const ingest = m.training.ingest;
  const sources = ingest.sources;
  const out: string[] = ['## Data', ''];
  if (ctx.snapshotNote) out.push(`> ${ctx.snapshotNote}`, '');
  out.push('### The two scrapes', '');
  out.push('Both files are scrapes of avtoelon.uz, a used-car classifieds site. Neither carries listing dates, so a listing is dated by its scrape. What each holds, counted on the cleaned listings:', '');
  const facts = ctx.market.scrapes;
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
  const described = facts.map((f) => `the ${monthName(f.period)} scrape ${f.soleMake ? `holds ${f.soleMake} only` : `covers ${int(f.makes)} makes`}${f.known.mileage === 0 ? ', without mileage' : ''}`);
  out.push('', `So ${list(described)}. A feature a scrape does not state is missing for all its listings, and the models learn nothing from it there.`);

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

  if (ctx.market.changes.length) out.push('', ...priceChange(ctx));
  if (ctx.market.newCars.some((x) => x.dealer)) out.push('', ...waitingList(ctx));
  out.push('', '### What it means for collateral', '');
  out.push(collateralReading(ctx));
  return out.join('\n');
}

function depreciationFinding(ctx: Context): string {
  const first = firstScrape(ctx);
  const last = lastScrape(ctx);
  const range = domesticRange(ctx, first.source);
  const others = fitOf(ctx, OTHER_MAKES, first.source);
  if (!range) return '';
  const cobalt = fitOf(ctx, DOMESTIC_SERIES[0].name, first.source);
  const slower = others ? DOMESTIC_SERIES.map((s) => fitOf(ctx, s.name, first.source)).filter((f): f is DepreciationFit => !!f && f.annualRate < others.annualRate) : [];
  const clear = others?.bounds ? slower.filter((f) => f.bounds && f.bounds.high < others.bounds!.low) : [];
  const lastRange = last !== first ? domesticRange(ctx, last.source) : null;
  const s = [`In ${monthName(first.period)} the big domestic models lost ${pct(range.low.annualRate)} (${range.low.series}) to ${pct(range.high.annualRate)} (${range.high.series}) of their asking price per year of age${cobalt ? `; a ${cobalt.series} ${pct(cobalt.annualRate)} a year, so after five years it still asks ${pct(Math.exp(5 * cobalt.slope), 0)} of a new one's price` : ''}.`];
  if (others) {
    s.push(`Other makes lost ${rateWithBounds(others)} a year (${int(others.listings)} listings of ${others.models} models).`);
    s.push(slower.length
      ? `${list(slower.map((f) => f.series))} depreciated more slowly than other makes${clear.length === slower.length ? ', and none of their 95% bounds overlaps that of other makes' : clear.length ? `; the 95% bounds do not overlap for ${list(clear.map((f) => f.series))}` : ', though the bounds overlap: the other makes are few and varied'}.`
      : 'No domestic line depreciated more slowly than other makes.');
    const faster = DOMESTIC_SERIES.map((x) => fitOf(ctx, x.name, first.source)).filter((f): f is DepreciationFit => !!f && f.annualRate >= others.annualRate);
    if (faster.length) s.push(`${list(faster.map((f) => `${f.series} (${pct(f.annualRate)})`))} did not.`);
  }
  if (lastRange) s.push(`In ${monthName(last.period)} (domestic cars only) the range was ${pct(lastRange.low.annualRate)} (${lastRange.low.series}) to ${pct(lastRange.high.annualRate)} (${lastRange.high.series}).`);
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

function priceChange(ctx: Context): string[] {
  const first = firstScrape(ctx);
  const last = lastScrape(ctx);
  const changes = ctx.market.changes;
  const years = [...new Set(changes.map((c) => c.year))].sort((a, b) => b - a);
  const names = DOMESTIC_SERIES.map((s) => s.name).filter((n) => changes.some((c) => c.series === n));
  const cell = (series: string, year: number) => changes.find((c) => c.series === series && c.year === year);
  const perSeries = names.map((n) => ({ name: n, change: median(changes.filter((c) => c.series === n).map((c) => c.change)) }));
  // The example the text quotes: the Cobalt model year with the most listings in both scrapes.
  const example = [...changes.filter((c) => c.series === DOMESTIC_SERIES[0].name)].sort((a, b) => Math.min(b.before.n, b.after.n) - Math.min(a.before.n, a.after.n) || b.year - a.year)[0];
  const all = medianChange(ctx)!;
  const up = changes.filter((c) => c.change > 0).length;
  return [
    `### ${monthName(first.period)} → ${monthName(last.period)}: the same car asked more`, '',
    `Median asking price of the same model and model year in the two scrapes (${MIN_PAIR} listings or more in each). The car is ${ctx.gapMonths} months older in the second scrape, so any rise is net of that depreciation.`, '',
    table(['model year', ...names], [
      ...years.map((y) => [String(y), ...names.map((n) => {
        const c = cell(n, y);
        return c ? signedPct(c.change) : '·';
      })]),
      ['**median**', ...perSeries.map((p) => `**${signedPct(p.change)}**`)],
    ]),
    '',
    `${up} of ${changes.length} model years asked more in ${monthName(last.period)}; the median change was ${signedPct(all)}.${example ? ` For example a ${example.year} ${example.series}: ${int(example.before.median)} USD in ${monthName(first.period)} (${example.before.n} listings), ${int(example.after.median)} USD in ${monthName(last.period)} (${example.after.n} listings), ${signedPct(example.change)}.` : ''}`,
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
  ];
}

function collateralReading(ctx: Context): string {
  const first = firstScrape(ctx);
  const cobalt = fitOf(ctx, DOMESTIC_SERIES[0].name, first.source);
  const last = lastScrape(ctx);
  const premium = ctx.market.newCars.filter((x) => x.source === last.source && x.dealer && x.oneYearOld && x.oneYearOld.median > x.dealer.price).map((x) => x.oneYearOld!.median / x.dealer!.price - 1);
  const rise = medianChange(ctx);
  return [
    `- **Slow depreciation helps a lender**${cobalt ? `: a ${cobalt.series} loses about ${pct(cobalt.annualRate)} of its asking price per year of age, so over a three-year loan it keeps ${pct(Math.exp(3 * cobalt.slope), 0)} of it, all else equal` : ''}.`,
    `- **It rests on scarcity.** ${premium.length ? `In ${monthName(last.period)} one-year-old cars asked ${signedPct(Math.min(...premium))} to ${signedPct(Math.max(...premium))} over the dealer's price of a new one` : 'Used cars can ask more than the dealer'}${rise !== null ? `, and the same cars asked ${signedPct(rise)} more than ${ctx.gapMonths} months before` : ''}. If supply catches up, a used car's price can fall towards the dealer's: for a nearly new car that gap is the size of the risk. Nothing in these two scrapes shows such a fall, and nothing after ${monthName(last.period)} is in them.`,
    '- **Lend against the estimate, not the premium**: for a car bought above the dealer\'s price, the estimate and its interval, not the purchase price, are the collateral value.',
  ].join('\n');
}

function method(ctx: Context): string {
  const { m } = ctx;
  const iv = m.intervals;
  const enc = m.features.encoding;
  const zero = m.members.filter((x) => x.weight === 0).map((x) => `\`${x.name}\``);
  const headlineWeights = Object.entries(ctx.headline.weights).map(([n, w]) => `\`${n}\` ${fixed(w, 2)}`).join(', ');
  return [
    '## Method',
    '',
    '### Features',
    '',
    `${m.features.names.length} features, built by one module (models/vehicle/features.ts) for training and serving alike, grouped as the importance figures report them:`,
    '',
    ...featureGroupLines(m.features.names, VEHICLE_FEATURE_GROUPS),
    '',
    `Make and model enter as smoothed target encodings of log price: a model is shrunk towards its make and a make towards the whole market (pseudo-count ${enc.smoothing}), so a model with few listings barely moves the estimate. Daewoo and Ravon share the Chevrolet badge family's make level. ${int(Object.keys(enc.make).length)} makes and ${int(Object.keys(enc.model).length)} models are encoded. Serving prices every car as of the newest period (${enc.newestPeriod}).`,
    '',
    '### Ensemble',
    '',
    table(['member', 'algorithm', 'weight', 'hyperparameters'], m.members.map((x) => [`\`${x.name}\``, x.algorithm, fixed(x.weight, 2), `\`${JSON.stringify(x.hyperparameters)}\``]), [false, false, true, false]),
    '',
    `The consensus is the weighted mean of the members' log prices, weights learned on out-of-fold predictions (in steps of 0.05 summing to 1, least squared error). The served weights come from all listings; the headline model's, fitted on the older scrape alone, were ${headlineWeights}.${zero.length ? ` ${list(zero)} got weight 0: trained, exported and reported per valuation, but ${zero.length > 1 ? 'they do' : 'it does'} not move the estimate.` : ''}`,
    '',
    '### Intervals',
    '',
    `Manifest: "${iv.method}".`,
    '',
    `The interval is estimate × exp(±q·σ(x)), σ(x) the error a small residual-scale model (column \`${iv.scale?.column ?? DASH}\`) expects for this listing${iv.scale?.pooling ? `, pooled toward the median one (${fixed(iv.scale.pooling.center, 3)}) with power ${iv.scale.pooling.power}` : ''}, and q the conformal quantile per make/model group with at least ${iv.minRows} calibration rows; thinner groups use the overall quantile widened ×${iv.thinDataFactor}. Each out-of-distribution flag widens q ×${iv.outOfDistributionFactor}.`,
  ].join('\n');
}

function groupTable(ctx: Context, report: VehicleEvaluationReport, groups: readonly string[], withServiceClass: boolean): string {
  const rows = groups.map((g) => {
    const x: GroupMetrics = report.groups[g];
    return [g, ...metricCells(x, true), x.accuracyClass, ...(withServiceClass ? [serviceClass(ctx, g) === x.accuracyClass ? serviceClass(ctx, g) : `**${serviceClass(ctx, g)}**`] : [])];
  });
  rows.push(['**all groups**', ...metricCells(report.overall, true), '', ...(withServiceClass ? [''] : [])]);
  return table(['make and model', ...METRIC_HEADER_WITH_BOUNDS, 'accuracy class', ...(withServiceClass ? ['class used by the service'] : [])], rows, [false, ...METRIC_HEADER_WITH_BOUNDS.map(() => true), false, ...(withServiceClass ? [false] : [])]);
}

/** The served intervals on the k-fold rows as metrics: coverage with its bounds and width. */
function servedMetrics(ctx: Context): AccuracyMetrics {
  const k = ctx.kfold.overall;
  const served = ctx.m.evaluation.kfoldWithDriftAllowance;
  return { ...k, intervalCoverage: served.intervalCoverage, intervalCoverageBounds95: wilsonBounds(Math.round(served.intervalCoverage * k.n), k.n), medianIntervalWidth: served.medianIntervalWidth };
}

function evaluation(ctx: Context, figures: readonly VehicleFigureName[]): string {
  const h = ctx.headline;
  const k = ctx.kfold;
  const target = ctx.m.intervals.coverage;
  const served = servedMetrics(ctx);
  const out: string[] = ['## Evaluation', ''];
  out.push(`**Headline protocol.** ${h.protocol}`, '');
  out.push(`**Second view.** ${k.protocol}`, '');
  out.push('### Overall', '');
  const servedCells = metricCells(served, true).map((c, i) => (i === 0 || i >= 7 ? c : ''));
  out.push(table(['evaluation', ...METRIC_HEADER_WITH_BOUNDS], [
    [`headline (fitted on ${trainedOn(ctx)}, tested ${ctx.gapMonths} months later)`, ...metricCells(h.overall, true)],
    ['k-fold (random split)', ...metricCells(k.overall, true)],
    ['k-fold, served intervals (with the drift allowance)', ...servedCells],
  ]));
  out.push('', figureLink(figures, 'predicted-vs-actual', `The ${int(ctx.rows?.length ?? 0)} held-out listings of the headline test, counted in cells of a log-scale grid. On the solid line the estimate is exact; between the dashed lines it is within 20% of the asking price.`));

  out.push('', '### Intervals and drift', '');
  out.push(...drift(ctx, served));
  out.push('', figureLink(figures, 'interval-coverage', `Share of asking prices inside the 90% interval per make and model (${MIN_CLASS_ROWS} held-out listings or more), with 95% bounds: left, the headline test before the drift allowance; right, the k-fold split, with the served intervals' overall coverage added. The target is 90% (dashed) and the band 88–92% (shaded).`));

  const tested = groupsBySize(h, 1);
  out.push('', '### By make and model (headline)', '');
  out.push(groupTable(ctx, h, tested, true));
  out.push('', `Groups with at least one held-out listing, most listings first. The accuracy class is computed from the row's own numbers; the service uses the last column (in bold where it differs: fewer than ${MIN_CLASS_ROWS} held-out listings, so the k-fold class is used). Coverage here is before the drift allowance.`);
  out.push('', figureLink(figures, 'error-by-group', `Median absolute percentage error (bars) and MAPE (black tick) per make and model on the headline test, with the k-fold MAPE (red diamond); groups with ${MIN_CLASS_ROWS} held-out listings or more.`));
  const big = groupsBySize(h, MIN_CLASS_ROWS);
  out.push('', `**Coverage check** (headline, before the drift allowance; groups with at least ${MIN_CLASS_ROWS} held-out listings):`, '');
  out.push(coverageCheckTable('make and model', [...big.map((g) => [g, h.groups[g]] as const), ['**all groups**', h.overall] as const], target));

  if (ctx.rows?.length) {
    const dirs = directionBy(ctx.rows, big, (r) => r.group);
    const all = direction(ctx.rows);
    out.push('', '### Direction of errors (headline)', '');
    out.push('For collateral an estimate above the price is the risky error. Estimate against asking price on the held-out listings (from evaluation.json):', '');
    out.push(directionTable('make and model', [...[...dirs].map(([g, x]) => [g, x] as const), ['**all groups**', all] as const]));
    out.push('', all.medianSigned < 0
      ? `The estimates ran below the asking price (median ${signedPct(all.medianSigned)}, ${pct(all.above, 0)} above): the model learned ${ctx.gapMonths}-month-older prices. Under-valuation is the safe error for collateral; the same lag in a falling market would over-value.`
      : `The estimates ran above the asking price (median ${signedPct(all.medianSigned)}, ${pct(all.above, 0)} above): for collateral this is the risky direction.`);
  }

  const kBig = groupsBySize(k, MIN_CLASS_ROWS);
  const kSmall = Object.keys(k.groups).filter((g) => !kBig.includes(g));
  out.push('', '### By make and model (k-fold)', '');
  out.push(groupTable(ctx, k, kBig, false));
  out.push('', `Groups with at least ${MIN_CLASS_ROWS} listings. ${kSmall.length === 1 ? 'One smaller group' : `${int(kSmall.length)} smaller groups`} (${int(kSmall.reduce((t, g) => t + k.groups[g].n, 0))} listings) ${kSmall.length === 1 ? 'is' : 'are'} left out: ${kSmall.length === 1 ? 'its' : 'their'} accuracy class is low. The k-fold coverage is close to 90% by construction (its intervals were calibrated on these out-of-fold residuals, before the drift allowance).`);
  out.push('', '### By source', '');
  const sourceTable = (report: VehicleEvaluationReport) => table(['source', ...METRIC_HEADER], Object.entries(report.bySource).map(([s, x]) => [sourceLabel(ctx, s), ...metricCells(x)]));
  out.push('Headline:', '', sourceTable(h), '', 'k-fold:', '', sourceTable(k));
  if (ctx.rows?.length) out.push(...confidenceSection(ctx.rows, (r) => serviceClass(ctx, r.group), "their make and model's class"));

  out.push('', '### Feature importance', '');
  const imp = ctx.m.evaluation.featureImportance;
  const test = ctx.market.scrapes.find((f) => ctx.testSources.includes(f.source));
  const missing = test ? Object.keys(KNOWN).filter((f) => test.known[f] === 0) : [];
  out.push(table(['feature', 'share of importance'], imp.map((f) => [f.feature, pct(f.importance)])));
  out.push('', `Permutation importance on the headline held-out listings (the rise in mean absolute log error when a feature group is shuffled), as a share of the total.${missing.length ? ` ${list(missing)} ${missing.length > 1 ? 'are' : 'is'} never stated in the test scrape, so ${missing.length > 1 ? 'they score' : 'it scores'} 0 there whatever ${missing.length > 1 ? 'they are' : 'it is'} worth elsewhere;` : ''} the listing period is constant within the test scrape and cannot score either.`);
  out.push('', figureLink(figures, 'feature-importance', 'Share of importance per feature group, headline test.'));
  return out.join('\n');
}

function drift(ctx: Context, served: AccuracyMetrics): string[] {
  const { m } = ctx;
  const h = ctx.headline;
  const k = ctx.kfold;
  const iv = m.intervals;
  const raised = iv.drift?.raised ?? [];
  const big = groupsBySize(h, iv.minRows);
  const rows = big.map((g) => [g, int(iv.district[g]?.n ?? 0), fixed(iv.district[g]?.q), raised.includes(g) ? 'yes' : 'no', pct(h.groups[g].intervalCoverage), pct(k.groups[g]?.intervalCoverage)]);
  const worst = big.filter((g) => coverageVerdict(h.groups[g], iv.coverage) === COVERAGE_VERDICTS[0]).sort((a, b) => h.groups[a].intervalCoverage - h.groups[b].intervalCoverage);
  return [
    `On the headline test the ${pct(iv.coverage, 0)} interval held only **${pct(h.overall.intervalCoverage)}** of asking prices (95% bounds ${coverageBounds(h.overall)}), while the same construction holds ${pct(k.overall.intervalCoverage)} on the random split. Intervals calibrated within one period do not hold ${ctx.gapMonths} months later: prices moved further than in-period errors cover${worst.length ? `, most of all for ${list(worst.slice(0, 3).map((g) => `${g} (${pct(h.groups[g].intervalCoverage)})`))}` : ''}.`,
    '',
    `So the served intervals carry a **drift allowance** (manifest \`intervals.drift\`: "${iv.drift?.protocol ?? 'none'}"): a group's quantile is raised to the forward split's where that is wider. ${raised.length} groups were raised${iv.drift ? `; the overall quantile is ${fixed(iv.global)} (forward split ${fixed(iv.drift.global)})` : ''}. The price is width where the market did not move: on the k-fold rows the served intervals hold ${pct(served.intervalCoverage)} (95% bounds ${coverageBounds(served)}) instead of ${pct(k.overall.intervalCoverage)}, with a median width of ${pct(served.medianIntervalWidth, 0)} of the estimate instead of ${pct(k.overall.medianIntervalWidth, 0)}. Wider than needed in a still market; for a move like the one between the two scrapes about 90% by construction (measured on that same move, so not an independent check).`,
    '',
    `Groups with at least ${iv.minRows} held-out listings:`,
    '',
    table(['make and model', 'calibration rows', 'q served (units of σ)', 'raised by the allowance', 'headline coverage (before)', 'k-fold coverage (before)'], rows, [false, true, true, false, true, true]),
  ];
}

// ───────────────────────────── figures ─────────────────────────────

function figureSpecs(ctx: Context): [VehicleFigureName, Spec][] {
  const specs: [VehicleFigureName, Spec][] = [];
  if (ctx.rows?.length) specs.push(['predicted-vs-actual', predictedVsActual(ctx)]);
  specs.push(['error-by-group', errorByGroup(ctx)]);
  specs.push(['interval-coverage', coverageByGroup(ctx)]);
  if (ctx.market.fits.length) specs.push(['depreciation', depreciation(ctx)]);
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
    title: { text: VEHICLE_FIGURE_TITLES['predicted-vs-actual'], subtitle: [`${int(rows.length)} held-out listings, model ${ctx.m.version}, in cells of a ${GRID}×${GRID} log grid.`, 'Solid line: predicted = actual; dashed lines: ±20%.'] },
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
function figureNames(groups: readonly string[]): { name: (group: string) => string; title: string } {
  const prefix = `${DOMESTIC_FAMILY} `;
  return groups.every((g) => g.startsWith(prefix))
    ? { name: (g) => g.slice(prefix.length), title: `${DOMESTIC_FAMILY} model` }
    : { name: (g) => g, title: 'Make and model' };
}

function errorByGroup(ctx: Context): Spec {
  const h = ctx.headline;
  const groups = groupsBySize(h, MIN_CLASS_ROWS);
  const names = figureNames(groups);
  const label = (g: string) => `${names.name(g)} (n=${int(h.groups[g].n)})`;
  return errorBarsSpec({
    title: VEHICLE_FIGURE_TITLES['error-by-group'],
    subtitle: [`Headline test, model ${ctx.m.version}: fitted on the older scrape, tested ${ctx.gapMonths} months later.`, 'Bars: median APE; black tick: MAPE; red diamond: MAPE on the k-fold split.'],
    yTitle: `${names.title} (held-out listings)`,
    rows: groups.map((g) => ({ label: label(g), medianApe: h.groups[g].medianApe, mape: h.groups[g].mape })),
    order: [...groups].sort((a, b) => h.groups[a].medianApe - h.groups[b].medianApe || cmp(a, b)).map(label),
    compare: { measure: 'MAPE, k-fold (random split)', values: groups.filter((g) => ctx.kfold.groups[g]).map((g) => ({ label: label(g), value: ctx.kfold.groups[g].mape })) },
  });
}

function coverageByGroup(ctx: Context): Spec {
  const h = ctx.headline;
  const k = ctx.kfold;
  const target = ctx.m.intervals.coverage;
  const groups = groupsBySize(h, MIN_CLASS_ROWS);
  const names = figureNames(groups);
  const panel = (title: string, values: Spec[]) => ({ title: { text: title, fontSize: 13 }, ...coverageLayers(values, target, names.title, 300) });
  return {
    ...BASE,
    title: { text: VEHICLE_FIGURE_TITLES['interval-coverage'], subtitle: [`Model ${ctx.m.version}. Dashed line: the 90% target; shaded: 88–92%; black lines: 95% bounds of each share.`, 'Both panels before the drift allowance; the served intervals add it.'] },
    hconcat: [
      panel(`Headline: ${ctx.gapMonths} months later`, [coveragePoint('All groups', h.overall, target), ...groups.map((g) => coveragePoint(names.name(g), h.groups[g], target))]),
      panel('k-fold: random split', [
        coveragePoint('All groups', k.overall, target),
        coveragePoint('All, served intervals', servedMetrics(ctx), target),
        ...groups.filter((g) => k.groups[g]).map((g) => coveragePoint(names.name(g), k.groups[g], target)),
      ]),
    ],
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
      width: 340,
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

function featureImportance(ctx: Context): Spec {
  return importanceSpec({
    title: VEHICLE_FIGURE_TITLES['feature-importance'],
    subtitle: [`Model ${ctx.m.version}: permutation importance on the headline held-out listings, share of total.`, 'A feature the test scrape never states scores 0 there.'],
    series: [{ name: 'this model', colour: PALETTE.ours }],
    rows: ctx.m.evaluation.featureImportance.map((f) => ({ feature: f.feature, values: [f.importance] })),
  });
}
