import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accuracyClass, type AccuracyMetrics } from '../../models/ensemble/metrics';
import type { AccuracyClass } from '../../models/ensemble/confidence';
import { CONFIDENCE_RULE, malformedSvg, MIN_CLASS_ROWS } from '../../tools/cards/card-kit';
import { MIN_CLASS_ROWS as VEHICLE_MIN_CLASS_ROWS } from '../../models/vehicle/training-rules';
import { vehicleGroup, VEHICLE_MONOTONIC_CONSTRAINTS } from '../../models/vehicle/features';
import { ingestVehicles, type VehicleIngestResult, type VehicleRecord } from '../../models/vehicle/ingest';
import { currentVersion, readManifest, setCurrentVersion, VEHICLE_DIR, type VehicleManifest } from '../../models/vehicle/manifest';
import type { VehicleMarketIndex } from '../../models/vehicle/market-index';
import {
  renderVehicleModelCard, vehicleFlagRules, vehicleMarketFindings, writeVehicleModelCard, FIT_AGES, ISSUE_16_REPORT, VEHICLE_ACCURACY_CLASS_RULE, VEHICLE_CODE_FACTS,
  VEHICLE_FIGURE_TITLES, type VehicleEvaluationFile,
} from '../../tools/cards/vehicle';
import { runVehicleModelCardCli } from '../../tools/models/vehicle/model-card-cli';
import { VEHICLE_OUT_OF_DISTRIBUTION_FLAGS } from '../../models/vehicle/runtime';
import { MAKES } from '../../models/vehicle/vocabulary';
import { Random } from '../../models/trainers/random';

const VERSION = '2099.01.0';
const GROUPS = ['Chevrolet Cobalt', 'Chevrolet Spark', 'Chevrolet Gentra', 'Chevrolet Tahoe'];
const SOURCES = ['avtoelon_2020', 'avtoelon_2022', 'avtoelon_chevrolet_2023'] as const;

/** Fixed, easy-to-check numbers: group i of GROUPS gets n = 400 − 100·i (Tahoe: 12), R² = 0.9 − 0.1·i, … */
function groupMetrics(i: number, coverage = 0.5 + 0.1 * i): AccuracyMetrics {
  return {
    n: i === 3 ? 12 : 400 - 100 * i,
    r2: 0.9 - 0.1 * i,
    mape: 0.08 + 0.03 * i,
    medianApe: 0.06 + 0.02 * i,
    maeUsd: 900 + 100 * i + 0.4,
    ppe10: 0.7 - 0.1 * i,
    ppe20: 0.9 - 0.05 * i,
    intervalCoverage: coverage,
    intervalCoverageBounds95: { low: coverage - 0.03, high: coverage + 0.03 },
    medianIntervalWidth: 0.3 + 0.02 * i,
  };
}

const HEADLINE: AccuracyMetrics = { n: 1012, r2: 0.81234, mape: 0.15432, medianApe: 0.14713, maeUsd: 1978.2, ppe10: 0.26, ppe20: 0.73, intervalCoverage: 0.9012, intervalCoverageBounds95: { low: 0.8812, high: 0.9178 }, medianIntervalWidth: 0.57 };
const OLDER: AccuracyMetrics = { n: 3000, r2: 0.84, mape: 0.131, medianApe: 0.092, maeUsd: 1211.6, ppe10: 0.55, ppe20: 0.8, intervalCoverage: 0.9876, intervalCoverageBounds95: { low: 0.9832, high: 0.9909 }, medianIntervalWidth: 0.7 };
const KFOLD: AccuracyMetrics = { n: 4321, r2: 0.87, mape: 0.1002, medianApe: 0.0617, maeUsd: 1036.8, ppe10: 0.67, ppe20: 0.88, intervalCoverage: 0.9074, intervalCoverageBounds95: { low: 0.8985, high: 0.9156 }, medianIntervalWidth: 0.318 };
const UNSEEN: AccuracyMetrics = { n: 4321, r2: 0.55, mape: 0.31, medianApe: 0.18, maeUsd: 2900, ppe10: 0.3, ppe20: 0.54, intervalCoverage: 0.96, intervalCoverageBounds95: { low: 0.95, high: 0.97 }, medianIntervalWidth: 2.1 };
const HEADLINE_OOS = { allowancePerMonth: 0.005, intervalCoverage: 0.6123, medianIntervalWidth: 0.35 };

/** domestic measured in both steps; russian and foreign take the market-wide step into 2023-08. */
function syntheticIndex(): VehicleMarketIndex {
  const points = (l2020: number, se2020: number, l2022: number, se2022: number, listings: [number, number, number]) => [
    { period: '2020-11', logLevel: l2020, se: se2020, listings: listings[0] },
    { period: '2022-06', logLevel: l2022, se: se2022, listings: listings[1] },
    { period: '2023-08', logLevel: 0, se: 0, listings: listings[2] },
  ];
  const steps = (first: number, se: number, cells: number, last = 0.15, lastSe = 0.008, lastCells = 30) => [
    { from: '2020-11', to: '2022-06', change: first, se, cells },
    { from: '2022-06', to: '2023-08', change: last, se: lastSe, cells: lastCells },
  ];
  return {
    method: 'matched-cell index (synthetic)',
    periods: [{ period: '2020-11', rows: 2000 }, { period: '2022-06', rows: 1000 }, { period: '2023-08', rows: 1321 }],
    newestPeriod: '2023-08',
    segments: {
      domestic: { makes: ['Chevrolet', 'Daewoo', 'Ravon'], points: points(-0.2, 0.0102, -0.15, 0.008, [1500, 700, 1321]), steps: steps(0.05, 0.006, 40) },
      russian: { makes: ['Lada'], points: points(-0.1, 0.0228, -0.15, 0.0113, [400, 250, 0]), steps: steps(-0.05, 0.02, 20, 0.15, 0.0113, 0) },
      foreign: { makes: ['Tesla'], points: points(-0.05, 0.0512, -0.15, 0.0113, [100, 50, 0]), steps: steps(-0.1, 0.05, 12, 0.15, 0.0113, 0) },
    },
  };
}

function syntheticManifest(ingest: VehicleIngestResult): VehicleManifest {
  const report = (protocol: string, overall: AccuracyMetrics, coverage?: number, weights = { gbdt: 0.45, forest: 0.55 }) => {
    const groups: VehicleManifest['evaluation']['headline']['groups'] = {};
    GROUPS.forEach((g, i) => {
      const m = groupMetrics(i, coverage);
      groups[g] = { ...m, accuracyClass: accuracyClass(m) };
    });
    return { protocol, weights, overall, groups, bySource: { avtoelon_chevrolet_2023: overall } };
  };
  // The service's class: the older split's where it has 30 held-out listings (here the same numbers), else low.
  const groupAccuracy: Record<string, AccuracyClass> = Object.fromEntries(GROUPS.map((g, i) => [g, groupMetrics(i).n >= MIN_CLASS_ROWS ? accuracyClass(groupMetrics(i)) : 'low']));
  const market = (listings: number) => ({ listings, years: { from: 2010, to: 2023 }, medianPriceByYear: {} });
  const headline = report('Synthetic forward split: fitted on 2020 and 2022, tested on 2023.', HEADLINE);
  const older = report('Synthetic forward split: fitted on 2020, tested on 2022.', OLDER, 0.97);
  const drift = {
    perMonth: 0.02,
    byLevel: { high: { perMonth: 0.015, rows: 900 }, medium: { perMonth: 0.025, rows: 800 } },
    coverage: 0.9,
    protocol: 'the largest over the synthetic splits',
    splits: [
      { test: '2022-06', newestTrained: '2020-11', months: 19, rows: 3000, perMonth: 0.005 },
      { test: '2023-08', newestTrained: '2022-06', months: 14, rows: 1012, perMonth: 0.02 },
    ],
  };
  return {
    kind: 'vehicle',
    version: VERSION,
    trainedAt: '2025-02-15T10:00:00.000Z',
    generatedBy: 'test',
    dataSnapshot: ingest.report.snapshot,
    training: { rows: 4321, bySource: { avtoelon_2020: 2000, avtoelon_2022: 1000, avtoelon_chevrolet_2023: 1321 }, byMake: { Chevrolet: 4000, Lada: 321 }, seconds: 1, ingest: ingest.report },
    target: 'log_price',
    features: { names: ['make_prior', 'model_prior', 'year', 'age_at_listing', 'log_mileage', 'period_index'], encoding: { marketMean: 9, make: {}, model: {}, smoothing: 10, newestPeriod: '2023-08' } },
    onnx: { file: 'ensemble.onnx', input: 'features', output: 'prediction', columns: ['gbdt', 'forest', 'interval-scale'] },
    members: [
      { name: 'gbdt', algorithm: 'boosted trees', weight: 1, hyperparameters: { maxIter: 10, monotonicCst: [0, 0, 1, -1, -1, 0] } },
      { name: 'forest', algorithm: 'random forest', weight: 0, hyperparameters: { nEstimators: 5, monotonicCst: [0, 0, 1, -1, -1, 0] } },
    ],
    intervals: {
      coverage: 0.9, method: 'normalised split conformal (synthetic)', scale: { column: 'interval-scale', floor: 0.005, pooling: { power: 0.5, center: 0.05 } }, global: 5.2, minRows: 60, thinDataFactor: 1.3, outOfDistributionFactor: 1.25,
      district: Object.fromEntries(GROUPS.map((g, i) => [g, { q: 4 + i, n: 500 - 100 * i, own: true }])),
    },
    marketIndex: syntheticIndex(),
    drift,
    bases: { make: { q: 0.7, rows: 4321, protocol: 'synthetic unseen model' }, segment: { q: 0.55, rows: 4321, protocol: 'synthetic unseen make' }, minMakeListings: 30 },
    market: {
      group: { 'Chevrolet Cobalt': market(1992), 'Chevrolet Spark': market(1536), 'Chevrolet Bolt': market(3), 'Lada Vesta': market(12), 'Tesla Model 3': market(2) },
      make: { Chevrolet: 3531, Lada: 12, Tesla: 2 },
      catalog: [
        { make: 'Chevrolet', listings: 3531, models: [{ model: 'Cobalt', listings: 1992, years: { from: 2012, to: 2023 } }, { model: 'Spark', listings: 1536, years: { from: 2010, to: 2023 } }, { model: 'Bolt', listings: 3, years: { from: 2020, to: 2022 } }] },
        { make: 'Lada', listings: 12, models: [{ model: 'Vesta', listings: 12, years: { from: 2016, to: 2022 } }] },
        { make: 'Tesla', listings: 2, models: [{ model: 'Model 3', listings: 2, years: { from: 2019, to: 2021 } }] },
      ],
    },
    minListings: 5,
    thinListings: 30,
    confidenceWidths: { full: 0.3, none: 1 },
    evaluation: {
      headline,
      forward: [
        { ...older, drift: drift.splits[0], outOfSample: { allowancePerMonth: 0.02, intervalCoverage: OLDER.intervalCoverage, medianIntervalWidth: OLDER.medianIntervalWidth } },
        { ...headline, drift: drift.splits[1], outOfSample: HEADLINE_OOS },
      ],
      kfold: report('Synthetic 5-fold cross-validation.', KFOLD, 0.9),
      unseenModel: report('Synthetic unseen model.', UNSEEN, 0.96, { gbdt: 1, forest: 0 }),
      unseenMake: report('Synthetic unseen make.', UNSEEN, 0.96, { gbdt: 1, forest: 0 }),
      byConfidence: [
        { level: 'high', n: 500, medianApe: 0.1, ppe10: 0.5, ppe20: 0.8, coverage: 0.9 },
        { level: 'medium', n: 400, medianApe: 0.15, ppe10: 0.35, ppe20: 0.7, coverage: 0.89 },
        { level: 'low', n: 112, medianApe: 0.4, ppe10: 0.1, ppe20: 0.2, coverage: 0.9107 },
      ],
      featureImportance: [{ feature: 'make and model', importance: 0.7 }, { feature: 'model year', importance: 0.3 }, { feature: 'mileage', importance: 0 }],
    },
    groupAccuracy,
  };
}

/** 40 held-out rows per group, estimates 25% below to 15% above the asking price, intervals ±15%. */
function syntheticEvaluation(): VehicleEvaluationFile {
  const random = new Random(12345);
  const row = (group: string) => {
    const actual = Math.round(5000 + 20000 * random.next());
    const predicted = Math.round(actual * (0.75 + 0.4 * random.next()));
    return { group, source: 'avtoelon_chevrolet_2023', actual, predicted, low: Math.round(predicted * 0.85), high: Math.round(predicted * 1.15) };
  };
  return { protocol: 'Synthetic forward split: fitted on 2020 and 2022, tested on 2023.', rows: GROUPS.flatMap((group) => Array.from({ length: 40 }, () => row(group))) };
}

// Formatting and arithmetic as a reader of the card would redo them, written out again here on purpose.
const pct = (x: number, d = 1) => `${(x * 100).toFixed(d)}%`;
const signed = (x: number, d = 1) => (x >= 0 ? `+${pct(x, d)}` : `−${pct(-x, d)}`);
const int = (x: number) => String(Math.round(x)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const middle = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const months = (from: string, to: string) => (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7));
/** Wilson 95% bounds of a share of n. */
const wilson = (share: number, n: number) => {
  const k = Math.round(share * n);
  const p = k / n;
  const z = 1.96;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return `${pct(Math.max(0, centre - half))}–${pct(Math.min(1, centre + half))}`;
};
/** A valuation `m` months past the data at an allowance rate, with an in-period interval of relative width `width`. */
const pastTheData = (rate: number, m: number, width: number) => {
  const calibrated = Math.asinh(width / 2);
  const allowance = rate * m;
  const half = Math.sqrt(calibrated ** 2 + allowance ** 2);
  return { allowance, half, widening: Math.round((Math.sinh(half) / Math.sinh(calibrated) - 1) * 1000) / 1000 };
};
const monthName = (period: string) => `${['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][Number(period.slice(5, 7)) - 1]} ${period.slice(0, 4)}`;
const times = (x: number) => `÷${Math.exp(x).toFixed(2)} to ×${Math.exp(x).toFixed(2)}`;

/** The within-model slope of the Cobalt's log price on age in one scrape, recomputed without the card's code. */
function cobaltFit(records: readonly VehicleRecord[], source: string, scrapeYear: number) {
  const rows = records.filter((r) => r.source === source && vehicleGroup(r) === 'Chevrolet Cobalt').map((r) => ({ age: scrapeYear - r.year, y: Math.log(r.priceUsd) }));
  const fit = rows.filter((r) => r.age >= FIT_AGES.from && r.age <= FIT_AGES.to);
  const meanAge = fit.reduce((s, r) => s + r.age, 0) / fit.length;
  const meanY = fit.reduce((s, r) => s + r.y, 0) / fit.length;
  const slope = fit.reduce((s, r) => s + (r.age - meanAge) * (r.y - meanY), 0) / fit.reduce((s, r) => s + (r.age - meanAge) ** 2, 0);
  return { rate: 1 - Math.exp(slope), listings: fit.length };
}

function cobaltPrices(records: readonly VehicleRecord[], source: string, year: number): number[] {
  return records.filter((r) => r.source === source && vehicleGroup(r) === 'Chevrolet Cobalt' && r.year === year).map((r) => r.priceUsd);
}

describe('vehicle model card', () => {
  let ingest: VehicleIngestResult;
  const roots: string[] = [];
  const artifacts = (withEvaluation = true, manifest?: VehicleManifest) => {
    const root = mkdtempSync(join(tmpdir(), 'vehicle-card-'));
    roots.push(root);
    mkdirSync(join(root, VERSION));
    writeFileSync(join(root, VERSION, 'manifest.json'), JSON.stringify(manifest ?? syntheticManifest(ingest)));
    if (withEvaluation) writeFileSync(join(root, VERSION, 'evaluation.json'), JSON.stringify(syntheticEvaluation()));
    setCurrentVersion(VERSION, root);
    return root;
  };
  let card: Awaited<ReturnType<typeof renderVehicleModelCard>>;

  beforeAll(async () => {
    ingest = ingestVehicles({ sources: [...SOURCES] });
    card = await renderVehicleModelCard(VERSION, { artifactsRoot: artifacts(), ingest });
  });
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  test('sections, header, the bases and the rules quoted word for word', () => {
    const { markdown, warnings } = card;
    expect(warnings).toEqual([]);
    for (const heading of [
      '# Model card: used-vehicle valuation, vehicle model 2099.01.0', '## Summary for the credit committee', '## What this means for a bank today',
      '## Honesty rules, flags and confidence', '### What an estimate stands on', '### Confidence rule', '### Accuracy class of a make/model group', '## Data', '### The three scrapes',
      '### Ingestion', '### Listings per make', '## The market', '### Depreciation by age', '### New at the dealer, dearer used: the waiting-list premium', '## Market index', '## Method',
      '### Sane ageing: monotonic constraints', '### Training rows', '### Ensemble', '### Intervals (in period)', '### Drift allowance (past the newest data)', '## Evaluation',
      '### By make and model, 2022→2023 (headline)', '### By make and model, 2020→2022', '### Is the stated confidence honest, and does it sort valuations by error?',
      "### Valuations on the make's and the segment's level", '### In-period view: by make and model (k-fold)', '## How to read the numbers',
    ]) expect(markdown).toContain(heading);
    expect(markdown).toContain('| Trained at | 2025-02-15T10:00:00.000Z |');
    expect(markdown).toContain('| Ensemble members and weights | `gbdt` 1.00, `forest` 0.00 (learned out of fold; 2 members; `forest` carries no weight) |');
    expect(markdown).toContain('| Evaluation: forward in time | 2020→2022: fitted on November 2020, tested on the 3,000 listings of June 2022, 19 months later; **2022→2023 (headline)**: fitted on November 2020 and June 2022, tested on the 1,012 listings of August 2023, 14 months later |');
    for (const f of ingest.report.snapshot.files) expect(markdown).toContain(`| \`${f.path}\` | ${int(f.rows)} | \`${f.sha256}\` |`);
    // market.group: Cobalt and Spark solid, Lada Vesta thin, Chevrolet Bolt (3) on its make's level, Tesla Model 3 (2) on the segment's (Tesla has 2 listings).
    expect(markdown).toContain('| Valued on its own listings (basis `model`) | make and model with `minListings` = 5 training listings or more (3 make/model groups of 5); flagged THIN_MODEL_DATA below `thinListings` = 30 (1 make/model group) |');
    expect(markdown).toContain('flagged MODEL_NOT_IN_MARKET_DATA (1 make/model group of the data) |');
    expect(markdown).toContain(`a make with fewer than 30 listings (2 makes of the data, ${MAKES.length - 3} catalogue makes with none), given a body type: flagged MAKE_NOT_IN_MARKET_DATA (1 make/model group of the data) |`);
    expect(markdown).toContain(`| \`make\` | fewer listings or a model the catalogue does not list, and the make (badge family) has \`minMakeListings\` = 30 or more | plain conformal, q = 0.700: estimate ${times(0.7)} | MODEL_NOT_IN_MARKET_DATA | 1 |`);
    expect(markdown).toContain(`plain conformal, q = 0.550: estimate ${times(0.55)} | MAKE_NOT_IN_MARKET_DATA | 1 |`);
    expect(markdown).toContain('| none | such a make without a body type | no number: INSUFFICIENT_MARKET_DATA (HTTP 422 on REST, an error entry on GraphQL) |');
    expect(markdown).toContain('a Chevrolet Cobalt before 2011, for example');
    expect(markdown).toContain(CONFIDENCE_RULE);
    expect(markdown).toContain('W1 = 0.300 and W0 = 1.000, the 10th and 90th percentiles of the in-period relative widths on the oldest forward split (2020→2022)');
    expect(markdown).toContain(VEHICLE_ACCURACY_CLASS_RULE);
    expect(VEHICLE_ACCURACY_CLASS_RULE).toMatch(/^A make\/model group with fewer than 30 held-out listings is \*\*low\*\*/);
    expect(markdown).not.toMatch(/undefined|NaN|Infinity/);
  });

  test('a version trained with an observation export says so in its header, with the source labelled by its months; one without has no such line', async () => {
    expect(card.markdown).not.toContain('| Observations |');
    const base = syntheticManifest(ingest);
    const manifest: VehicleManifest = {
      ...base,
      training: { ...base.training, rows: 4326, bySource: { ...base.training.bySource, observations: 5 } },
      observations: {
        file: 'org-vehicles.ndjson', sha256: 'ab12', lines: 11, otherKinds: 1, kept: 5, dropped: { unknown_model: 2, price_outlier: 1 }, corrections: {},
        byPriceType: { sale: { lines: 6, kept: 2 }, appraisal: { lines: 2, kept: 1 }, listing: { lines: 3, kept: 2 } },
        periods: { first: '2026-08', last: '2026-11' }, byPeriod: { '2026-08': 1, '2026-09': 1, '2026-10': 1, '2026-11': 2 }, priceFences: 0, unfenced: 5,
      },
    };
    const { markdown } = await renderVehicleModelCard(VERSION, { artifactsRoot: artifacts(true, manifest), ingest });
    expect(markdown).toContain('| Training rows | 4,326 listings (2,000 from avtoelon_2020 (November 2020), 1,000 from avtoelon_2022 (June 2022), 1,321 from avtoelon_chevrolet_2023 (August 2023), 5 from observations (August 2026 to November 2026)) |');
    expect(markdown).toContain(
      "| Observations | the organisation's export `org-vehicles.ndjson` (SHA-256 `ab12`): 5 of 11 vehicle lines kept, observed August 2026 to November 2026; by price type (kept of lines) sale 2 of 6, appraisal 1 of 2, listing 2 of 3; "
      + 'dropped 2 `unknown_model`, 1 `price_outlier` (reasons in models/vehicle/ingest/observations.ts).'
      + ' Each is dated by the month observed: a forward split fits on it only when that month is before its test month, and never tests on it; the served model and the market index take it as any dated row. |',
    );
    // The forward splits' "fitted on" still names the listing snapshots.
    expect(markdown).toContain('**2022→2023 (headline)**: fitted on November 2020 and June 2022, tested on');
  });

  test('statements of the previous card that are no longer true are gone', () => {
    const { markdown } = card;
    for (const gone of ['hedonic', 'raised by the allowance', 'its interval is widened ×1.25', 'The two scrapes', 'Both files', 'kfoldWithDriftAllowance', 'k-fold, served intervals', 'a group\'s quantile is raised']) {
      expect(markdown).not.toContain(gone);
    }
  });

  test('the headline is forward in time: in-sample coverage said so, the out-of-sample figures, how much faster the market moved', () => {
    const { markdown } = card;
    expect(markdown).toContain(`Its 90% range held ${pct(HEADLINE.intervalCoverage)} of those prices, but **that coverage is partly in sample**`);
    expect(markdown).toContain("which is this split's own (2.00% a month)");
    expect(markdown).toContain(`the range held ${pct(HEADLINE_OOS.intervalCoverage)} on 2022→2023 (with 0.50% a month) and ${pct(OLDER.intervalCoverage)} on 2020→2022 (with 2.00% a month): the market moved ${(0.02 / 0.005).toFixed(1)} times faster in 2022–2023 than in 2020–2022 (in allowance needed per month)`);
    expect(markdown).toContain('| 2022→2023 (headline): served allowance, partly in sample | 1,012 | 0.812 | 15.4% | 14.7% | 1,978 | 26% | 73% | 90.1% | 88.1%–91.8% | 57% |');
    expect(markdown).toContain(`| 2022→2023: 2020→2022 allowance alone (0.50% a month), out of sample | 1,012 |  |  |  |  |  |  | ${pct(HEADLINE_OOS.intervalCoverage)} | ${wilson(HEADLINE_OOS.intervalCoverage, 1012)} | 35% |`);
    // The older split's served rates are the headline split's: its served scoring is out of sample, one row.
    expect(markdown).toContain("| 2020→2022: served allowance (2022→2023's rates), out of sample | 3,000 | 0.840 | 13.1% | 9.2% | 1,212 | 55% | 80% | 98.8% |");
    expect(markdown).toContain('| k-fold, in period only (no allowance) | 4,321 | 0.870 | 10.0% | 6.2% | 1,037 | 67% | 88% | 90.7% | 89.8%–91.6% | 32% |');
    expect(markdown).toContain('| unseen model, in period (basis `make`) | 4,321 | 0.550 | 31.0% | 18.0% | 2,900 |');
    GROUPS.forEach((g, i) => {
      const m = groupMetrics(i);
      const used = i === 3 ? 'low' : accuracyClass(m);
      expect(markdown).toContain(`| ${g} | ${int(m.n)} | ${m.r2.toFixed(3)} | ${pct(m.mape)} | ${pct(m.medianApe)} | ${int(m.maeUsd)} | ${pct(m.ppe10, 0)} | ${pct(m.ppe20, 0)} | ${pct(m.intervalCoverage)} | ${pct(m.intervalCoverage - 0.03)}–${pct(m.intervalCoverage + 0.03)} | ${pct(m.medianIntervalWidth, 0)} | ${accuracyClass(m)} | ${used} | ${i === 3 ? '–' : '2020→2022'} |`);
    });
    expect(markdown).toContain('### Direction of errors (headline)');
  });

  test('the drift allowance today: months, log half-width and interval multiple per level, and market_level, from the manifest', () => {
    const { markdown } = card;
    const age = months('2023-08', '2025-02');
    expect(age).toBe(18);
    expect(markdown).toContain(`**The market data are ${age} months old.**`);
    expect(markdown).toContain('which raises its FSD and lowers its stated confidence: **every valuation the service makes now carries it**.');
    for (const [level, rate, rows, own] of [['high', 0.015, '900', true], ['medium', 0.025, '800', true], ['low', 0.02, '–', false]] as const) {
      const x = pastTheData(rate, age, KFOLD.medianIntervalWidth);
      expect(markdown).toContain(`| ${level} | ${pct(rate, 2)}${own ? '' : ' (overall)'} | ${rows} | ${age} | ${x.allowance.toFixed(3)} | ${times(x.allowance)} | ${x.half.toFixed(3)} | ${times(x.half)} | ${signed(x.widening, 0)} |`);
    }
    // The example reply is at the level most headline listings get (high, 500).
    const high = pastTheData(0.015, age, KFOLD.medianIntervalWidth);
    expect(markdown).toContain(`"valuation_date": "2025-02-15",\n    "newest_data_period": "2023-08",\n    "data_age_months": ${age},\n    "index_ratio": 1,\n    "interval_widening": ${high.widening}`);
    // Linear against √months, on the splits' own numbers.
    const root = Math.max(0.005 * Math.sqrt(19), 0.02 * Math.sqrt(14));
    expect(markdown).toContain(`the 19-month gap of 2020→2022 needed a log half-width of ${(0.005 * 19).toFixed(3)} in all and the 14-month gap of 2022→2023 needed a log half-width of ${(0.02 * 14).toFixed(3)} in all`);
    expect(markdown).toContain(`measured per √month the same splits give at most ${root.toFixed(4)}, which at ${age} months is a half-width of ${(root * Math.sqrt(age)).toFixed(3)}`);
    expect(markdown).toContain(`against the linear ${(0.02 * age).toFixed(3)}`);
    expect(markdown).toContain(ISSUE_16_REPORT);
    expect(markdown).toContain('| 2022→2023 | June 2022 | August 2023 | 14 | 1,012 | 2.00% |');
    expect(markdown).toContain('| low | 2.00% (overall: no rate of its own) | – |');
  });

  test('the market index: levels, bands, steps with their matched cells, moves per year, the borrowed steps said so', () => {
    const { markdown } = card;
    const index = syntheticIndex();
    for (const segment of ['domestic', 'russian', 'foreign'] as const) {
      const { points, steps } = index.segments[segment];
      const p = points[2];
      const s = steps[1];
      const perYear = Math.round((s.change * 12) / 14 * 1000) / 1000;
      expect(markdown).toContain(`| ${segment} | August 2023 | ${int(p.listings)} | 1.000 | 1.000–1.000 | ${signed(Math.exp(s.change) - 1)} | ${s.se.toFixed(4)} | ${s.cells ? int(s.cells) : '0 (market-wide step)'} | +${perYear.toFixed(3)} |`);
      const q = points[0];
      expect(markdown).toContain(`| ${segment} | November 2020 | ${int(q.listings)} | ${Math.exp(q.logLevel).toFixed(3)} | ${Math.exp(q.logLevel - 1.96 * q.se).toFixed(3)}–${Math.exp(q.logLevel + 1.96 * q.se).toFixed(3)} | – |`);
    }
    expect(markdown).toContain(`the russian and the foreign segments had no matched cells from June 2022 to August 2023 and took the market-wide step, which there is the domestic cells' step (${signed(Math.exp(0.15) - 1)})`);
    expect(markdown).toContain(`the steps ran from ${signed(Math.exp(-0.1) - 1)} (foreign) to ${signed(Math.exp(0.05) - 1)} (domestic)`);
    expect(markdown).toContain('Published by GraphQL `vehicleMarketIndex(segment)`');
  });

  test('sane ageing and the confidence check, from the manifest', () => {
    const { markdown } = card;
    expect(markdown).toContain('Both tree members carry the same monotonic constraints');
    expect(markdown).toContain('| `year` | +1 | a higher value never lowers the estimate |');
    expect(markdown).toContain('| `log_mileage` | −1 | a higher value never raises the estimate |');
    expect(markdown).toContain('**The model flattens this premium on purpose.**');
    expect(markdown).toContain('The median error rises from 10.0% (high) to 15.0% (medium) to 40.0% (low), as it should.');
    // The synthetic manifest has no share within ±FSD (as before issue 32): those columns say nothing.
    expect(markdown).toContain(`| low | 112 | 11% | – | – | 40.0% | 10% | 20% | 91.1% | ${wilson(0.9107, 112)} | consistent with 88–92% |`);
    expect(markdown).toContain('Coverage holds at every level, but in sample');
    expect(markdown).toContain(`with weight ${VEHICLE_CODE_FACTS.maskedCopyWeight} (models/vehicle/train.ts)`);
    expect(markdown).toContain('`forest` got weight 0');
    // The views blend their members with the served weights, so their coverage is the served interval's.
    expect(markdown).toContain('The members\' out-of-fold predictions are blended with the served weights ({"gbdt":1,"forest":0}), as a served valuation is.');
    expect(markdown).toContain(`| unseen-model | \`make\` | 4,321 | 0.700 | estimate ${times(0.7)} | ${pct(2 * Math.sinh(0.7), 0)} |`);
  });

  // Which flags the runtime raises, at which thresholds, and which it counts against the confidence: test/models/vehicle-flags.test.ts, by valuing.
  test('the flag table lists every rule: when it is raised, whether it widens the interval, whether it lowers the score', () => {
    const rules = vehicleFlagRules({ thinListings: 30, minListings: 5, bases: { minMakeListings: 30 } as VehicleManifest['bases'], marketIndex: syntheticIndex() });
    expect(rules.length).toBeGreaterThanOrEqual(10);
    for (const r of rules) expect(card.markdown).toContain(`| \`${r.flag}\` | ${r.when} | ${VEHICLE_OUT_OF_DISTRIBUTION_FLAGS.has(r.flag) ? 'widens ×1.25' : 'no'} | ${r.scored ? 'yes' : 'no'} |`);
  });

  // The card quotes the trainer's rules from models/vehicle/training-rules.ts itself; what is left to check is the class threshold, which the cards hold apart.
  test('the trainer\'s class threshold is the one the cards describe', () => {
    expect(VEHICLE_MIN_CLASS_ROWS).toBe(MIN_CLASS_ROWS);
    expect(VEHICLE_MONOTONIC_CONSTRAINTS.filter((c) => c !== 0)).toHaveLength(3);
  });

  test('the market numbers quoted are the listings\' own, recomputed here', () => {
    const { markdown } = card;
    const records = ingest.records;
    const fits = SOURCES.map((s, k) => cobaltFit(records, s, [2020, 2022, 2023][k]));
    const cell = (f: { rate: number; listings: number }) => `${esc(pct(f.rate))} \\(\\d+\\.\\d%–\\d+\\.\\d%\\) \\| ${esc(int(f.listings))}`;
    expect(markdown).toMatch(new RegExp(`\\| Cobalt \\| ${fits.map(cell).join(' \\| ')} \\|`));
    expect(markdown).toContain(`a Cobalt ${pct(fits[0].rate)} a year`);
    for (const f of fits) {
      expect(f.rate).toBeGreaterThan(0.02);
      expect(f.rate).toBeLessThan(0.08);
    }

    // The same model and model year in consecutive scrapes.
    const change = (from: string, to: string) => middle(cobaltPrices(records, to, 2019)) / middle(cobaltPrices(records, from, 2019)) - 1;
    const early = change('avtoelon_2020', 'avtoelon_2022');
    const late = change('avtoelon_2022', 'avtoelon_chevrolet_2023');
    const tableAfter = (heading: string) => markdown.slice(markdown.indexOf(heading));
    expect(tableAfter('### November 2020 → June 2022')).toContain(`| 2019 | ${signed(early)} |`);
    expect(tableAfter('### June 2022 → August 2023')).toContain(`| 2019 | ${signed(late)} |`);
    expect(late).toBeGreaterThan(0.15);

    // The dealer's price: the most common asking price of a new (2023) Cobalt in August 2023.
    const fresh = cobaltPrices(records, 'avtoelon_chevrolet_2023', 2023);
    const counts = new Map<number, number>();
    for (const p of fresh) counts.set(p, (counts.get(p) ?? 0) + 1);
    const dealer = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
    const oneYearOld = middle(cobaltPrices(records, 'avtoelon_chevrolet_2023', 2022));
    expect(dealer).toBeLessThan(oneYearOld);
    expect(markdown).toContain(`A new Cobalt at the dealer's price (${int(dealer)} USD in August 2023) sits below a one-year-old used one (median ${int(oneYearOld)} USD, ${signed(oneYearOld / dealer - 1)})`);
  });

  test('the findings follow the data: prices 10% higher in 2023 move the change and the dealer price, not the earlier depreciation', () => {
    const base = vehicleMarketFindings(ingest.records);
    const dearer = vehicleMarketFindings(ingest.records.map((r) => (r.source === 'avtoelon_chevrolet_2023' ? { ...r, priceUsd: r.priceUsd * 1.1 } : r)));
    const change = (f: typeof base, to: string) => f.changes.find((c) => c.series === 'Cobalt' && c.year === 2019 && c.to === to)!.change;
    expect(1 + change(dearer, 'avtoelon_chevrolet_2023')).toBeCloseTo((1 + change(base, 'avtoelon_chevrolet_2023')) * 1.1, 10);
    expect(change(dearer, 'avtoelon_2022')).toBe(change(base, 'avtoelon_2022'));
    const rate = (f: typeof base, source: string) => f.fits.find((x) => x.series === 'Cobalt' && x.source === source)!.annualRate;
    expect(rate(dearer, 'avtoelon_2022')).toBe(rate(base, 'avtoelon_2022'));
    expect(rate(dearer, 'avtoelon_chevrolet_2023')).toBeCloseTo(rate(base, 'avtoelon_chevrolet_2023'), 10);
    const dealer = (f: typeof base) => f.newCars.find((x) => x.series === 'Cobalt' && x.source === 'avtoelon_chevrolet_2023')!.dealer!.price;
    expect(dealer(dearer)).toBeCloseTo(dealer(base) * 1.1, 6);
    // Other makes exist only in the 2020 and 2022 scrapes, and depreciate faster than the Cobalt there.
    const others = base.fits.filter((x) => x.series === 'other makes');
    expect(others.map((x) => x.source)).toEqual(['avtoelon_2020', 'avtoelon_2022']);
    for (const o of others) expect(o.annualRate).toBeGreaterThan(rate(base, o.source));
  });

  test('six figures, valid SVG, with their titles', () => {
    const { figures, markdown } = card;
    expect(Object.keys(figures).sort()).toEqual(Object.keys(VEHICLE_FIGURE_TITLES).sort());
    for (const [name, title] of Object.entries(VEHICLE_FIGURE_TITLES)) {
      expect(malformedSvg(figures[name])).toBeNull();
      expect(figures[name]).toContain(`>${title}</text>`);
      expect(markdown).toContain(`(vehicle-model-card/${name}.svg)`);
    }
    expect(figures['predicted-vs-actual']).toContain('Actual asking price (USD, log scale)');
    expect(figures['error-by-group']).toContain('MAPE, 2020→2022 split');
    expect(figures['interval-coverage']).toContain('88–92%');
    expect(figures['interval-coverage']).toContain('2022→2023: 14 months later (headline)');
    expect(figures.depreciation).toContain('other makes');
    expect(figures.depreciation).toContain('Cobalt');
    for (const segment of ['domestic', 'russian', 'foreign']) expect(figures['market-index']).toContain(`>${segment}</text>`);
  });

  test('deterministic and written: two writes are byte-identical; a version without evaluation.json drops the scatter', async () => {
    const artifactsRoot = artifacts();
    const docsDir = join(artifactsRoot, 'docs');
    const first = await writeVehicleModelCard(VERSION, { artifactsRoot, docsDir, ingest });
    expect(first.markdown).toBe(join(docsDir, 'VEHICLE_MODEL_CARD.md'));
    expect(first.figures.sort()).toEqual(Object.keys(VEHICLE_FIGURE_TITLES).map((n) => join(docsDir, 'vehicle-model-card', `${n}.svg`)).sort());
    const bytes = [first.markdown, ...first.figures].map((p) => readFileSync(p));
    expect(bytes[0].toString()).toBe(card.markdown);
    await writeVehicleModelCard(VERSION, { artifactsRoot, docsDir, ingest });
    expect([first.markdown, ...first.figures].map((p) => readFileSync(p))).toEqual(bytes);

    unlinkSync(join(artifactsRoot, VERSION, 'evaluation.json'));
    await writeVehicleModelCard(VERSION, { artifactsRoot, docsDir, ingest });
    const markdown = readFileSync(join(docsDir, 'VEHICLE_MODEL_CARD.md'), 'utf8');
    expect(markdown).toContain('not drawn, this version has no evaluation.json');
    expect(existsSync(join(docsDir, 'vehicle-model-card', 'predicted-vs-actual.svg'))).toBe(false);
    expect(existsSync(join(docsDir, 'vehicle-model-card', 'depreciation.svg'))).toBe(true);
    expect(existsSync(join(docsDir, 'vehicle-model-card', 'market-index.svg'))).toBe(true);
  });

  test('CLI: CURRENT by default, prints the paths; unknown version is refused', async () => {
    const artifactsRoot = artifacts();
    const docsDir = join(artifactsRoot, 'docs');
    const lines: string[] = [];
    expect(await runVehicleModelCardCli([], (l) => lines.push(l), { artifactsRoot, docsDir, ingest })).toBe(0);
    expect(lines).toHaveLength(1 + Object.keys(VEHICLE_FIGURE_TITLES).length);
    expect(lines[0]).toMatch(/VEHICLE_MODEL_CARD\.md$/);
    const refused: string[] = [];
    expect(await runVehicleModelCardCli(['2000.01.0'], (l) => refused.push(l), { artifactsRoot, docsDir, ingest })).toBe(2);
    expect(refused[0]).toMatch(/unknown version 2000\.01\.0/);
  });

  const served = currentVersion(VEHICLE_DIR);
  (served ? test : test.skip)('the version in service: its forward splits, drift allowance, index and data unchanged since training', async () => {
    const m = readManifest(served!);
    const { markdown, warnings } = await renderVehicleModelCard(served!, { ingest });
    expect(warnings).toEqual([]);
    expect(markdown).not.toContain('differ from this version\'s snapshot');
    const forward = m.evaluation.forward;
    const h = forward[forward.length - 1];
    expect(h.overall).toEqual(m.evaluation.headline.overall);
    expect(markdown).toContain(`| ${int(h.overall.n)} | ${h.overall.r2.toFixed(3)} | ${pct(h.overall.mape)} | ${pct(h.overall.medianApe)} | ${int(h.overall.maeUsd)} |`);
    expect(markdown).toContain(`Its 90% range held ${pct(h.overall.intervalCoverage)} of those prices, but **that coverage is partly in sample**`);
    for (const f of forward) if (f.outOfSample) expect(markdown).toContain(`${pct(f.outOfSample.intervalCoverage)} on ${f.drift.newestTrained.slice(0, 4)}→${f.drift.test.slice(0, 4)} (with ${pct(f.outOfSample.allowancePerMonth, 2)} a month)`);
    const k = m.evaluation.kfold.overall;
    expect(markdown).toContain(`| k-fold, in period only (no allowance) | ${int(k.n)} | ${k.r2.toFixed(3)} | ${pct(k.mape)} | ${pct(k.medianApe)} | ${int(k.maeUsd)} |`);
    // Median APE and coverage per model on the headline split.
    for (const [g, x] of Object.entries(h.groups)) expect(markdown).toContain(`| ${g} | ${int(x.n)} | ${Number.isFinite(x.r2) ? x.r2.toFixed(3) : '–'} | ${pct(x.mape)} | ${pct(x.medianApe)} |`);
    // Today: the reference date is trainedAt, the months counted as the runtime counts them.
    const age = months(m.marketIndex.newestPeriod, m.trainedAt.slice(0, 7));
    expect(markdown).toContain(`**The market data are ${age} months old.**`);
    for (const level of ['high', 'medium', 'low'] as const) {
      const rate = m.drift.byLevel[level]?.perMonth ?? m.drift.perMonth;
      const x = pastTheData(rate, age, k.medianIntervalWidth);
      expect(markdown).toContain(`| ${x.allowance.toFixed(3)} | ${times(x.allowance)} | ${x.half.toFixed(3)} | ${times(x.half)} | ${signed(x.widening, 0)} |`);
    }
    // The index as vehicleMarketIndex serves it.
    for (const [segment, { points, steps }] of Object.entries(m.marketIndex.segments)) {
      for (const p of points.slice(1)) {
        const s = steps.find((x) => x.to === p.period)!;
        expect(markdown).toContain(`| ${segment} | ${monthName(p.period)} | ${int(p.listings)} | ${Math.exp(p.logLevel).toFixed(3)} | ${Math.exp(p.logLevel - 1.96 * p.se).toFixed(3)}–${Math.exp(p.logLevel + 1.96 * p.se).toFixed(3)} | ${signed(Math.exp(s.change) - 1)} | ${s.se.toFixed(4)} | ${s.cells ? int(s.cells) : '0 (market-wide step)'} |`);
      }
    }
    for (const c of m.evaluation.byConfidence) expect(markdown).toContain(`| ${c.level} | ${int(c.n)} |`);
  });
});

describe('malformedSvg (the guard every card figure passes)', () => {
  test('names what would not parse', () => {
    const root = '<svg xmlns="http://www.w3.org/2000/svg"';
    expect(malformedSvg(`${root}><g><path d="M0"/></g></svg>\n`)).toBeNull();
    expect(malformedSvg('<html></html>')).toMatch(/<svg> root/);
    expect(malformedSvg(`${root}><g></svg>`)).toBe('</svg> closes another element');
    expect(malformedSvg(`${root}><g>`)).toBe('does not end with </svg>');
  });
});
