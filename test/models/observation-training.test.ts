/**
 * `npm run train -- --with-observations FILE` for homes (issue 18, item 4): an organisation's export
 * read as a dated source of its own, kept out of any forward test's fit it postdates, and learnt
 * from by the served fit (its months join the market index).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readObservationExport } from '../../models/ingest/observation-export';
import { observationListings } from '../../models/ingest/observation-listings';
import { MEMBERS } from '../../models/residential/ensemble';
import { currentVersion, RESIDENTIAL_DIR } from '../../models/residential/manifest';
import { normaliseHomeInput } from '../../models/residential';
import type { HomeInput } from '../../models/residential/request';
import { ResidentialModelSet } from '../../models/residential/runtime';
import { fittedBeforeForwardTest, trainResidential } from '../../models/residential/train';

// The baseline and the residual-scale model are gradient-boosted trees of 100 and 150 rounds, fitted
// once per fold of every view: most of this file's minutes. Which rows reach which fit, what this file
// tests, does not depend on the rounds, so they run ten here (jest hoists this above the imports).
jest.mock('../../models/trainers', () => {
  const actual = jest.requireActual<typeof import('../../models/trainers')>('../../models/trainers');
  class TenRounds extends actual.HistGradientBoostingRegressor {
    constructor(params: ConstructorParameters<typeof actual.HistGradientBoostingRegressor>[0] = {}) {
      super({ ...params, maxIter: Math.min(params.maxIter ?? 10, 10) });
    }
  }
  return { ...actual, HistGradientBoostingRegressor: TenRounds };
});
// Each training ingests the listing files three times (its sources, the forward test, the backtest):
// the same files, so the two trainings here share each ingestion (test/support/ingest-once.ts).
jest.mock('../../models/ingest', () => jest.requireActual<typeof import('../support/ingest-once')>('../support/ingest-once').listingsIngestedOnce());

const dir = mkdtempSync(join(tmpdir(), 'observation-export-'));

/** A line as GET /api/observations writes it: the request as the service normalised it. */
function exportLine(fields: HomeInput, envelope: { observed_at: string; price_usd: number; price_type?: string; id?: string }): string {
  const normalised = normaliseHomeInput(fields);
  return JSON.stringify({ kind: 'home', price_type: 'sale', ...envelope, input: { ...normalised.request, district: normalised.location.district, mahalla: normalised.location.mahalla } });
}

function writeExport(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('reading an export', () => {
  it('maps flats and houses to records of their own source, dated by the month observed', () => {
    const path = writeExport('mixed.ndjson', [
      exportLine({ district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9, market: 'resale' }, { observed_at: '2026-10-02', price_usd: 80_000 }),
      exportLine({ district: 'Yunusabad', area: 150, rooms: 5, totalFloors: 2, propertyType: 'house', landArea: 6 }, { observed_at: '2026-09-30', price_usd: 210_000, price_type: 'appraisal' }),
      JSON.stringify({ kind: 'vehicle', observed_at: '2026-10-01', price_usd: 11_000, input: { make: 'Chevrolet', model: 'Cobalt', year: 2021 } }),
      JSON.stringify({ kind: 'home', observed_at: '2026-10-01', price_usd: 70_000, input: { district: 'Atlantis', area: 60 } }),
      // Edited by hand after the export: the listing files' row checks still apply.
      exportLine({ district: 'Chilanzar', area: 65, rooms: 3, floor: 4, totalFloors: 9 }, { observed_at: '2026-10-02', price_usd: 80_000 }).replace('"area":65', '"area":5000'),
    ]);
    const exported = readObservationExport(path);
    expect(exported.file).toBe('mixed.ndjson');
    expect(exported.sha256).toMatch(/^[0-9a-f]{64}$/);
    const { records, report } = observationListings(exported);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ source: 'observations', sourceRow: 1, period: '2026-10', propertyType: 'apartment', district: 'chilanzar', mahallaId: 'chilanzar/katartal', area: 65, rooms: 3, floor: 4, totalFloors: 9, market: 'resale', priceUsd: 80_000 });
    expect(records[1]).toMatchObject({ sourceRow: 2, period: '2026-09', propertyType: 'house', district: 'yunusabad', landAreaSotka: 6, floor: null, priceUsd: 210_000 });
    expect(report).toMatchObject({ lines: 4, kept: 2, dropped: { not_a_home_request: 1, area_out_of_range: 1 }, byPriceType: { sale: 1, appraisal: 1 }, periods: { from: '2026-09', to: '2026-10' } });
  });

  it('stops at the first bad line, naming it', () => {
    const good = exportLine({ district: 'Chilanzar', area: 65, rooms: 3, floor: 4, totalFloors: 9 }, { observed_at: '2026-10-02', price_usd: 80_000 });
    expect(() => readObservationExport(writeExport('bad-json.ndjson', [good, '{ nope']))).toThrow('line 2: not JSON');
    expect(() => readObservationExport(writeExport('bad-date.ndjson', [good, good.replace('2026-10-02', '2026-13-02')]))).toThrow('line 2: observed_at');
    expect(() => readObservationExport(writeExport('bad-price.ndjson', [good.replace('80000', '-1')]))).toThrow('line 1: price_usd');
    expect(() => readObservationExport(writeExport('bad-type.ndjson', [good.replace('"sale"', '"rumour"')]))).toThrow('line 1: price_type');
  });
});

describe('the forward test never learns from what came after it', () => {
  const forwardRows = [{ period: '2026-06' }, { period: '2026-07' }];
  const fits = fittedBeforeForwardTest(forwardRows);
  it('keeps older sources and earlier observations, drops the test snapshot and observations from its first month on', () => {
    expect(fits({ source: 'uybor 2025', period: '2025-04' })).toBe(true);
    expect(fits({ source: 'observations', period: '2026-05' })).toBe(true);
    expect(fits({ source: 'observations', period: '2026-06' })).toBe(false);
    expect(fits({ source: 'observations', period: '2026-10' })).toBe(false);
    expect(fits({ source: 'uybor 2026-07', period: '2026-07' })).toBe(false);
  });
});

describe('training with an export', () => {
  // Forty resale flats sold in October 2026 at 1.25 × what the served model says for that month.
  let trained: ReturnType<typeof trainResidential>;
  let withoutObservations: ReturnType<typeof trainResidential>;
  beforeAll(async () => {
    const runtime = await ResidentialModelSet.load(currentVersion()!, RESIDENTIAL_DIR);
    const districts = ['Chilanzar', 'Yunusabad', 'Mirzo-Ulugbek', 'Yakkasaray'];
    const flats = Array.from({ length: 40 }, (_, i) => ({ district: districts[i % 4], area: 45 + i, rooms: 2 + (i % 2), floor: 1 + (i % 8), totalFloors: 9, market: 'resale', valuationDate: '2026-10-15' }));
    const values = await runtime.value(flats.map((f) => normaliseHomeInput(f).request as Parameters<typeof runtime.value>[0][number]));
    await runtime.close();
    const lines = flats.map((f, i) => exportLine(f, { observed_at: '2026-10-15', price_usd: Math.round(values[i].estimate * 1.25), id: `obs_${i}` }));
    const exported = readObservationExport(writeExport('october.ndjson', lines));
    // One cheap member: the test is about which rows reach which fit, not the ensemble.
    const members = MEMBERS.filter((m) => m.name === 'hedonic');
    trained = trainResidential({ members, observations: exported });
    withoutObservations = trainResidential({ members });
  }, 180_000);

  it('records the source in the manifest and trains the served fit on it', () => {
    const { training } = trained.manifest;
    expect(training.observations).toMatchObject({ file: 'october.ndjson', lines: 40, kept: 40, byPriceType: { sale: 40 }, periods: { from: '2026-10', to: '2026-10' } });
    expect(training.bySource.observations).toBe(40);
    expect(training.rows).toBe(withoutObservations.manifest.training.rows + 40);
    expect(withoutObservations.manifest.training.observations).toBeUndefined();
    // Left out one source at a time like every other source.
    expect(Object.keys(trained.manifest.evaluation.leaveOneSourceOut.bySource ?? {})).toContain('observations');
  });

  it('moves the market level to the observed month', () => {
    const index = trained.manifest.marketIndex;
    expect(index.newestPeriod).toBe('2026-10');
    expect(index.periods.find((p) => p.period === '2026-10')).toEqual({ period: '2026-10', rows: 40 });
    // The city level of October 2026 over July 2026, against what the model without them says of October: July's level, held.
    const level = (period: string) => index.city.find((p) => p.period === period)!.logLevel;
    expect(level('2026-10') - level('2026-07')).toBeGreaterThan(0.1);
  });

  it('leaves the forward test as it was: the observations came after it', () => {
    expect(trained.manifest.evaluation.headline.overall).toEqual(withoutObservations.manifest.evaluation.headline.overall);
    expect(trained.manifest.evaluation.headline.protocol).not.toContain('observations');
  });
});
