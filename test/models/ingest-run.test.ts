/** The whole ingestion on the data snapshot: counts, bookkeeping, invariants, speed. */
import { DISTRICT_IDS } from '../../models/vocabulary';
import { dataSnapshot, ingestListings, type IngestResult } from '../../models/ingest';

const RECORD_KEYS = [
  'source', 'sourceRow', 'period', 'propertyType', 'priceUsd', 'district', 'mahallaId', 'area', 'rooms', 'floor',
  'totalFloors', 'landAreaSotka', 'renovation', 'buildingType', 'furniture', 'bathroom', 'market', 'seller', 'amenities',
  'lat', 'lon',
].sort();

let result: IngestResult;
beforeAll(() => {
  result = ingestListings();
});

const sourceReport = (source: string) => result.report.sources.find((s) => s.source === source)!;

test('every row read is either a record or counted under one drop reason', () => {
  for (const s of result.report.sources) {
    const dropped = Object.values(s.dropped).reduce((sum, n) => sum + (n ?? 0), 0);
    expect(s.rowsIn).toBe(s.rowsOut + dropped);
    expect(result.records.filter((r) => r.source === s.source)).toHaveLength(s.rowsOut);
  }
  expect(result.report.totals.rowsIn).toBe(23_673);
  expect(result.report.totals.rowsOut).toBe(result.records.length);
});

test('row counts match the README and the snapshot', () => {
  expect(result.report.sources.map((s) => [s.source, s.rowsIn])).toEqual([
    ['uybor_2026', 700], ['uybor_2025', 3006], ['uybor_2025_b', 2444], ['uybor_2025_en', 2750], ['uybor_houses_2025', 568],
    ['uybor_2023', 3869], ['olx_2024', 2771], ['olx_2021', 7565],
  ]);
  expect(result.report.snapshot.id).toBe('shared-data-2026-11-24');
});

test('the English file shrinks to about a hundred unique listings, its fall-back district found', () => {
  const en = sourceReport('uybor_2025_en');
  expect(result.report.fallbackDistricts).toEqual({ uybor_2025_en: 'yunusabad' });
  expect(en.dropped.duplicate_in_file).toBeGreaterThan(2_500);
  expect(en.dropped.fallback_district_copy).toBeGreaterThan(30);
  const unique = en.rowsIn - (en.dropped.duplicate_in_file ?? 0) - (en.dropped.fallback_district_copy ?? 0);
  expect(unique).toBeGreaterThan(100);
  expect(unique).toBeLessThan(200);
});

test('the second uybor scrape and the first mostly collapse into one another', () => {
  const merged = result.report.crossSourceMerges;
  const between = merged
    .filter((m) => [m.dropped, m.keptIn].sort().join() === 'uybor_2025,uybor_2025_b')
    .reduce((sum, m) => sum + m.count, 0);
  expect(between).toBeGreaterThan(1_000);
  const dropped = result.report.totals.dropped.duplicate_across_sources;
  expect(merged.reduce((sum, m) => sum + m.count, 0)).toBe(dropped);
});

test('outside-city addresses, сум prices, and the 2021 period are handled', () => {
  expect(sourceReport('uybor_2025').dropped.outside_tashkent).toBe(40);
  expect(sourceReport('uybor_houses_2025').dropped.outside_tashkent).toBeGreaterThan(100);
  expect(sourceReport('olx_2024').corrections.price_converted_from_uzs).toBeGreaterThan(30);
  expect(sourceReport('olx_2021').dropped.no_price).toBe(99);
  expect(new Set(result.records.filter((r) => r.source === 'olx_2021').map((r) => r.period))).toEqual(new Set(['2021-02']));
});

test('the mixed 2023 and 2026 uybor files: houses and land routed out of the flats, 2026 periods from posted_at', () => {
  const of = (source: string) => result.records.filter((r) => r.source === source);
  expect(sourceReport('uybor_2023').dropped.not_residential).toBeGreaterThan(100); // land plots
  expect(of('uybor_2023').filter((r) => r.propertyType === 'house').every((r) => r.landAreaSotka !== null || r.totalFloors !== null)).toBe(true);
  expect(sourceReport('uybor_2023').corrections.area_from_price_per_m2).toBeGreaterThan(0);
  expect(sourceReport('uybor_2026').dropped.not_residential).toBe(55); // 34 land + 21 business
  const flats2026 = of('uybor_2026').filter((r) => r.propertyType === 'apartment');
  expect(new Set(flats2026.map((r) => r.period))).toEqual(new Set(['2026-06', '2026-07']));
  expect(flats2026.every((r) => r.lat !== null && r.lon !== null)).toBe(true);
  expect(flats2026.filter((r) => r.market === 'new').length).toBeGreaterThan(150);
});

test('records are canonical: exact keys, valid districts, sane values, no free text', () => {
  // Checked in plain code and asserted once: 12,000 records × a dozen expect() calls is slow in Jest.
  const problems = result.records.flatMap((r) => {
    const found: string[] = [];
    if (Object.keys(r).sort().join() !== RECORD_KEYS.join()) found.push('keys');
    if (!(DISTRICT_IDS as readonly string[]).includes(r.district)) found.push('district');
    if (r.priceUsd < 5_000) found.push('price');
    if (r.area < 10 || r.area > 1_000) found.push('area');
    if (r.rooms !== null && r.rooms < 1) found.push('rooms');
    if (r.floor !== null && r.totalFloors !== null && r.floor > r.totalFloors) found.push('floor');
    if (r.mahallaId !== null && !r.mahallaId.startsWith(`${r.district}/`)) found.push('mahalla');
    if (!/^\d{4}-\d{2}$/.test(r.period)) found.push('period');
    if (r.propertyType === 'house' && !['uybor_houses_2025', 'uybor_2023', 'uybor_2026'].includes(r.source)) found.push('house source');
    if (r.lat !== null && r.source !== 'olx_2021' && r.source !== 'uybor_2026') found.push('coordinates');
    return found.map((problem) => `${r.source}:${r.sourceRow} ${problem}`);
  });
  expect(problems).toEqual([]);
});

test('every district has records, Bektemir and Yangihayot included though few', () => {
  const perDistrict = result.report.recordsByDistrict;
  expect(Object.keys(perDistrict).sort()).toEqual([...DISTRICT_IDS].sort());
  for (const id of DISTRICT_IDS) expect(perDistrict[id]).toBe(result.records.filter((r) => r.district === id).length);
  expect(perDistrict.bektemir).toBeGreaterThanOrEqual(20);
  expect(perDistrict.bektemir).toBeLessThan(100);
  expect(perDistrict.yangihayot).toBeGreaterThanOrEqual(20);
  expect(perDistrict.yangihayot).toBeLessThan(100);
  expect(perDistrict.chilanzar).toBeGreaterThan(1_000);
});

test('no phone number or e-mail address in any free-text column', () => {
  for (const s of result.report.sources) {
    expect(s.personalData.phones).toBe(0);
    expect(s.personalData.emails).toBe(0);
  }
});

test('deterministic, in source then row order', () => {
  const again = ingestListings();
  expect(JSON.stringify(again.records)).toBe(JSON.stringify(result.records));
  const order = result.report.sources.map((s) => s.source);
  const position = result.records.map((r) => order.indexOf(r.source) * 1e6 + r.sourceRow);
  expect(position.every((p, i) => i === 0 || position[i - 1] < p)).toBe(true);
});

test('dataSnapshot names the snapshot and hashes every listing file read', () => {
  const snapshot = dataSnapshot();
  expect(snapshot.id).toBe('shared-data-2026-11-24');
  expect(snapshot.files.map((f) => f.path)).toContain('listings/olx_apartments_2021_geocoded.csv');
  expect(snapshot.files.find((f) => f.path === 'listings/uybor_apartments_2025.csv')).toEqual({
    path: 'listings/uybor_apartments_2025.csv',
    sha256: '77cb97c5cbbb609a185b8904d2447734da8330ffcc5146688798ac313b305c96',
    rows: 3006,
  });
  expect(result.report.snapshot).toEqual(snapshot);
});
