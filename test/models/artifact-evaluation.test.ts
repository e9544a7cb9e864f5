/**
 * The shipped artifacts agree with each other (models/artifacts/<kind>/<CURRENT>/).
 *
 * What evaluation.json holds: the headline (forward-in-time) test row by row, as actual price,
 * prediction and 90% interval in whole dollars, with the row's district or group, segment and source;
 * no features. Those predictions come from the headline fit (every listing before the newest
 * snapshot), which is not shipped: the shipped ensemble.onnx is fitted on every row, the test
 * rows included, so it cannot reproduce them. What can be recomputed, is:
 *
 * 1. Every headline figure the manifest records (overall, per district or vehicle group, per
 *    segment, per source: n, R², MAPE, median APE, MAE, PPE10/20, interval coverage and its Wilson
 *    bounds, median interval width), from evaluation.json's rows. The rows are rounded to the dollar,
 *    so each figure is bounded exactly: the recorded one must lie between its values over every
 *    unrounding (each prediction and interval end moved by up to half a dollar).
 * 2. For flats, through the shipped ONNX and the serving runtime: evaluation.json's rows are the
 *    newest snapshot's flats as the training ingests them (same order, same prices, same districts),
 *    and the shipped model, which was fitted on them, values them more accurately than the headline
 *    fit that never saw them (its recorded MAPE), with its 90% intervals covering at least 90%.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentVersion } from '../../models/ensemble/versions';
import { accuracyMetrics, median, wilsonBounds, type AccuracyMetrics } from '../../models/ensemble/metrics';
import { ingestListings } from '../../models/ingest';
import { PROJECT_ROOT } from '../../models/paths';
import { RESIDENTIAL_DIR, type ResidentialManifest } from '../../models/residential/manifest';
import { ResidentialModelSet } from '../../models/residential/runtime';
import { FORWARD_TEST_SOURCE, toDataset } from '../../models/residential/train';

/** evaluation.json rounds to whole dollars. */
const HALF = 0.5;
/** Float noise allowed on top of the rounding bounds. */
const EPS = 1e-9;

interface Row {
  actual: number;
  predicted: number;
  low: number;
  high: number;
  source: string;
  district?: string;
  segment?: string;
  group?: string;
}

interface Headline {
  overall: AccuracyMetrics;
  [view: string]: unknown;
}

const ARTIFACTS = join(PROJECT_ROOT, 'models', 'artifacts');

function shipped(kind: string): { version: string; rows: Row[]; headline: Headline } {
  const version = currentVersion(join(ARTIFACTS, kind));
  if (!version) throw new Error(`no CURRENT version of ${kind}`);
  const read = (file: string) => JSON.parse(readFileSync(join(ARTIFACTS, kind, version, file), 'utf8'));
  return { version, rows: read('evaluation.json').rows, headline: read('manifest.json').evaluation.headline };
}

type Range = readonly [number, number];

/** Each headline figure's range over every unrounding of the rows' predictions and interval ends. */
function ranges(rows: readonly Row[]): Record<string, Range> & { n: Range } {
  const n = rows.length;
  const errorLow = rows.map((r) => Math.max(0, Math.abs(r.actual - r.predicted) - HALF));
  const errorHigh = rows.map((r) => Math.abs(r.actual - r.predicted) + HALF);
  const share = (count: number) => count / n;
  const countOf = (test: (r: Row, i: number) => boolean) => rows.filter(test).length;
  const within = (limit: number): Range => [share(countOf((r, i) => errorHigh[i] / r.actual <= limit)), share(countOf((r, i) => errorLow[i] / r.actual <= limit))];
  const coveredSurely = countOf((r) => r.actual >= r.low + HALF && r.actual <= r.high - HALF);
  const coveredMaybe = countOf((r) => r.actual >= r.low - HALF && r.actual <= r.high + HALF);
  const mean = rows.reduce((s, r) => s + r.actual, 0) / n;
  const ssTot = rows.reduce((s, r) => s + (r.actual - mean) ** 2, 0);
  const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
  const lowWilson = [wilsonBounds(coveredSurely, n), wilsonBounds(coveredMaybe, n)];
  return {
    n: [n, n],
    r2: n > 1 && ssTot > 0 ? [1 - sum(errorHigh.map((e) => e * e)) / ssTot, 1 - sum(errorLow.map((e) => e * e)) / ssTot] : [NaN, NaN],
    mape: [sum(rows.map((r, i) => errorLow[i] / r.actual)) / n, sum(rows.map((r, i) => errorHigh[i] / r.actual)) / n],
    medianApe: [median(rows.map((r, i) => errorLow[i] / r.actual)), median(rows.map((r, i) => errorHigh[i] / r.actual))],
    maeUsd: [sum(errorLow) / n, sum(errorHigh) / n],
    ppe10: within(0.1),
    ppe20: within(0.2),
    intervalCoverage: [share(coveredSurely), share(coveredMaybe)],
    'intervalCoverageBounds95.low': [lowWilson[0].low, lowWilson[1].low],
    'intervalCoverageBounds95.high': [lowWilson[0].high, lowWilson[1].high],
    medianIntervalWidth: [
      median(rows.map((r) => Math.max(0, r.high - r.low - 2 * HALF) / (r.predicted + HALF))),
      median(rows.map((r) => (r.high - r.low + 2 * HALF) / (r.predicted - HALF))),
    ],
  };
}

/** The figures of `recorded` that fall outside what `rows` allow, as readable lines (none: all agree). */
function disagreements(label: string, recorded: AccuracyMetrics, rows: readonly Row[]): string[] {
  const out: string[] = [];
  for (const [figure, [low, high]] of Object.entries(ranges(rows))) {
    const [name, part] = figure.split('.') as [keyof AccuracyMetrics, 'low' | 'high' | undefined];
    const value = part ? (recorded[name] as { low: number; high: number } | undefined)?.[part] : (recorded[name] as number | null);
    // NaN is written to JSON as null.
    if (Number.isNaN(low)) {
      if (value !== null) out.push(`${label} ${figure}: recorded ${value}, the rows give none`);
      continue;
    }
    const slack = EPS * Math.max(1, Math.abs(low), Math.abs(high));
    if (typeof value !== 'number' || value < low - slack || value > high + slack) out.push(`${label} ${figure}: recorded ${value}, the rows give ${low} to ${high}`);
  }
  return out;
}

/** Every view of the headline keyed by a part of the row, checked against the rows of each key. */
function viewDisagreements(headline: Headline, rows: readonly Row[], view: string, keyOf: (row: Row) => string): string[] {
  const recorded = headline[view] as Record<string, AccuracyMetrics> | undefined;
  if (!recorded) return [`${view}: not in the manifest`];
  const byKey = new Map<string, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key)!.push(row);
  }
  const out: string[] = [];
  // Every key with rows is recorded, and nothing else.
  expect([view, Object.keys(recorded).sort()]).toEqual([view, [...byKey.keys()].sort()]);
  for (const [key, metrics] of Object.entries(recorded)) out.push(...disagreements(`${view}/${key}`, metrics, byKey.get(key) ?? []));
  return out;
}

describe.each([
  ['residential', { districts: (r: Row) => r.district!, segments: (r: Row) => r.segment!, bySource: (r: Row) => r.source }],
  ['house', { districts: (r: Row) => r.group!.split('/')[1], segments: (r: Row) => r.group!.split('/')[0], bySource: (r: Row) => r.source }],
  ['vehicle', { groups: (r: Row) => r.group!, bySource: (r: Row) => r.source }],
] as const)('%s: the manifest’s headline figures, recomputed from evaluation.json’s rows', (kind, views) => {
  const { version, rows, headline } = shipped(kind);

  test(`overall (${version})`, () => {
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => Number.isInteger(r.predicted) && Number.isInteger(r.low) && Number.isInteger(r.high))).toBe(true);
    expect(disagreements('overall', headline.overall, rows)).toEqual([]);
  });

  test.each(Object.entries(views))('per %s', (view, keyOf) => {
    expect(viewDisagreements(headline, rows, view, keyOf)).toEqual([]);
  });

  test('the bounds are tight enough to catch other predictions: every one 1% higher leaves MAPE and MAE outside them', () => {
    const changed = rows.map((r) => ({ ...r, predicted: Math.round(r.predicted * 1.01) }));
    const found = disagreements('overall', headline.overall, changed).map((line) => line.split(':')[0]);
    expect(found).toEqual(expect.arrayContaining(['overall mape', 'overall maeUsd']));
  });
});

describe('flats: evaluation.json’s rows through the shipped ONNX and the serving runtime', () => {
  const { version, rows, headline } = shipped('residential');
  let forward: ReturnType<typeof toDataset>;
  let shippedModel: AccuracyMetrics;

  beforeAll(async () => {
    // The newest snapshot as the training's headline test ingests it: as clients send it, no price fences.
    forward = toDataset(ingestListings({ sources: [FORWARD_TEST_SOURCE], priceFences: false }).records.filter((r) => r.propertyType === 'apartment'));
    const runtime = await ResidentialModelSet.load(version, RESIDENTIAL_DIR);
    try {
      const values = await runtime.value(
        forward.rows.map((r) => ({ ...r, askingPrice: null, rooms: r.rooms ?? 1, floor: r.floor ?? 1, totalFloors: r.totalFloors ?? 1, valuationDate: `${r.period}-15` })),
      );
      shippedModel = accuracyMetrics(forward.priceUsd, values.map((v) => v.estimate), values.map((v) => v.interval.low), values.map((v) => v.interval.high));
    } finally {
      await runtime.close();
    }
  });

  test('the rows are the snapshot’s flats, in order: the same count, prices and districts', () => {
    expect(forward.rows.length).toBe(rows.length);
    expect(rows.map((r) => [r.actual, r.district])).toEqual(forward.rows.map((r, i) => [forward.priceUsd[i], r.district]));
  });

  test(`the shipped ${version}, fitted on them, values them better than the headline fit that never saw them`, () => {
    expect(shippedModel.n).toBe(rows.length);
    expect(shippedModel.mape).toBeLessThan(headline.overall.mape);
    expect(shippedModel.medianApe).toBeLessThan(headline.overall.medianApe);
    expect(shippedModel.intervalCoverage).toBeGreaterThanOrEqual(0.9);
  });
});

describe('residential: the forward test with fields missing, by each flat\'s own market and by confidence level', () => {
  const version = currentVersion(RESIDENTIAL_DIR)!;
  const manifest = JSON.parse(readFileSync(join(RESIDENTIAL_DIR, version, 'manifest.json'), 'utf8')) as ResidentialManifest;
  const rows = JSON.parse(readFileSync(join(RESIDENTIAL_DIR, version, 'evaluation.json'), 'utf8')).rows as Row[];

  test.each(manifest.evaluation.masked.map((v) => [v.name, v] as const))('%s', (_, view) => {
    // Keyed by the market the flat has, not the one sent: the same segments and counts as the headline rows.
    const counts = Object.fromEntries(Object.entries(view.segments!).map(([segment, m]) => [segment, m.n]));
    expect(counts).toEqual(rows.reduce<Record<string, number>>((c, r) => ({ ...c, [r.segment!]: (c[r.segment!] ?? 0) + 1 }), {}));
    // Every flat has one confidence level, the levels in order high, medium, low.
    expect(view.byConfidence!.reduce((s, c) => s + c.n, 0)).toBe(view.overall.n);
    expect(view.byConfidence!.map((c) => c.level)).toEqual(['high', 'medium', 'low'].filter((l) => view.byConfidence!.some((c) => c.level === l)));
    // The segments' coverages pool to the overall one.
    const covered = Object.values(view.segments!).reduce((s, m) => s + m.intervalCoverage * m.n, 0);
    expect(covered / view.overall.n).toBeCloseTo(view.overall.intervalCoverage, 9);
  });
});

