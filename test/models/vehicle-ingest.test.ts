/** Vehicle ingestion on the data snapshot: cell parsing, row cleaning, bookkeeping, invariants. */
import { loadCsv } from '../../models/ingest/csv';
import { normaliseText } from '../../models/vocabulary';
import {
  LISTING_FIELDS, VEHICLE_CORRECTIONS, VEHICLE_DROP_REASONS, ingestVehicles, isPlaceholderMileage, parseEngineCell, parseMileage,
  splitGluedFuel, type VehicleIngestResult, type VehicleRecord,
} from '../../models/vehicle/ingest';
import { cleanVehicle } from '../../models/vehicle/ingest/clean';
import { listingKey } from '../../models/vehicle/ingest/dedup';
import {
  BODY_TYPES, COLOURS, DRIVES, FUELS, REGION_IDS, TRANSMISSIONS, resolveMake, resolveModel,
} from '../../models/vehicle/vocabulary';

const RECORD_KEYS = [
  'source', 'sourceRow', 'period', 'make', 'model', 'year', 'mileageKm', 'engineLitres', 'fuel', 'transmission', 'body', 'drive',
  'colour', 'trim', 'defects', 'region', 'priceUsd',
].sort();

const raw2022 = loadCsv('vehicles/avtoelon_2022.csv').rows;
const raw2023 = loadCsv('vehicles/avtoelon_chevrolet_2023.csv').rows;

let result: VehicleIngestResult;
beforeAll(() => {
  result = ingestVehicles();
});

const sourceReport = (source: string) => result.report.sources.find((s) => s.source === source)!;
const recordAt = (source: string, row: number) => result.records.find((r) => r.source === source && r.sourceRow === row);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

describe('cell parsers', () => {
  test.each([
    ['66 000 km', 66_000], ['777 777 km', 777_777], ['10 km', 10], ['66000', 66_000], ['1 000 000 km', 1_000_000], ['', null], ['km', null],
  ])('mileage %j → %j', (text, km) => expect(parseMileage(text)).toBe(km));

  test.each([
    ['1.3 (Gaz-benzin)', 1.3, 'gas_petrol'], ['1.5 (Benzin)', 1.5, 'petrol'], ['2.2 (Dizel)', 2.2, 'diesel'], ['3 (Elektr)', 3, 'electric'],
    ['2.4 (Gibrid)', 2.4, 'hybrid'], ['1.5 (Gaz)', 1.5, 'gas_petrol'], ['1.25 (Benzin)', 1.25, 'petrol'], ['1.6', 1.6, null], ['', null, null],
  ])('engine cell %j → %j l, %j', (text, litres, fuel) => expect(parseEngineCell(text)).toEqual({ litres, fuel }));

  test('a fuel glued to the model name is split off; other camel-case names are left alone', () => {
    expect(splitGluedFuel('GentraGaz-benzin')).toEqual({ model: 'Gentra', fuel: 'gas_petrol' });
    expect(splitGluedFuel('LacettiGaz-benzin')).toEqual({ model: 'Lacetti', fuel: 'gas_petrol' });
    expect(splitGluedFuel('CobaltBenzin')).toEqual({ model: 'Cobalt', fuel: 'petrol' });
    expect(splitGluedFuel('TrackerPremier')).toBeNull();
    expect(splitGluedFuel('MatizBest')).toBeNull();
    expect(splitGluedFuel('Gentra')).toBeNull();
  });

  test('repeated-digit mileages are placeholders', () => {
    for (const km of [777, 7_777, 77_777, 777_777, 999_999, 555_555, 111_111]) expect(isPlaceholderMileage(km)).toBe(true);
    for (const km of [66_000, 100_000, 11, 77, 123_456]) expect(isPlaceholderMileage(km)).toBe(false);
  });
});

describe('row cleaning', () => {
  const car: VehicleRecord = {
    source: 'avtoelon_2022', sourceRow: 1, period: '2022-06', make: 'Chevrolet', model: 'Cobalt', year: 2016, mileageKm: 120_000,
    engineLitres: 1.5, fuel: 'petrol', transmission: 'manual', body: 'sedan', drive: 'front', colour: 'white', trim: null,
    defects: null, region: 'tashkent_city', priceUsd: 9_500,
  };
  const clean = (changes: Partial<VehicleRecord>) => cleanVehicle({ record: { ...car, ...changes }, corrections: [], locality: 'toshkent' });

  test('777 777 km is cleared and the correction counted', () => {
    expect(clean({ mileageKm: 777_777 })).toMatchObject({ record: { mileageKm: null }, corrections: ['mileage_placeholder_cleared'] });
  });

  test('a handful of km on an old car, or over a million, is no mileage; on a new car it is', () => {
    expect(clean({ mileageKm: 100 })).toMatchObject({ record: { mileageKm: null }, corrections: ['mileage_implausible_cleared'] });
    expect(clean({ mileageKm: 5_522_518 })).toMatchObject({ record: { mileageKm: null }, corrections: ['mileage_implausible_cleared'] });
    expect(clean({ year: 2022, mileageKm: 100 })).toMatchObject({ record: { mileageKm: 100 }, corrections: [] });
  });

  test('an engine size of 0 is unknown, an electric car has none', () => {
    expect(clean({ engineLitres: 0 })).toMatchObject({ record: { engineLitres: null }, corrections: ['engine_zero_cleared'] });
    expect(clean({ fuel: 'electric', engineLitres: 3 })).toMatchObject({ record: { engineLitres: null }, corrections: ['engine_cleared_for_electric'] });
  });

  test('impossible years and prices are dropped', () => {
    expect(clean({ year: 2024 })).toEqual({ drop: 'year_out_of_range' });
    expect(clean({ year: 1899 })).toEqual({ drop: 'year_out_of_range' });
    expect(clean({ priceUsd: 416 })).toEqual({ drop: 'price_out_of_range' });
    expect(clean({ priceUsd: 2_000_000 })).toEqual({ drop: 'price_out_of_range' });
    expect(clean({ year: 2023, priceUsd: 500 })).toMatchObject({ record: { year: 2023, priceUsd: 500 } });
  });
});

describe('the ingestion run', () => {
  test('every row read is either a record or counted under one drop reason', () => {
    expect(result.report.sources.map((s) => [s.source, s.rowsIn])).toEqual([['avtoelon_2022', 8020], ['avtoelon_chevrolet_2023', 20000]]);
    for (const s of result.report.sources) {
      const dropped = Object.values(s.dropped).reduce((sum, n) => sum + (n ?? 0), 0);
      expect(s.rowsIn).toBe(s.rowsOut + dropped);
      expect(result.records.filter((r) => r.source === s.source)).toHaveLength(s.rowsOut);
      for (const reason of Object.keys(s.dropped)) expect(VEHICLE_DROP_REASONS).toHaveProperty(reason);
      for (const correction of Object.keys(s.corrections)) expect(VEHICLE_CORRECTIONS).toHaveProperty(correction);
    }
    expect(result.report.totals.rowsIn).toBe(28_020);
    expect(result.report.totals.rowsOut).toBe(result.records.length);
    expect(result.report.snapshot.files.map((f) => [f.path, f.rows])).toEqual([
      ['vehicles/avtoelon_2022.csv', 8020], ['vehicles/avtoelon_chevrolet_2023.csv', 20000],
    ]);
  });

  test('dealer price lists and re-posts collapse: the identical raw rows, plus rows equal once read', () => {
    const rawRepeats = (rows: Record<string, string>[]) => rows.length - new Set(rows.map((r) => JSON.stringify(r))).size;
    expect(rawRepeats(raw2022)).toBe(2_263);
    expect(rawRepeats(raw2023)).toBe(7_362);
    expect(sourceReport('avtoelon_2022').dropped.duplicate_in_file).toBe(2_263);
    // + the "GentraGaz-benzin" rows equal to "Gentra" gas-petrol ones, and the like
    expect(sourceReport('avtoelon_chevrolet_2023').dropped.duplicate_in_file).toBe(7_408);
    // The 2023 petrol Cobalt at the dealer's $11,090 (trim 4, automatic, Tashkent) stood 428 times.
    const dealerCobalts = result.records.filter(
      (r) => r.source === 'avtoelon_chevrolet_2023' && r.model === 'Cobalt' && r.year === 2023 && r.trim === 4 && r.fuel === 'petrol' &&
        r.transmission === 'automatic' && r.region === 'tashkent_city' && r.priceUsd === 11_090,
    );
    expect(dealerCobalts).toHaveLength(1);
  });

  test('no duplicate survives within a file', () => {
    for (const [source, rows, column] of [['avtoelon_2022', raw2022, 'Shahar'], ['avtoelon_chevrolet_2023', raw2023, 'region']] as const) {
      const records = result.records.filter((r) => r.source === source);
      const keys = records.map((r) => listingKey(r, normaliseText(rows[r.sourceRow - 1][column])));
      expect(new Set(keys).size).toBe(records.length);
      expect(new Set(records.map((r) => JSON.stringify(rows[r.sourceRow - 1]))).size).toBe(records.length);
    }
  });

  test('every record is canonical: its make and model resolve, its codes are codes, missing is null', () => {
    const inList = <T>(list: readonly T[], value: T | null) => value === null || list.includes(value);
    const problems = (r: VehicleRecord): string[] =>
      [
        Object.keys(r).sort().join() !== RECORD_KEYS.join() && 'keys',
        resolveMake(r.make) !== r.make && 'make',
        resolveModel(r.make, r.model) !== r.model && 'model',
        !(inList(FUELS, r.fuel) && inList(TRANSMISSIONS, r.transmission) && inList(BODY_TYPES, r.body)) && 'codes',
        !(inList(DRIVES, r.drive) && inList(COLOURS, r.colour) && inList(REGION_IDS, r.region)) && 'codes',
        Object.values(r).some((v) => v === undefined || Number.isNaN(v)) && 'undefined or NaN',
        r.priceUsd < 500 && 'price',
        r.year > Number(r.period.slice(0, 4)) + 1 && 'year',
        r.mileageKm !== null && isPlaceholderMileage(r.mileageKm) && 'mileage',
        r.engineLitres !== null && !(r.engineLitres >= 0.6 && r.engineLitres <= 8.5 && r.fuel !== 'electric') && 'engine',
      ].filter((problem): problem is string => typeof problem === 'string');
    const wrong = result.records.map((r) => ({ row: `${r.source}:${r.sourceRow}`, problems: problems(r) })).filter((r) => r.problems.length > 0);
    expect(wrong).toEqual([]);
    expect(LISTING_FIELDS.every((field) => RECORD_KEYS.includes(field))).toBe(true);
  });

  test('the first row of each file, read', () => {
    // Chevrolet Spark,Toshkent,2013,1.3 (Gaz-benzin),Hatchback,66 000 km,Mexanika,Delfin,Oldi,Ha,6300
    expect(recordAt('avtoelon_2022', 1)).toEqual({
      source: 'avtoelon_2022', sourceRow: 1, period: '2022-06', make: 'Chevrolet', model: 'Spark', year: 2013, mileageKm: 66_000,
      engineLitres: 1.3, fuel: 'gas_petrol', transmission: 'manual', body: 'hatchback', drive: 'front', colour: 'dolphin', trim: null,
      defects: true, region: 'tashkent_city', priceUsd: 6_300,
    });
    // Damas,2023,Chevrolet,1,Benzin,Mexanika,0,Olmaliq,10700: no mileage column, engine 0 = unknown, Olmaliq is Tashkent region
    expect(recordAt('avtoelon_chevrolet_2023', 1)).toEqual({
      source: 'avtoelon_chevrolet_2023', sourceRow: 1, period: '2023-08', make: 'Chevrolet', model: 'Damas', year: 2023, mileageKm: null,
      engineLitres: null, fuel: 'petrol', transmission: 'manual', body: null, drive: null, colour: null, trim: 1, defects: null,
      region: 'tashkent_region', priceUsd: 10_700,
    });
  });

  test('"GentraGaz-benzin" rows become gas-petrol Gentras, and the split is counted', () => {
    const glued = result.records.filter((r) => r.source === 'avtoelon_chevrolet_2023' && raw2023[r.sourceRow - 1].name === 'GentraGaz-benzin');
    expect(glued.length).toBeGreaterThan(100);
    expect(glued.every((r) => r.model === 'Gentra')).toBe(true);
    expect(glued.filter((r) => r.fuel === 'gas_petrol').length).toBe(glued.length - 1); // one row's fuel column says petrol
    expect(sourceReport('avtoelon_chevrolet_2023').corrections.fuel_split_from_model).toBeGreaterThan(250);
    expect(sourceReport('avtoelon_chevrolet_2023').corrections.model_name_fixed).toBe(2); // "Tracker4"
  });

  test('placeholder mileages are cleared and counted; the 2023 file has no mileage at all', () => {
    const placeholders = result.records.filter((r) => r.source === 'avtoelon_2022' && raw2022[r.sourceRow - 1].Yurgani === '777 777 km');
    expect(placeholders.length).toBeGreaterThan(10);
    expect(placeholders.every((r) => r.mileageKm === null)).toBe(true);
    expect(sourceReport('avtoelon_2022').corrections.mileage_placeholder_cleared).toBeGreaterThan(150);
    expect(result.records.filter((r) => r.source === 'avtoelon_chevrolet_2023').every((r) => r.mileageKm === null)).toBe(true);
  });

  test('engine sizes: 0 is unknown, a lost decimal point is restored, the impossible cleared', () => {
    const corrections = sourceReport('avtoelon_chevrolet_2023').corrections;
    expect(corrections.engine_zero_cleared).toBeGreaterThan(1_000);
    expect(corrections.engine_decimal_restored).toBeGreaterThan(10);
    const damas = result.records.filter((r) => r.model === 'Damas' && r.engineLitres !== null); // Chevrolet and Daewoo
    expect(Math.max(...damas.map((r) => r.engineLitres!))).toBeLessThanOrEqual(1.6);
  });

  test('prices that are not car prices are fenced out; ordinary old cars are not', () => {
    expect(result.records.some((r) => r.priceUsd === 180_000)).toBe(false); // a 2023 Gentra
    const dropped = result.report.totals.dropped;
    expect(dropped.price_outlier).toBeGreaterThan(20);
    expect(dropped.price_outlier).toBeLessThan(result.report.totals.rowsOut * 0.01);
    expect(result.records.filter((r) => r.model === 'Damas' && r.year < 2000).length).toBeGreaterThan(20);
    for (const fence of result.report.priceFences) {
      expect(fence.records).toBeGreaterThanOrEqual(20);
      expect(fence.lowUsd).toBeLessThan(fence.medianUsd);
      expect(fence.highUsd).toBeGreaterThan(fence.medianUsd);
    }
  });

  test('the market moved between the scrapes: a 2019 Cobalt asks more in 2023 than in 2022', () => {
    const cobalts = (source: string) => result.records.filter((r) => r.source === source && r.model === 'Cobalt' && r.year === 2019).map((r) => r.priceUsd);
    const in2022 = median(cobalts('avtoelon_2022'));
    const in2023 = median(cobalts('avtoelon_chevrolet_2023'));
    expect(in2022).toBeGreaterThan(9_500);
    expect(in2022).toBeLessThan(11_500);
    expect(in2023 / in2022).toBeGreaterThan(1.15);
  });

  test('report: makes and models counted, regions found, no personal data', () => {
    const { recordsByMake, recordsByModel } = result.report;
    expect(recordsByMake[0]).toMatchObject({ make: 'Chevrolet' });
    expect(recordsByMake.reduce((sum, m) => sum + m.records, 0)).toBe(result.records.length);
    expect(recordsByModel.reduce((sum, m) => sum + m.records, 0)).toBe(result.records.length);
    expect(recordsByModel.filter((m) => m.records >= 30).length).toBeGreaterThan(30);
    for (const s of result.report.sources) {
      expect(s.personalData).toEqual({ phones: 0, emails: 0, contactNames: 0 });
      expect(Object.keys(s.unresolvedRegions).every((cell) => ['Yangiobod', 'Turkiston'].includes(cell))).toBe(true);
    }
  });
});
