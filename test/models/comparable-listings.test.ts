/**
 * Comparable listings (issue 19): the committed table is the training flats of the data snapshot,
 * and nearestComparables ranks a district's flats by the documented distance and brings their
 * prices to the valuation date by the market index.
 */
import { readFileSync, statSync } from 'node:fs';
import { dataSnapshot, type ListingRecord } from '../../models/ingest';
import {
  COMPARABLES_PATH, ComparablesTable, comparablesTable, greatCircleKm, nearestComparables, priceAtValuationDate,
  type ComparableRequest, type ComparableRow, type ComparablesFile,
} from '../../models/residential/comparables';
import { comparableRecords, comparableRow, comparablesFile, serialiseComparables } from '../../models/residential/comparables-writer';
import { currentVersion, readManifest } from '../../models/residential/manifest';
import { logLevelAt, type MarketIndex } from '../../models/residential/market-index';
import { SOURCE_GROUPS, trainingRecords } from '../../models/residential/train';
import { DISTRICT_IDS, mahallasOf } from '../../models/vocabulary';

describe('the committed table (models/artifacts/residential/comparables.json)', () => {
  let records: ListingRecord[];
  let text: string;
  let file: ComparablesFile;
  /** dataSnapshot() parses every listing file: once for the block's tests. */
  let snapshotOfFiles: ReturnType<typeof dataSnapshot> | undefined;
  const snapshotOnce = () => (snapshotOfFiles ??= dataSnapshot());
  beforeAll(() => {
    records = comparableRecords(trainingRecords({}).records);
    text = readFileSync(COMPARABLES_PATH, 'utf8');
    file = JSON.parse(text) as ComparablesFile;
  });

  it('is the training flats of the data snapshot, byte for byte as the writer makes them', () => {
    const snapshot = snapshotOnce();
    expect(file.dataSnapshot).toEqual(snapshot);
    expect(file.rows).toBe(records.length);
    expect(records.every((r) => r.propertyType === 'apartment' && r.source !== 'observations')).toBe(true);
    expect(text).toBe(serialiseComparables(comparablesFile(records.map(comparableRow), snapshot)));
  });

  it('holds the rows of ingestion in its order (first, last and a few between)', () => {
    const table = comparablesTable();
    expect(table.rows).toHaveLength(records.length);
    expect(table.dataSnapshotId).toBe(snapshotOnce().id);
    for (const i of [0, 1, 777, Math.floor(records.length / 2), records.length - 2, records.length - 1]) {
      const r = records[i];
      expect(table.rows[i]).toEqual({
        source: SOURCE_GROUPS[r.source], period: r.period, district: r.district, mahallaId: r.mahallaId,
        lat: r.lat === null ? null : expect.closeTo(r.lat, 4), lon: r.lon === null ? null : expect.closeTo(r.lon, 4),
        area: expect.closeTo(r.area, 2), rooms: r.rooms, floor: r.floor, totalFloors: r.totalFloors,
        market: r.market, renovation: r.renovation, buildingType: r.buildingType, priceUsd: Math.round(r.priceUsd),
      });
    }
    // One with coordinates and one with a mahalla among them, so the checks above are not all nulls.
    const withPoint = records.findIndex((r) => r.lat !== null);
    const withMahalla = records.findIndex((r) => r.mahallaId !== null);
    expect(table.rows[withPoint].lat).toBeCloseTo(records[withPoint].lat!, 4);
    expect(table.rows[withMahalla].mahallaId).toBe(records[withMahalla].mahallaId);
  });

  it('has the served version\'s training rows when that version was trained on the same snapshot without observations', () => {
    const manifest = readManifest(currentVersion()!);
    if (manifest.dataSnapshot.id !== file.dataSnapshot.id || manifest.training.observations) return;
    const bySource: Record<string, number> = {};
    for (const i of file.columns.source) bySource[file.codes.source[i!]] = (bySource[file.codes.source[i!]] ?? 0) + 1;
    expect(bySource).toEqual(manifest.training.bySource);
    expect(file.rows).toBe(manifest.training.rows);
  });

  it('is compact and holds codes, not text', () => {
    expect(statSync(COMPARABLES_PATH).size).toBeLessThan(1.5 * 1024 * 1024);
    expect(Object.keys(file.columns).sort()).toEqual(['area', 'buildingType', 'district', 'floor', 'lat', 'lon', 'mahallaId', 'market', 'period', 'priceUsd', 'renovation', 'rooms', 'source', 'totalFloors']);
    // Every listing file's source group; an organisation's observations and the collected listings (sources of training only) are not comparables.
    expect(file.codes.source.sort()).toEqual([...new Set(Object.values(SOURCE_GROUPS))].filter((s) => s !== 'observations' && !s.endsWith(' collected')).sort());
    expect(DISTRICT_IDS).toEqual(expect.arrayContaining(file.codes.district));
    const mahallas = new Set(DISTRICT_IDS.flatMap((d) => mahallasOf(d).map((m) => m.id)));
    expect(file.codes.mahallaId.every((id) => mahallas.has(id))).toBe(true);
    for (const [column, codes] of Object.entries(file.codes)) {
      for (const code of codes) expect([column, code]).toEqual([column, expect.stringMatching(/^[a-z0-9_ ./-]{2,60}$/)]);
    }
  });
});

/** A flat index: levels only in the west zone, a new-build premium that grows, a drift past 2026-07. */
function syntheticIndex(): MarketIndex {
  const periods = ['2021-02', '2024-04', '2026-07'];
  const flat = periods.map((period) => ({ period, logLevel: 0, se: 0 }));
  const west = [{ period: '2021-02', logLevel: -0.5, se: 0 }, { period: '2024-04', logLevel: -0.2, se: 0 }, { period: '2026-07', logLevel: 0, se: 0 }];
  return {
    method: 'synthetic',
    periods: periods.map((period) => ({ period, rows: 100 })),
    newestPeriod: '2026-07',
    city: flat,
    zones: { centre: flat, north_east: flat, west, south: flat },
    segments: { new: [{ period: '2021-02', logLevel: 0, se: 0 }, { period: '2024-04', logLevel: -0.1, se: 0 }, { period: '2026-07', logLevel: 0, se: 0 }], resale: flat },
    driftPerMonth: 0.01,
    volatilityPerMonth: 0.01,
    newestLevel: 0,
    allowanceZ: 1.6449,
  };
}

const row = (over: Partial<ComparableRow>): ComparableRow => ({
  source: 'uybor 2026-07', period: '2026-07', district: 'chilanzar', mahallaId: null, lat: null, lon: null, area: 65, rooms: 3, floor: 4, totalFloors: 9,
  market: 'resale', renovation: 'euro', buildingType: 'panel', priceUsd: 70_000, ...over,
});
const REQUEST: ComparableRequest = { district: 'chilanzar', mahallaId: null, lat: 41.2850, lon: 69.2050, area: 65, rooms: 3, floor: 4, totalFloors: 9, market: 'resale', renovation: 'euro', buildingType: 'panel' };

describe('nearestComparables', () => {
  const index = syntheticIndex();
  const rows: ComparableRow[] = [
    row({ priceUsd: 71_000, lat: 41.2850, lon: 69.2050 }), // 0: the same flat at the same point, this month
    row({ area: 90, rooms: 4, lat: 41.2850, lon: 69.2050 }), // 1: larger
    row({ district: 'yunusabad', lat: 41.2850, lon: 69.2050, priceUsd: 10 }), // 2: identical but in another district
    row({ period: '2024-04', source: 'olx 2024-04', priceUsd: 50_000, lat: 41.2850, lon: 69.2050 }), // 3: the same flat listed in 2024-04
    row({ lat: 41.3120, lon: 69.2050 }), // 4: the same flat 3 km north
    row({ market: 'new', period: '2024-04', source: 'olx 2024-04', priceUsd: 60_000, lat: 41.2850, lon: 69.2050 }), // 5: a new build of 2024-04
    row({ rooms: null, floor: null, totalFloors: null, market: null, renovation: null, buildingType: null }), // 6: a listing that says little, no point
    row({ priceUsd: 72_000, lat: 41.2850, lon: 69.2050 }), // 7: a tie with 0, later in the table
    row({ priceUsd: 73_000, mahallaId: 'chilanzar/katartal' }), // 8: no point, a named mahalla
  ];
  const table = new ComparablesTable('test', rows);
  const ask = (request = REQUEST, date = '2026-07-15', n = 5) => nearestComparables(request, date, index, n, { table });

  it('answers from the same district only, best first, n at most', () => {
    const found = ask(REQUEST, '2026-07-15', 20);
    expect(found).toHaveLength(rows.length - 1);
    expect(found.every((c) => c.district === 'chilanzar')).toBe(true);
    expect(found.map((c) => c.priceUsd)).not.toContain(10);
    for (let i = 1; i < found.length; i++) expect(found[i].score).toBeGreaterThanOrEqual(found[i - 1].score);
    expect(ask()).toHaveLength(5);
    expect(ask(REQUEST, '2026-07-15', 0)).toEqual([]);
    expect(ask({ ...REQUEST, district: 'bektemir' })).toEqual([]);
  });

  it('puts the same flat first, ties in table order, and is deterministic', () => {
    const found = ask();
    expect(found.slice(0, 2).map((c) => [c.priceUsd, c.score, c.distanceKm])).toEqual([[71_000, 0, 0], [72_000, 0, 0]]);
    expect(ask()).toEqual(found);
    // The answer says how far, not where.
    expect(found[0]).not.toHaveProperty('lat');
    expect(found[0]).not.toHaveProperty('lon');
  });

  it('scores as documented: area, rooms, place, age', () => {
    const scoreOf = (price: number, r = REQUEST) => nearestComparables(r, '2026-07-15', index, 20, { table }).find((c) => c.priceUsd === price)!;
    // 90 m², 4 rooms: |ln(90/65)|/0.15 + 0.5.
    const larger = nearestComparables(REQUEST, '2026-07-15', index, 20, { table }).find((c) => c.area === 90)!;
    expect(larger.score).toBeCloseTo(Math.abs(Math.log(90 / 65)) / 0.15 + 0.5, 3);
    // 3 km north: distance / 1.5 km.
    const north = nearestComparables(REQUEST, '2026-07-15', index, 20, { table }).find((c) => c.distanceKm !== null && c.distanceKm > 1)!;
    expect(north.distanceKm).toBeCloseTo(greatCircleKm([41.285, 69.205], [41.312, 69.205]), 2);
    expect(north.distanceKm).toBeCloseTo(3.0, 1);
    expect(north.score).toBeCloseTo(north.distanceKm! / 1.5, 2);
    // Listed 2024-04, valued 2026-07: 27 months at 0.1 a year.
    const old = scoreOf(50_000);
    expect(old.score).toBeCloseTo((0.1 * 27) / 12, 3);
    // Says little: rooms 0.25, market 0.15, renovation 0.1, building type 0.05 (half of each weight), and no point to measure: 1.
    const vague = nearestComparables(REQUEST, '2026-07-15', index, 20, { table }).find((c) => c.rooms === null)!;
    expect(vague.distanceKm).toBeNull();
    expect(vague.score).toBeCloseTo(0.25 + 0.15 + 0.1 + 0.05 + 1, 3);
  });

  it('places a flat without coordinates at its mahalla centre', () => {
    const centres = { 'chilanzar/katartal': [41.3120, 69.2050] as [number, number] };
    const request = { ...REQUEST, lat: null, lon: null, mahallaId: 'chilanzar/katartal' };
    const found = nearestComparables(request, '2026-07-15', index, 1, { table, mahallaCentres: centres });
    // The flat 3 km north of the old point sits at the mahalla's centre: it is now the nearest.
    expect(found[0].distanceKm).toBe(0);
    expect(found[0].score).toBe(0);
    // Without centres and points there is nothing to measure: no distances; the same mahalla costs nothing, any other place 1.
    const unplaced = nearestComparables(request, '2026-07-15', index, 20, { table });
    expect(unplaced.every((c) => c.distanceKm === null)).toBe(true);
    expect(unplaced[0]).toMatchObject({ priceUsd: 73_000, mahallaId: 'chilanzar/katartal', score: 0 });
    expect(unplaced[1].score).toBe(1);
    const nowhere = nearestComparables({ ...request, mahallaId: null }, '2026-07-15', index, 20, { table });
    expect(nowhere.find((c) => c.priceUsd === 73_000)!.score).toBe(1);
  });

  it('brings a 2024-04 listing to 2026-07 by the index ratio of its zone and segment', () => {
    const found = ask(REQUEST, '2026-07-15', 20);
    const resale = found.find((c) => c.priceUsd === 50_000)!;
    // West zone: log level −0.2 in 2024-04, 0 in 2026-07.
    expect(resale.priceAtValuationDateUsd).toBe(Math.round((50_000 * Math.exp(0.2)) / 100) * 100);
    expect(resale.priceAtValuationDateUsd).toBe(61_100);
    // A new build's segment had −0.1 more in 2024-04.
    const fresh = found.find((c) => c.priceUsd === 60_000)!;
    expect(fresh.priceAtValuationDateUsd).toBe(Math.round((60_000 * Math.exp(0.3)) / 100) * 100);
    // This month's listings keep their price, and past the newest month too: the level is held there (the drift is not applied).
    expect(found.find((c) => c.priceUsd === 71_000)!.priceAtValuationDateUsd).toBe(71_000);
    expect(ask(REQUEST, '2027-01-01', 20).find((c) => c.priceUsd === 71_000)!.priceAtValuationDateUsd).toBe(71_000);
    // Valued back in 2024-04, the 2024-04 listing is as listed.
    expect(ask(REQUEST, '2024-04-30', 20).find((c) => c.priceUsd === 50_000)!.priceAtValuationDateUsd).toBe(50_000);
  });
});

describe('on the committed table with the index of the model in service', () => {
  const manifest = readManifest(currentVersion()!);
  const chilanzar: ComparableRequest = { district: 'chilanzar', mahallaId: null, lat: null, lon: null, area: 65, rooms: 3, floor: 4, totalFloors: 9, market: null, renovation: null, buildingType: null };

  it('finds five Chilanzar flats near 65 m², 3 rooms, prices brought by the index', () => {
    const found = nearestComparables(chilanzar, '2026-07-15', manifest.marketIndex, 5, { mahallaCentres: manifest.features.encoding.mahallaCentres });
    expect(found).toHaveLength(5);
    for (const c of found) {
      expect(c.district).toBe('chilanzar');
      expect(c.area).toBeGreaterThan(55);
      expect(c.area).toBeLessThan(78);
      expect(c.rooms).toBe(3);
      const ratio = Math.exp(logLevelAt(manifest.marketIndex, 'chilanzar', c.market, '2026-07') - logLevelAt(manifest.marketIndex, 'chilanzar', c.market, c.period));
      expect(c.priceAtValuationDateUsd).toBe(Math.round((c.priceUsd * ratio) / 100) * 100);
      expect(priceAtValuationDate(manifest.marketIndex, c, '2026-07')).toBeCloseTo(c.priceUsd * ratio, 6);
    }
  });

  it('brings a 2024-04 Chilanzar listing to 2026-07 by the served index\'s ratio', () => {
    const old = nearestComparables(chilanzar, '2026-07-15', manifest.marketIndex, 500).find((c) => c.period === '2024-04')!;
    expect(old).toBeDefined();
    const ratio = Math.exp(logLevelAt(manifest.marketIndex, 'chilanzar', old.market, '2026-07') - logLevelAt(manifest.marketIndex, 'chilanzar', old.market, '2024-04'));
    expect(ratio).toBeGreaterThan(0.8);
    expect(ratio).toBeLessThan(1.5);
    expect(old.priceAtValuationDateUsd / old.priceUsd).toBeCloseTo(ratio, 2);
  });
});
