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

const raw2020 = loadCsv('vehicles/avtoelon_2020.csv', { delimiter: ';' }).rows;
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
    ['71000.0', 71_000], ['100.0', 100],
  ])('mileage %j → %j', (text, km) => expect(parseMileage(text)).toBe(km));

  test.each([
    ['1.3 (Gaz-benzin)', 1.3, 'gas_petrol'], ['1.5 (Benzin)', 1.5, 'petrol'], ['2.2 (Dizel)', 2.2, 'diesel'], ['3 (Elektr)', 3, 'electric'],
    ['2.4 (Gibrid)', 2.4, 'hybrid'], ['1.5 (Gaz)', 1.5, 'gas_petrol'], ['1.25 (Benzin)', 1.25, 'petrol'], ['1.6', 1.6, null], ['', null, null],
    ['1.5 (газ-бензин)', 1.5, 'gas_petrol'], ['0.8 (бензин)', 0.8, 'petrol'], ['2.5 (дизель)', 2.5, 'diesel'], ['1.5 (газ)', 1.5, 'gas_petrol'],
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
    expect(result.report.sources.map((s) => [s.source, s.rowsIn])).toEqual([
      ['avtoelon_2020', 19995], ['avtoelon_2022', 8020], ['avtoelon_chevrolet_2023', 20000],
    ]);
    for (const s of result.report.sources) {
      const dropped = Object.values(s.dropped).reduce((sum, n) => sum + (n ?? 0), 0);
      expect(s.rowsIn).toBe(s.rowsOut + dropped);
      expect(result.records.filter((r) => r.source === s.source)).toHaveLength(s.rowsOut);
      for (const reason of Object.keys(s.dropped)) expect(VEHICLE_DROP_REASONS).toHaveProperty(reason);
      for (const correction of Object.keys(s.corrections)) expect(VEHICLE_CORRECTIONS).toHaveProperty(correction);
    }
    expect(result.report.totals.rowsIn).toBe(48_015);
    expect(result.report.totals.rowsOut).toBe(result.records.length);
    expect(result.report.snapshot.files.map((f) => [f.path, f.rows])).toEqual([
      ['vehicles/avtoelon_2020.csv', 19995], ['vehicles/avtoelon_2022.csv', 8020], ['vehicles/avtoelon_chevrolet_2023.csv', 20000],
    ]);
  });

  test('the 2020 file: rows in, kept, and dropped by reason', () => {
    expect(sourceReport('avtoelon_2020')).toMatchObject({
      rowsIn: 19_995,
      rowsOut: 19_412,
      dropped: {
        duplicate_in_file: 362, unknown_model: 70, price_out_of_range: 31, year_out_of_range: 3, price_outlier: 117,
      },
      unresolvedRegions: {},
    });
    expect(Object.keys(sourceReport('avtoelon_2020').dropped).sort()).toEqual(
      ['duplicate_in_file', 'price_out_of_range', 'price_outlier', 'unknown_model', 'year_out_of_range'],
    );
  });

  test('dealer price lists and re-posts collapse: the identical raw rows, plus rows equal once read', () => {
    const rawRepeats = (rows: Record<string, string>[]) => rows.length - new Set(rows.map((r) => JSON.stringify(r))).size;
    // 2020: 136 rows repeat an earlier id (each a whole-row copy), 226 more equal an earlier row once read
    expect(rawRepeats(raw2020)).toBe(136);
    expect(raw2020.length - new Set(raw2020.map((r) => r.id)).size).toBe(136);
    expect(sourceReport('avtoelon_2020').dropped.duplicate_in_file).toBe(136 + 226);
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
    const files = [['avtoelon_2020', raw2020, 'Город'], ['avtoelon_2022', raw2022, 'Shahar'], ['avtoelon_chevrolet_2023', raw2023, 'region']] as const;
    for (const [source, rows, column] of files) {
      const records = result.records.filter((r) => r.source === source);
      const keys = records.map((r) => listingKey(r, normaliseText(rows[r.sourceRow - 1][column])));
      expect(new Set(keys).size).toBe(records.length);
      expect(new Set(records.map((r) => JSON.stringify(rows[r.sourceRow - 1]))).size).toBe(records.length);
    }
    const ids2020 = result.records.filter((r) => r.source === 'avtoelon_2020').map((r) => raw2020[r.sourceRow - 1].id);
    expect(new Set(ids2020).size).toBe(ids2020.length);
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
    // 1214637;Daewoo;Nexia;2010;5974;Денау;1.5 (газ-бензин);седан;71000.0;механика;белый;передний привод;
    expect(recordAt('avtoelon_2020', 1)).toEqual({
      source: 'avtoelon_2020', sourceRow: 1, period: '2020-11', make: 'Daewoo', model: 'Nexia', year: 2010, mileageKm: 71_000,
      engineLitres: 1.5, fuel: 'gas_petrol', transmission: 'manual', body: 'sedan', drive: 'front', colour: 'white', trim: null,
      defects: null, region: 'surkhandarya', priceUsd: 5_974,
    });
    // 1216327;Chevrolet;Tracker,;2019;19000;Ташкент;1.8 (бензин);кроссовер;14000.0;автомат;белый;передний привод;Да
    expect(recordAt('avtoelon_2020', 2)).toMatchObject({ make: 'Chevrolet', model: 'Tracker', year: 2019, body: 'suv', region: 'tashkent_city' });
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
    expect(result.records.some((r) => r.model === 'Gentra' && r.priceUsd === 180_000)).toBe(false); // a 2023 Gentra
    expect(result.records.some((r) => r.model === 'GLS 500' && r.priceUsd === 180_000)).toBe(true); // a 2020 Mercedes-Benz GLS, in 2020
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

  test('the 2020 file: Russian names and labels read, the site category that is no make dropped', () => {
    const at = (row: number) => recordAt('avtoelon_2020', row);
    const rowWhere = (match: (row: Record<string, string>) => boolean) => raw2020.findIndex(match) + 1;
    // "Самара (хэтчбек 2109)" is the Lada 2109; "31029 (Волга)" the GAZ 31029
    const samara = result.records.filter((r) => r.source === 'avtoelon_2020' && raw2020[r.sourceRow - 1].name === 'Самара (хэтчбек 2109)');
    expect(samara.length).toBeGreaterThan(150);
    expect(samara.every((r) => r.make === 'Lada' && r.model === '2109')).toBe(true);
    expect(at(rowWhere((r) => r.name === '31029 (Волга)'))).toMatchObject({ make: 'GAZ', model: '31029 (Volga)' });
    // the trailing comma of "Lacetti," and "Nexia 2," is no part of the name
    const lacettis = result.records.filter((r) => r.source === 'avtoelon_2020' && raw2020[r.sourceRow - 1].name === 'Lacetti,');
    expect(lacettis.length).toBeGreaterThan(1_400);
    expect(lacettis.every((r) => r.make === 'Chevrolet' && r.model === 'Lacetti')).toBe(true);
    // "молочный цвет", "вишня", "полный привод", "типтроник"
    const colours = (label: string) => new Set(result.records.filter((r) => r.source === 'avtoelon_2020' && raw2020[r.sourceRow - 1]['Цвет'] === label).map((r) => r.colour));
    expect(colours('молочный цвет')).toEqual(new Set(['beige']));
    expect(colours('вишня')).toEqual(new Set(['cherry']));
    const records2020 = result.records.filter((r) => r.source === 'avtoelon_2020');
    expect(records2020.filter((r) => raw2020[r.sourceRow - 1]['Привод'] === 'полный привод').every((r) => r.drive === 'all')).toBe(true);
    expect(records2020.filter((r) => raw2020[r.sourceRow - 1]['Коробка передач'] === 'типтроник').every((r) => r.transmission === 'automatic')).toBe(true);
    // every kept row's city cell names a region; no row of the classic-car category is kept
    expect(records2020.every((r) => r.region !== null)).toBe(true);
    expect(records2020.some((r) => raw2020[r.sourceRow - 1].brand === 'Ретро-автомобили')).toBe(false);
    // a blank mileage is unknown, not zero
    expect(records2020.filter((r) => raw2020[r.sourceRow - 1]['Пробег'] === '').every((r) => r.mileageKm === null)).toBe(true);
  });

  test('the 2020 file: down payments on new cars fall to the price fence', () => {
    // 1216263;Chevrolet;Nexia 3,;2020;4800;Самарканд;…;Да: a down payment on a new Nexia 3 (its model year's median is $9,000)
    expect(raw2020[3]).toMatchObject({ id: '1216263', name: 'Nexia 3,', year: '2020', price: '4800' });
    expect(recordAt('avtoelon_2020', 4)).toBeUndefined();
    // no record kept of model years 2017–2020 asks under 60% of its model year's median (groups of 5 or more)
    const young = result.records.filter((r) => r.source === 'avtoelon_2020' && r.year >= 2017);
    const groups = new Map<string, VehicleRecord[]>();
    for (const r of young) groups.set(`${r.make}|${r.model}|${r.year}`, [...(groups.get(`${r.make}|${r.model}|${r.year}`) ?? []), r]);
    const tooCheap = [...groups.values()]
      .filter((group) => group.length >= 5)
      .flatMap((group) => group.filter((r) => r.priceUsd < 0.6 * median(group.map((g) => g.priceUsd))));
    expect(young.length).toBeGreaterThan(4_000);
    expect(tooCheap).toEqual([]);
    // while old cars keep their cheap end: a 1980 2101 at $700 is a car, not a deposit
    expect(result.records.some((r) => r.source === 'avtoelon_2020' && r.model === '2101' && r.year === 1980 && r.priceUsd === 700)).toBe(true);
  });

  test('the market moved between the scrapes: a 2019 Cobalt asks more in 2023 than in 2022', () => {
    const cobalts = (source: string) => result.records.filter((r) => r.source === source && r.model === 'Cobalt' && r.year === 2019).map((r) => r.priceUsd);
    const in2022 = median(cobalts('avtoelon_2022'));
    const in2023 = median(cobalts('avtoelon_chevrolet_2023'));
    expect(in2022).toBeGreaterThan(9_500);
    expect(in2022).toBeLessThan(11_500);
    expect(in2023 / in2022).toBeGreaterThan(1.15);
    // and less in November 2020
    const in2020 = median(cobalts('avtoelon_2020'));
    expect(in2020).toBeLessThan(in2022);
    expect(in2020).toBeGreaterThan(8_500);
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
