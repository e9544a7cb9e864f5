/**
 * Issue 37, item 4 for cars: `npm run collect -- --export` writes the collected avtoelon cars as a
 * dated training source, and the vehicle trainer takes the newest export as a source of its own
 * (`avtoelon_collected`) under the homes' forward gate. No model is trained here: the tests check
 * what the trainer is given (records, sources, forward splits, which rows each split fits on), and
 * that without an export it is exactly what it was.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSkipped, parseAvtoelonSearchPage, type CollectedListing } from '../../models/ingest/collectors';
import { VEHICLE_SOURCE_FILES, type VehicleRecord } from '../../models/vehicle/ingest';
import { collectedExportFiles, describeCollectedCars, newestCollectedCarsExport, readCollectedCars } from '../../models/vehicle/ingest/collected-cars';
import { createVehicleLookups } from '../../models/vehicle/ingest/lookups';
import type { VehicleFeatureSource } from '../../models/vehicle/features';
import { fitVehicleMarketIndex, MAX_STEP_MONTHS, monthsPastIndex, vehicleLevelAt, type VehicleIndexRow } from '../../models/vehicle/market-index';
import { forwardSplitRows, forwardTestPeriods, MIN_COLLECTED_FORWARD_ROWS, toDataset, vehicleTrainingRecords } from '../../models/vehicle/train';
import { exportTrainingSource, LifecycleStore } from '../../platform/collect';
import { avtoelonSearchHtml, fakeCar, type FakeCar } from './support/listings';

// vehicleTrainingRecords ingests the listing files on every call: here each ingestion is read once
// (test/support/ingest-once.ts). The records it is compared with are ingested afresh.
jest.mock('../../models/vehicle/ingest', () => jest.requireActual<typeof import('../support/ingest-once')>('../support/ingest-once').vehiclesIngestedOnce());
/** The listing files ingested afresh, not through the trainer's shared ingestion. */
const ingestAfresh = jest.requireActual<typeof import('../../models/vehicle/ingest')>('../../models/vehicle/ingest').ingestVehicles;

const lookups = createVehicleLookups();
const cars = (list: readonly FakeCar[], seenOn: string): CollectedListing[] =>
  parseAvtoelonSearchPage(avtoelonSearchHtml(list, 1, 1, list.length), 1, { lookups, seenOn }).listings.map((l) => {
    if (isSkipped(l)) throw new Error(l.skip);
    return l;
  });

const folders: string[] = [];
const folder = (prefix: string) => {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  folders.push(directory);
  return directory;
};
afterAll(() => folders.forEach((f) => rmSync(f, { recursive: true, force: true })));

/** A collect folder whose export holds `n` cars last seen on `day` (and `earlier` more last seen on `earlierDay`). */
function collectFolder(day: string, n: number, earlier = 0, earlierDay = '2026-10-07'): { directory: string; file: string } {
  const directory = folder('collected-cars-');
  const store = LifecycleStore.open(directory);
  const list = (from: number, count: number) => Array.from({ length: count }, (_, i) => fakeCar(from + i));
  if (earlier) store.recordSightings(`r-${earlierDay}`, earlierDay, cars(list(5000, earlier), earlierDay));
  store.recordSightings(`r-${day}`, day, cars(list(1, n), day));
  return { directory, file: exportTrainingSource(store, day).carsPath };
}

// The listing files' records, ingested once for the file.
let files: VehicleRecord[];
beforeAll(() => {
  files = ingestAfresh().records;
});

describe('the cars export', () => {
  it('writes each avtoelon listing once, at its last asking price (before removal, else its current one), dated by the month last seen', () => {
    const directory = folder('collect-cars-export-');
    const store = LifecycleStore.open(directory);
    const [a, b, c] = [fakeCar(1), fakeCar(2), fakeCar(3)];
    store.recordSightings('r1', '2026-10-28', cars([a, b, c], '2026-10-28'));
    // November: a asks less; b is sold (the site marks it not live) at a lower price, then is seen no more; c is not seen again.
    store.recordSightings('r2', '2026-11-03', cars([{ ...a, priceUsd: a.priceUsd - 500 }, { ...b, priceUsd: b.priceUsd - 300, status: 'sold' }], '2026-11-03'));
    store.recordSightings('r3', '2026-11-10', cars([{ ...a, priceUsd: a.priceUsd - 700 }], '2026-11-10'));
    // A car first seen after the export's day is not in it.
    store.recordSightings('r4', '2026-11-20', cars([fakeCar(4)], '2026-11-20'));

    const written = exportTrainingSource(store, '2026-11-12');
    expect(written.carsPath).toBe(join(directory, 'exports', 'collected-cars-2026-11-12.ndjson'));
    expect(written.records).toBe(0);
    expect(written.cars).toBe(3);
    const records = readFileSync(written.carsPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as VehicleRecord);
    const byPrice = records.map((r) => [r.source, r.sourceRow, r.make, r.model, r.year, r.priceUsd, r.period]);
    expect(byPrice).toEqual([
      ['avtoelon_collected', 1, a.brand, a.model, a.year, a.priceUsd - 700, '2026-11'],
      ['avtoelon_collected', 2, b.brand, b.model, b.year, b.priceUsd - 300, '2026-11'],
      ['avtoelon_collected', 3, c.brand, c.model, c.year, c.priceUsd, '2026-10'],
    ]);
    expect(store.get('avtoelon', String(b.id))?.removed).toEqual({ day: '2026-11-03', reason: 'inactive' });
    expect(records[0].mileageKm).toBe(a.mileageKm);
    expect(newestCollectedCarsExport(directory)).toBe(written.carsPath);
  });
});

describe('without a collected cars export', () => {
  it('finds none, and the vehicle trainer reads the listing files exactly as before: records, sources and forward splits', () => {
    const home = folder('collected-cars-none-');
    expect(collectedExportFiles(undefined, { VALUATION_HOME: home })).toEqual({ homes: null, cars: null });
    expect(collectedExportFiles(undefined, { COLLECT_DIR: join(home, 'nowhere') })).toEqual({ homes: null, cars: null });

    const given = vehicleTrainingRecords({});
    expect(given.collected).toBeNull();
    expect(vehicleTrainingRecords({ collected: null }).records).toEqual(given.records);
    expect(JSON.stringify(given.records)).toBe(JSON.stringify(files));
    expect([...new Set(given.records.map((r) => r.source))]).toEqual(VEHICLE_SOURCE_FILES.map((f) => f.source));

    // The forward splits as they were: every snapshot after the oldest, each fitted on the rows before
    // it and tested on its own month's rows (the rule before collected cars, written out).
    const data = toDataset(given.records);
    expect(forwardTestPeriods(data)).toEqual(['2022-06', '2023-08']);
    const all = data.rows.map((_, i) => i);
    for (const test of ['2022-06', '2023-08']) {
      const split = forwardSplitRows(data, test);
      expect(all.filter(split.fit)).toEqual(all.filter((i) => data.rows[i].period < test));
      expect(all.filter(split.test)).toEqual(all.filter((i) => data.rows[i].period === test && data.source[i] !== 'observations'));
    }
  });
});

describe('with a collected cars export', () => {
  it('finds the newest export (COLLECT_DIR, else VALUATION_HOME/collect, or --collected DIR|FILE) beside the homes one', () => {
    const { directory, file } = collectFolder('2026-11-18', 3);
    writeFileSync(join(directory, 'exports', 'collected-cars-2026-10-01.ndjson'), '');
    expect(newestCollectedCarsExport(directory)).toBe(file);
    const homes = join(directory, 'exports', 'collected-homes-2026-11-18.ndjson');
    expect(collectedExportFiles(undefined, { COLLECT_DIR: directory })).toEqual({ homes, cars: file });
    expect(collectedExportFiles(directory, {})).toEqual({ homes, cars: file });
    // One file is its kind's alone, by its name.
    expect(collectedExportFiles(file, {})).toEqual({ homes: null, cars: file });
    expect(collectedExportFiles(homes, {})).toEqual({ homes, cars: null });
    const empty = folder('collected-cars-empty-');
    expect(() => collectedExportFiles(empty, {})).toThrow(/no exports\/collected-homes-<day>.ndjson or collected-cars-<day>.ndjson/);
  });

  it('a malformed line stops the run before training, naming its line', () => {
    const directory = folder('collected-cars-bad-');
    mkdirSync(join(directory, 'exports'));
    const file = join(directory, 'exports', 'collected-cars-2026-11-18.ndjson');
    const good: VehicleRecord = {
      source: 'avtoelon_collected', sourceRow: 1, period: '2026-11', make: 'Chevrolet', model: 'Cobalt', year: 2021, mileageKm: 50_000, engineLitres: 1.5,
      fuel: 'petrol', transmission: 'manual', body: 'sedan', drive: null, colour: null, trim: 2, defects: null, region: null, priceUsd: 11_000,
    };
    const write = (...records: object[]) => writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    write(good, { ...good, source: 'avtoelon_2022' });
    expect(() => readCollectedCars(file)).toThrow(/line 2: source must be avtoelon_collected/);
    write({ ...good, model: 'Cobalt 2' });
    expect(() => readCollectedCars(file)).toThrow(/line 1: model must be a catalogue model/);
    write({ ...good, fuel: 'steam' });
    expect(() => readCollectedCars(file)).toThrow(/line 1: fuel must be one of the vocabulary's codes/);
    writeFileSync(file, '{"source":');
    expect(() => readCollectedCars(file)).toThrow(/line 1: not JSON/);
    // A car the listing files' row limits drop is counted, not trained on.
    write(good, { ...good, priceUsd: 300 }, { ...good, year: 2028 });
    const read = readCollectedCars(file, files);
    expect(read.report).toMatchObject({ lines: 3, kept: 1, dropped: { price_out_of_range: 1, year_out_of_range: 1 }, periods: { from: '2026-11', to: '2026-11' } });
    expect(describeCollectedCars(read.report)).toBe(`collected ${file}: 1 of 3 cars kept (avtoelon_collected), last seen 2026-11 to 2026-11; dropped price_out_of_range 1, year_out_of_range 1`);
  });

  it('its cars join the listing files as a dated source of their own, and its newest month is the headline forward test', () => {
    const n = MIN_COLLECTED_FORWARD_ROWS + 5;
    const { file } = collectFolder('2026-11-18', n, 12);
    const collected = readCollectedCars(file, files);
    expect(collected.report).toMatchObject({ file, lines: n + 12, kept: n + 12, dropped: {}, periods: { from: '2026-10', to: '2026-11' }, byPeriod: { '2026-10': 12, '2026-11': n } });

    const given = vehicleTrainingRecords({ collected });
    expect(given.collected).toEqual(collected.report);
    // The listing files' records first, unchanged, then the collected ones.
    expect(given.records.slice(0, files.length)).toEqual(files);
    expect(given.records.slice(files.length)).toEqual(collected.records);

    const data = toDataset(given.records);
    const all = data.rows.map((_, i) => i);
    const label = (i: number) => `${data.source[i]} ${data.rows[i].period}`;
    expect(forwardTestPeriods(data)).toEqual(['2022-06', '2023-08', '2026-11']);
    // The headline tests November's collected cars, fitted on every row before November: the files and October's collected cars.
    const headline = forwardSplitRows(data, '2026-11');
    expect(all.filter(headline.test)).toHaveLength(n);
    expect(all.filter(headline.test).every((i) => data.source[i] === 'avtoelon_collected')).toBe(true);
    expect(all.filter(headline.fit)).toHaveLength(files.length + 12);
    expect(new Set(all.filter(headline.fit).map(label))).toEqual(new Set(['avtoelon_2020 2020-11', 'avtoelon_2022 2022-06', 'avtoelon_chevrolet_2023 2023-08', 'avtoelon_collected 2026-10']));
    // The files' splits are as they were: no collected car in their fits or tests.
    for (const test of ['2022-06', '2023-08']) {
      const split = forwardSplitRows(data, test);
      expect(all.filter(split.fit).concat(all.filter(split.test)).some((i) => data.source[i] === 'avtoelon_collected')).toBe(false);
    }
  });
});

describe('the forward gate, on rows alone', () => {
  const row = (period: string): VehicleFeatureSource => ({
    make: 'Chevrolet', model: 'Cobalt', year: 2019, mileageKm: null, engineLitres: null, fuel: null, transmission: null, body: null, drive: null,
    trim: null, defects: null, region: null, period,
  });
  const dataOf = (rows: [string, string, number][]) => {
    const expanded = rows.flatMap(([source, period, count]) => Array.from({ length: count }, () => [source, period] as const));
    return { rows: expanded.map(([, period]) => row(period)), source: expanded.map(([source]) => source) };
  };
  const listings: [string, string, number][] = [['avtoelon_2020', '2020-11', 3], ['avtoelon_2022', '2022-06', 3], ['avtoelon_chevrolet_2023', '2023-08', 3]];
  const sources = (data: ReturnType<typeof dataOf>, test: string, which: 'fit' | 'test') => [...new Set(data.rows.map((_, i) => i).filter(forwardSplitRows(data, test)[which]).map((i) => `${data.source[i]} ${data.rows[i].period}`))];

  it('a newest collected month with too few cars is no test; the files\' newest stays the headline and its fit leaves the collected cars out', () => {
    const data = dataOf([...listings, ['avtoelon_collected', '2026-10', 500], ['avtoelon_collected', '2026-11', MIN_COLLECTED_FORWARD_ROWS - 1]]);
    // October is large enough but not the newest collected month: never a test of its own.
    expect(forwardTestPeriods(data)).toEqual(['2022-06', '2023-08']);
    expect(sources(data, '2023-08', 'fit')).toEqual(['avtoelon_2020 2020-11', 'avtoelon_2022 2022-06']);
    expect(sources(data, '2023-08', 'test')).toEqual(['avtoelon_chevrolet_2023 2023-08']);
  });

  it('collected cars no newer than the files are no test, and never test rows of a file\'s snapshot', () => {
    const data = dataOf([...listings, ['avtoelon_collected', '2023-08', 300], ['avtoelon_collected', '2022-01', 300]]);
    expect(forwardTestPeriods(data)).toEqual(['2022-06', '2023-08']);
    expect(sources(data, '2023-08', 'test')).toEqual(['avtoelon_chevrolet_2023 2023-08']);
    // Older collected cars are fit rows of the splits after them, as any dated row.
    expect(sources(data, '2022-06', 'fit')).toEqual(['avtoelon_2020 2020-11', 'avtoelon_collected 2022-01']);
  });

  it('with enough cars the newest collected month is tested on its collected cars, observations of that month left out', () => {
    const data = dataOf([...listings, ['observations', '2026-11', 4], ['avtoelon_collected', '2026-11', MIN_COLLECTED_FORWARD_ROWS]]);
    expect(forwardTestPeriods(data)).toEqual(['2022-06', '2023-08', '2026-11']);
    expect(sources(data, '2026-11', 'test')).toEqual(['avtoelon_collected 2026-11']);
    expect(sources(data, '2026-11', 'fit')).toEqual(['avtoelon_2020 2020-11', 'avtoelon_2022 2022-06', 'avtoelon_chevrolet_2023 2023-08']);
  });
});

describe('the vehicle market index with collected months years after the files', () => {
  /** 12 Chevrolet cells of 20 listings in each period, priced at the period's level (a small alternating spread). */
  function market(levels: Record<string, number>): { rows: VehicleIndexRow[]; y: number[] } {
    const rows: VehicleIndexRow[] = [];
    const y: number[] = [];
    for (const [period, level] of Object.entries(levels)) {
      for (let cell = 0; cell < 12; cell++) {
        for (let k = 0; k < 20; k++) {
          rows.push({ make: 'Chevrolet', model: `M${cell}`, year: 2005 + cell, period });
          y.push(8 + 0.1 * cell + Math.log(level) + (k % 2 === 0 ? 0.02 : -0.02));
        }
      }
    }
    return { rows, y };
  }

  it('the files alone have no gap: the level is read linearly between their snapshots, as before', () => {
    const { rows, y } = market({ '2020-11': 1, '2022-06': 1.3, '2023-08': 1.56 });
    const index = fitVehicleMarketIndex(rows, y);
    expect(index.gaps).toBeUndefined();
    expect(index.method).not.toMatch(/gap/);
    const mid = vehicleLevelAt(index, 'Chevrolet', '2023-01');
    expect(mid).toBeGreaterThan(-Math.log(1.2));
    expect(mid).toBeLessThan(0);
    expect(monthsPastIndex(index, '2025-01')).toBe(17);
  });

  it('measures the step across the gap, but holds the level inside it and counts its months as past the data', () => {
    const { rows, y } = market({ '2020-11': 1, '2022-06': 1.3, '2023-08': 1.56, '2026-10': 1.9, '2026-11': 1.95 });
    const index = fitVehicleMarketIndex(rows, y);
    expect(index.periods.map((p) => p.period)).toEqual(['2020-11', '2022-06', '2023-08', '2026-10', '2026-11']);
    expect(index.newestPeriod).toBe('2026-11');
    expect(MAX_STEP_MONTHS).toBe(24);
    expect(index.gaps).toEqual([{ from: '2023-08', to: '2026-10', months: 38 }]);
    expect(index.method).toMatch(/more than 24 months apart are a gap/);
    const level = (period: string) => vehicleLevelAt(index, 'Chevrolet', period);
    // The step across the gap is measured by the same cells: the collected months' level sets the newest.
    expect(level('2023-08')).toBeCloseTo(Math.log(1.56 / 1.95), 2);
    expect(level('2026-10')).toBeCloseTo(Math.log(1.9 / 1.95), 2);
    // Inside the gap: the level before it, not a straight line through three years without data,
    // and the months since August 2023 count as past the data (the drift allowance widens the interval).
    for (const period of ['2023-09', '2025-01', '2026-09']) expect(level(period)).toBe(level('2023-08'));
    expect(monthsPastIndex(index, '2025-01')).toBe(17);
    expect(monthsPastIndex(index, '2026-09')).toBe(37);
    // Within the measured points and past the newest, as before.
    expect(level('2022-12')).toBeGreaterThan(level('2022-06'));
    expect(level('2022-12')).toBeLessThan(level('2023-08'));
    expect(monthsPastIndex(index, '2026-10')).toBe(0);
    expect(monthsPastIndex(index, '2023-01')).toBe(0);
    expect(monthsPastIndex(index, '2027-02')).toBe(3);
    expect(level('2027-02')).toBe(0);
  });
});
