/** POST /api/predict/vehicle against the real running service (gateway + vehicle subgraph + vehicle model). */
import { VEHICLE_BASES } from '../../models/vehicle/valuation';
import { SAMPLE_VEHICLE_REQUEST, SITE_VEHICLE_REQUEST } from '../../schema/vehicle-contract';
import { expectError, json } from '../support/stack-client';
import { useSharedTestStack } from '../support/shared-stack';

const service = useSharedTestStack();
const predict = (body: unknown) => service.post('/api/predict/vehicle', body);

/** Today as the service dates a valuation without valuation_date (UTC). */
const today = () => new Date().toISOString().slice(0, 10);

/** The market level's shape and relations (the numbers are the runtime's). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function expectMarketLevel(m: any, valuationDate: string): void {
  expect(Object.keys(m)).toEqual(['valuation_date', 'newest_data_period', 'data_age_months', 'data_age_days', 'index_ratio', 'interval_widening']);
  expect(m.valuation_date).toBe(valuationDate);
  expect(m.newest_data_period).toMatch(/^\d{4}-(0[1-9]|1[0-2])$/);
  expect(Number.isInteger(m.data_age_months)).toBe(true);
  expect(m.data_age_months).toBeGreaterThanOrEqual(0);
  expect(Number.isInteger(m.data_age_days)).toBe(true);
  expect(m.data_age_days).toBeGreaterThanOrEqual(0);
  expect(m.index_ratio).toBeGreaterThan(0);
  expect(m.interval_widening).toBeGreaterThanOrEqual(0);
}

/** The estimate of a body, after checking it was valued. */
async function estimateOf(body: Record<string, unknown>): Promise<number> {
  const response = await predict(body);
  expect(response.status).toBe(200);
  return (await json(response)).estimate;
}

describe('a 2019 Chevrolet Cobalt with 60,000 km', () => {
  it('gets 200 with estimate, calibrated interval, confidence, per-model estimates and anomaly data', async () => {
    expect(service.stack.vehicleModelVersion).toBeTruthy();
    const response = await predict(SAMPLE_VEHICLE_REQUEST);
    expect(response.status).toBe(200);
    expect(response.headers.get('api-version')).toBe('v1.0');
    expect(response.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    const body = await json(response);
    expect(body.currency).toBe('USD');
    // A five-year-old Cobalt sells for some thousands of dollars, not hundreds or a hundred thousand.
    expect(body.estimate).toBeGreaterThan(5_000);
    expect(body.estimate).toBeLessThan(30_000);
    expect(body.interval.low).toBeLessThanOrEqual(body.estimate);
    expect(body.interval.high).toBeGreaterThanOrEqual(body.estimate);
    expect(body.interval.high).toBeGreaterThan(body.interval.low);
    expect(body.interval.coverage).toBe(0.9);
    expect(['high', 'medium', 'low']).toContain(body.confidence.level);
    expect(body.confidence.score).toBeGreaterThanOrEqual(0);
    expect(body.confidence.score).toBeLessThanOrEqual(1);
    expect(body.models.length).toBeGreaterThanOrEqual(2);
    for (const m of body.models) {
      expect(typeof m.name).toBe('string');
      expect(m.estimate).toBeGreaterThan(0);
    }
    expect(body.anomaly.market_listings).toBeGreaterThan(100); // the Cobalt is the most listed car in the data
    expect(body.anomaly.group_median_price).toBeGreaterThan(3_000);
    expect(typeof body.anomaly.deviation_from_group_median).toBe('number');
    expect(typeof body.anomaly.model_spread).toBe('number');
    expect(Array.isArray(body.anomaly.flags)).toBe(true);
    // What was understood: the catalogue's names and the codes of the attributes sent.
    expect(body.vehicle).toEqual({
      make: 'Chevrolet', model: 'Cobalt', year: 2019, trim: null, engine: null, fuel: 'petrol', transmission: 'automatic',
      body_type: 'sedan', drive: null, region: 'tashkent_city', condition: 'good', paint: null, colour: null,
    });
    expect(VEHICLE_BASES).toContain(body.basis);
    expectMarketLevel(body.market_level, today());
    expect(body.model_version).toBe(service.stack.vehicleModelVersion);
    expect(new Date(body.valued_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(body.warnings).toEqual([]);
  });

  it("states each member's weight, and the spread is over the members that carry weight (issue 35, item 9)", async () => {
    const body = await json(await predict(SAMPLE_VEHICLE_REQUEST));
    const weights = body.models.map((m: { weight: number }) => m.weight);
    for (const w of weights) expect(w >= 0 && w <= 1).toBe(true);
    expect(weights.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 2);
    // The spread reported is exactly the served members' (max − min) / estimate: a member with weight 0
    // may differ by any amount without moving it, and the reply says so by its weight.
    const served = body.models.filter((m: { weight: number }) => m.weight > 0).map((m: { estimate: number }) => m.estimate);
    const spread = served.length > 1 ? (Math.max(...served) - Math.min(...served)) / body.estimate : 0;
    expect(body.anomaly.model_spread).toBeCloseTo(spread, 2);
  });

  it('resolves make, model and attributes in other scripts and spellings to the same valuation', async () => {
    const base = await json(await predict(SAMPLE_VEHICLE_REQUEST));
    const variants = [
      { make: 'Шевроле', model: 'cobalt' },
      { make: 'chevrolet', model: 'Кобальт' },
      { make: 'Chevrolet', model: 'Шевроле Кобальт' },
      { body_type: 'Седан', transmission: 'Автомат', fuel: 'Бензин', region: 'Ташкент', condition: 'хорошее' },
      { body_type: 'Sedan', transmission: 'Avtomat', fuel: 'Benzin', region: 'Toshkent shahri', condition: 'yaxshi' },
    ];
    for (const v of variants) {
      const response = await predict({ ...SAMPLE_VEHICLE_REQUEST, ...v });
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.vehicle).toEqual(base.vehicle);
      expect(body.estimate).toBe(base.estimate);
    }
  });

  it('values a newer car higher, other things equal (the model is not a constant)', async () => {
    const older = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, year: 2013, mileage: 150_000 }));
    const newer = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, year: 2022, mileage: 20_000 }));
    expect(newer.estimate).toBeGreaterThan(older.estimate);
  });

  it('takes the optional fields: engine, trim, drive, asking price, a defects condition', async () => {
    const response = await predict({ ...SAMPLE_VEHICLE_REQUEST, engine: 1.5, trim: 4, drive: 'front', asking_price: 60_000, condition: "ta'mir talab" });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.anomaly.flags).toContain('ASKING_PRICE_ABOVE_INTERVAL');
  });
});

describe("a bank's car-loan request in avtoelon.uz's words (issue 16)", () => {
  it('is valued as the Cobalt it is: trim 4 from the name, engine 1.5 and petrol from "1.5 (Benzin)", original paint', async () => {
    const response = await predict(SITE_VEHICLE_REQUEST);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.vehicle).toEqual({
      make: 'Chevrolet', model: 'Cobalt', year: 2019, trim: 4, engine: 1.5, fuel: 'petrol', transmission: 'automatic',
      body_type: 'sedan', drive: 'front', region: 'tashkent_city', condition: null, paint: 'original', colour: 'white',
    });
    // condition carried the paint word too; paint was given, so condition was set aside and said so.
    expect(body.warnings).toEqual(['condition "original_paint" is a paint condition, and paint is given: ignored; condition says nothing about defects']);
    expect(body.basis).toBe('model');
    expectMarketLevel(body.market_level, today());
    // The same car in the API's own codes gets the same estimate.
    const canonical = { make: 'Chevrolet', model: 'Cobalt', year: 2019, mileage: 60000, engine: 1.5, fuel: 'petrol', transmission: 'automatic', body_type: 'sedan', drive: 'front', colour: 'white', paint: 'original', region: 'Toshkent', trim: 4 };
    expect(body.estimate).toBe(await estimateOf(canonical));
  });

  it.each([
    ['original_paint', 'original'],
    ['paint_spots', 'spots'],
    ['repainted', 'repainted_partly'],
    ['fully_repainted', 'fully_repainted'],
  ])('condition "%s" is read as paint %s, with a warning, and says nothing about defects', async (condition, paint) => {
    const { condition: _condition, ...withoutCondition } = SAMPLE_VEHICLE_REQUEST;
    const body = await json(await predict({ ...withoutCondition, condition }));
    expect(body.vehicle).toMatchObject({ paint, condition: null });
    expect(body.warnings).toEqual([`condition "${condition}" is a paint condition: read as paint ${paint}; condition says nothing about defects`]);
    expect(body.estimate).toBe(await estimateOf(withoutCondition));
  });

  it.each([
    ['Kraska toza', 'original'], ['Kraskasi toza', 'original'], ['Краска тоза', 'original'], ['Родная краска', 'original'], ['Без окраса', 'original'], ['Не крашена', 'original'], ['no paint', 'original'],
    ['Pyatno bor', 'spots'], ['Пятно бор', 'spots'], ['Есть пятна', 'spots'], ['paint_spots', 'spots'],
    ['Kraskasi bor', 'repainted_partly'], ['Краскаси бор', 'repainted_partly'], ['Qisman kraskalangan', 'repainted_partly'], ['Частично окрашена', 'repainted_partly'], ['Крашеная', 'repainted_partly'], ['partly repainted', 'repainted_partly'],
    ["To'liq kraskalangan", 'fully_repainted'], ['Toʻliq kraskalangan', 'fully_repainted'], ['To’liq kraskalangan', 'fully_repainted'], ['Тўлиқ краскаланган', 'fully_repainted'], ['Полностью окрашена', 'fully_repainted'], ['fully repainted', 'fully_repainted'],
  ])('paint "%s" → %s (in paint, and in condition)', async (text, paint) => {
    const asPaint = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, paint: text }));
    expect(asPaint.vehicle).toMatchObject({ paint, condition: 'good' });
    expect(asPaint.warnings).toEqual([]);
    const asCondition = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, condition: text }));
    expect(asCondition.vehicle).toMatchObject({ paint, condition: null });
  });

  it.each([
    ['Kami bor', 'needs_repair'], ['Ками бор', 'needs_repair'], ["Kami yo'q", 'good'], ['Kami yoʻq', 'good'], ['Kamchiligi yo‘q', 'good'], ['без дефектов', 'good'],
  ])('condition "%s" is about defects: %s', async (condition, code) => {
    const body = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, condition }));
    expect(body.vehicle).toMatchObject({ condition: code, paint: null });
    expect(body.warnings).toEqual([]);
  });

  it.each([
    ['Cobalt, 4 pozitsiya EVRO', 'Cobalt', 4],
    ['Cobalt 4-pozitsiya', 'Cobalt', 4],
    ['Gentra 3 позиция', 'Gentra', 3],
    ['Nexia 3, 2 pozitsiya', 'Nexia 3', 2],
    ['Spark 2-позиция', 'Spark', 2],
    ['Lacetti, pozitsiya 1 Elegant', 'Lacetti', 1],
    ['Tracker,', 'Tracker', null],
  ])('model "%s" → %s, trim %p', async (model, name, trim) => {
    const body = await json(await predict({ make: 'Chevrolet', model, year: 2019 }));
    expect(body.vehicle).toMatchObject({ make: 'Chevrolet', model: name, trim });
    expect(body.warnings).toEqual([]);
  });

  it('an explicit trim wins over the name\'s, with a warning when they differ', async () => {
    const body = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, model: 'Cobalt, 4 pozitsiya EVRO', trim: 2 }));
    expect(body.vehicle).toMatchObject({ model: 'Cobalt', trim: 2 });
    expect(body.warnings).toEqual(['trim 2 given; "4 pozitsiya EVRO" in the model ignored']);
    const same = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, model: 'Cobalt, 4 pozitsiya', trim: 4 }));
    expect(same.warnings).toEqual([]);
  });

  it.each([
    ['1.5 (Benzin)', 1.5, 'petrol'],
    ['1.5 (Газ-бензин)', 1.5, 'gas_petrol'],
    ['1,5 (Metan)', 1.5, 'gas_petrol'],
    ['1.5', 1.5, null],
    ['1.5 L', 1.5, null],
    ['1.5 л', 1.5, null],
    ['(Dizel)', null, 'diesel'],
  ])('engine "%s" → %p litres, fuel %p when fuel is not given', async (engine, litres, fuel) => {
    const { fuel: _fuel, ...withoutFuel } = SAMPLE_VEHICLE_REQUEST;
    const body = await json(await predict({ ...withoutFuel, engine }));
    expect(body.vehicle).toMatchObject({ engine: litres, fuel });
    expect(body.warnings).toEqual([]);
  });

  it('engine as a number stays a number; a fuel given wins over the engine text\'s, with a warning', async () => {
    expect((await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, engine: 1.5 }))).vehicle.engine).toBe(1.5);
    const body = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, fuel: 'petrol', engine: '1.5 (Gaz-benzin)' }));
    expect(body.vehicle).toMatchObject({ engine: 1.5, fuel: 'petrol' });
    expect(body.warnings).toEqual(['fuel petrol given; the engine\'s "Gaz-benzin" (gas_petrol) ignored']);
  });

  it('colour and its alias color', async () => {
    expect((await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, colour: 'Oq' }))).vehicle.colour).toBe('white');
    expect((await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, color: 'Mokriy asfalt' }))).vehicle.colour).toBe('wet_asphalt');
    expect((await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, colour: 'Delfin' }))).vehicle.colour).toBe('dolphin');
  });

  it('a 1985 Cobalt is refused on year: the Cobalt was made from 2011', async () => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, year: 1985 }), 400, 'INVALID_PARAMETER', 'year');
    expect(e.message).toBe('Chevrolet Cobalt was made from 2011; year 1985 is before that');
    const fromName = await expectError(await predict({ ...SITE_VEHICLE_REQUEST, year: 2010 }), 400, 'INVALID_PARAMETER', 'year');
    expect(fromName.message).toMatch(/^Chevrolet Cobalt was made from 2011; year 2010/);
    expect((await predict({ ...SAMPLE_VEHICLE_REQUEST, year: 2011 })).status).toBe(200);
  });
});

describe('an optional name that is not recognised is ignored with a warning, not refused', () => {
  it.each([
    ['fuel', 'plutonium', 'petrol, gas_petrol, diesel, electric, hybrid'],
    ['transmission', 'pedals', 'manual, automatic, robot, cvt'],
    ['body_type', 'spaceship', 'sedan, hatchback'],
    ['drive', 'six wheels', 'front, rear, all'],
    ['condition', 'so-so', 'good, excellent'],
    ['paint', 'glitter', 'original, spots, repainted_partly, fully_repainted'],
    ['colour', 'ultraviolet', 'white, black'],
    ['region', 'Atlantis', 'a region, city or district of Uzbekistan'],
    ['engine', 'big', 'litres as a number'],
  ])('%s "%s"', async (field, value, accepted) => {
    const { [field as keyof typeof SAMPLE_VEHICLE_REQUEST]: _given, ...without } = SAMPLE_VEHICLE_REQUEST;
    const response = await predict({ ...without, [field]: value });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.warnings).toHaveLength(1);
    expect(body.warnings[0]).toMatch(new RegExp(`^${field} "${value}" is not recognised and was ignored; accepted: ${accepted}`));
    expect(body.vehicle[field]).toBeNull();
    // Ignored means valued as if it had not been sent.
    expect(body.estimate).toBe(await estimateOf(without));
  });

  it('the hidden test\'s refusals: every optional field of the site request garbled at once is still valued', async () => {
    const garbled = { make: 'Chevrolet', model: 'Cobalt', year: 2019, fuel: '?', transmission: '?', body_type: '?', drive: '?', condition: '?', paint: '?', colour: '?', region: '?' };
    const response = await predict(garbled);
    expect(response.status).toBe(200);
    expect((await json(response)).warnings).toHaveLength(8);
  });
});

describe('models the catalogue does not list', () => {
  it('a model of a known make with no close spelling is valued on the make\'s level, with a wider interval than a listed model', async () => {
    const response = await predict({ make: 'Nissan', model: 'Pathfinder', year: 2015, mileage: 90_000 });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.vehicle).toMatchObject({ make: 'Nissan', model: null, year: 2015 });
    expect(body.warnings).toContain('model "Pathfinder" is not in the catalogue: valued on the make\'s level with a wider interval');
    expect(body.basis).toBe('make');
    expect(VEHICLE_BASES).toContain(body.basis);
    expect(body.anomaly.flags).toContain('MODEL_NOT_IN_MARKET_DATA');
    expect(body.confidence.level).toBe('low');
    const listed = await json(await predict({ make: 'Chevrolet', model: 'Cobalt', year: 2015, mileage: 90_000 }));
    expect(body.interval.high / body.interval.low).toBeGreaterThan(listed.interval.high / listed.interval.low);
  });

  it('a make without market data is valued on the segment\'s level when the body is given, and refused with 422 without it', async () => {
    const response = await predict({ make: 'BYD', model: 'Song Plus', year: 2023, body_type: 'Krossover', fuel: 'Elektr' });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.basis).toBe('segment');
    expect(body.anomaly.flags).toContain('MAKE_NOT_IN_MARKET_DATA');
    expect(body.market_level.newest_data_period).toBe('2023-08');
    const e = await expectError(await predict({ make: 'BYD', model: 'Song Plus', year: 2023 }), 422, 'INSUFFICIENT_MARKET_DATA', 'model');
    expect(e.message).toMatch(/BYD/);
  });

  it('a likely typo stays UNKNOWN_VEHICLE with the suggestions', async () => {
    const e = await expectError(await predict({ make: 'Nissan', model: 'Patrolo', year: 2015 }), 400, 'UNKNOWN_VEHICLE', 'model');
    expect(e.suggestions).toContain('Patrol');
  });

  it('an unknown make stays UNKNOWN_VEHICLE', async () => {
    await expectError(await predict({ make: 'Qwertyx', model: 'Pathfinder', year: 2015 }), 400, 'UNKNOWN_VEHICLE', 'make');
  });
});

describe('valuation_date', () => {
  it('defaults to today; a date or a month dates the value (market_level)', async () => {
    expectMarketLevel((await json(await predict(SAMPLE_VEHICLE_REQUEST))).market_level, today());
    expectMarketLevel((await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, valuation_date: '2025-03-15' }))).market_level, '2025-03-15');
    expectMarketLevel((await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, valuation_date: '2025-03' }))).market_level, '2025-03-01');
  });

  it.each([
    ['15.03.2025', 'valuation_date must be a date YYYY-MM-DD'],
    ['2025-02-30', 'valuation_date "2025-02-30" must be a date YYYY-MM-DD'],
    ['2019-12-31', /^valuation_date must be between 2020-01-01 and \d{4}-\d{2}-\d{2}$/],
  ])('%s is refused', async (date, message) => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, valuation_date: date }), 400, 'INVALID_PARAMETER', 'valuation_date');
    expect(e.message).toMatch(message);
  });

  it('up to 12 months ahead, not more', async () => {
    const ahead = (months: number, days = 0) => {
      const now = new Date();
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, now.getUTCDate() + days)).toISOString().slice(0, 10);
    };
    expect((await predict({ ...SAMPLE_VEHICLE_REQUEST, valuation_date: ahead(12) })).status).toBe(200);
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, valuation_date: ahead(12, 1) }), 400, 'INVALID_PARAMETER', 'valuation_date');
    expect(e.message).toBe(`valuation_date must be between 2020-01-01 and ${ahead(12)}`);
  });
});

describe('unknown makes and models get UNKNOWN_VEHICLE with suggestions', () => {
  it('a misspelt make', async () => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, make: 'Toyta', model: 'Camry' }), 400, 'UNKNOWN_VEHICLE', 'make');
    expect(e.suggestions).toContain('Toyota');
    expect(e.message).toMatch(/Toyta/);
  });
  it('a misspelt model', async () => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, model: 'Cobalr' }), 400, 'UNKNOWN_VEHICLE', 'model');
    expect(e.suggestions).toContain('Cobalt');
  });
  it('a make that is no make at all', async () => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, make: 'Zzqx' }), 400, 'UNKNOWN_VEHICLE', 'make');
    expect(e.suggestions).toEqual([]);
  });
});

describe('makes without enough market data are never valued with high confidence', () => {
  it.each([
    ['Haval', 'H6', 2023],
    ['BYD', 'Tang EV', 2021],
    ['BYD', 'Song Plus DM-i', 2024],
  ])('%s %s', async (make, model, year) => {
    const response = await predict({ make, model, year, mileage: 10_000 });
    if (response.status === 422) {
      const e = await expectError(response, 422, 'INSUFFICIENT_MARKET_DATA', 'model');
      expect(e.message).toMatch(new RegExp(`not enough market data for ${make} ${model}: \\d+ listings`));
    } else {
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.confidence.level).not.toBe('high');
      expect(body.anomaly.flags).toContain('THIN_MODEL_DATA');
    }
  });

  it('a make with no market data at all gets 422, saying what would value it: a body type (issue 35)', async () => {
    const e = await expectError(await predict({ make: 'Haval', model: 'Jolion', year: 2023 }), 422, 'INSUFFICIENT_MARKET_DATA', 'model');
    expect(e.message).toMatch(/Haval Jolion: 0 listings/);
    expect(e.message).toMatch(/Send body_type \(sedan, .*\) and it is valued on its segment's level/);
    // And it is: the same car with its body type.
    const valued = await predict({ make: 'Haval', model: 'Jolion', year: 2023, body_type: 'suv' });
    expect(valued.status).toBe(200);
    expect((await json(valued)).basis).toBe('segment');
  });
});

describe('bad input gets a clear 400 with code and field', () => {
  it('a future model year', async () => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, year: 2099 }), 400, 'INVALID_PARAMETER', 'year');
    expect(e.message).toBe(`year must be between 1960 and ${new Date().getUTCFullYear()}`);
    await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, year: new Date().getUTCFullYear() + 1 }), 400, 'INVALID_PARAMETER', 'year');
  });
  it('a model year before 1960', async () => {
    await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, year: 1950 }), 400, 'INVALID_PARAMETER', 'year');
  });
  it('negative or absurd mileage', async () => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, mileage: -5 }), 400, 'INVALID_PARAMETER', 'mileage');
    expect(e.message).toBe('mileage must be at least 0');
    // The site's placeholders are not refused: ignored, with a warning, as if not given.
    const without = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, mileage: undefined }));
    for (const placeholder of [2_000_001, 7_777_777, 777_777]) {
      const response = await predict({ ...SAMPLE_VEHICLE_REQUEST, mileage: placeholder });
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.warnings).toContain(`mileage ${placeholder} looks like a placeholder (above 2000000 km or one digit repeated) and was ignored`);
      expect(body.estimate).toBe(without.estimate);
    }
    // The site's engine cell for an engine nobody filled in: the size is ignored, its fuel kept.
    const noSize = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, fuel: undefined, engine: '0.1 (бензин)' }));
    expect(noSize.vehicle).toMatchObject({ engine: null, fuel: 'petrol' });
    expect(noSize.warnings).toContain('engine "0.1 (бензин)": 0.1 l is no engine size and was ignored');
  });
  it.each([
    ['year', '2019', 'year must be an integer'],
    ['year', 2019.5, 'year must be an integer'],
    ['mileage', 'sixty thousand', 'mileage must be an integer'],
    ['make', 42, 'make must be a string'],
    ['engine', true, 'engine must be a number or string'],
    ['engine', 12, 'engine must be between 0.5 and 10'],
    ['trim', 5, 'trim must be between 1 and 4'],
    ['fuel', 95, 'fuel must be a string'],
    ['condition', false, 'condition must be a string'],
    ['paint', 1, 'paint must be a string'],
    ['colour', ['white'], 'colour must be a string'],
    ['color', 7, 'color must be a string'],
    ['region', 10, 'region must be a string'],
    ['valuation_date', 20260115, 'valuation_date must be a string'],
  ])('wrong type or range: %s = %p', async (field, value, message) => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, [field]: value }), 400, 'INVALID_PARAMETER', field);
    expect(e.message).toBe(message);
  });
  it.each(['make', 'model', 'year'])('missing %s', async (field) => {
    const body: Record<string, unknown> = { ...SAMPLE_VEHICLE_REQUEST };
    delete body[field];
    await expectError(await predict(body), 400, 'MISSING_PARAMETER', field);
  });
  it('an empty make', async () => {
    await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, make: '' }), 400, 'INVALID_PARAMETER', 'make');
  });
  it('an engine number past the range; the site\'s text past it is ignored with a warning, its fuel kept', async () => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, engine: 15 }), 400, 'INVALID_PARAMETER', 'engine');
    expect(e.message).toBe('engine must be between 0.5 and 10');
    const response = await predict({ ...SAMPLE_VEHICLE_REQUEST, fuel: undefined, engine: '15 (Benzin)' });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.vehicle).toMatchObject({ engine: null, fuel: 'petrol' });
    expect(body.warnings).toContain('engine "15 (Benzin)": 15 l is no engine size and was ignored');
  });
  it('personal data inside a new text field', async () => {
    await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, paint: 'Kraska toza, +998 90 123 45 67' }), 400, 'PERSONAL_DATA_NOT_ACCEPTED', 'paint');
    await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, engine: '1.5 (Benzin) tel 90 123 45 67' }), 400, 'PERSONAL_DATA_NOT_ACCEPTED', 'engine');
  });
  it.each([['name', 'Aziz'], ['phone', '+998901234567'], ['passport', 'AA1234567'], ['vin', 'XWB3L32EDKA123456'], ['license_plate', '01 A 123 BC'], ['owner_name', 'X']])(
    'personal data field %s',
    async (field, value) => {
      await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, [field]: value }), 400, 'PERSONAL_DATA_NOT_ACCEPTED', field);
    },
  );
  it('a phone number inside a known field', async () => {
    await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, region: 'Toshkent, tel 90 123 45 67' }), 400, 'PERSONAL_DATA_NOT_ACCEPTED', 'region');
  });
  it('an unknown field is ignored with a warning', async () => {
    const body = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, doors: 4 }));
    expect(body.warnings).toEqual(['unknown field "doors" ignored']);
  });
  it('malformed JSON and non-object bodies', async () => {
    await expectError(await predict('{"make": "Chevrolet", "year": '), 400, 'INVALID_JSON');
    await expectError(await predict([SAMPLE_VEHICLE_REQUEST]), 400, 'INVALID_PARAMETER');
  });
  it('bodies over 64 KB get 413', async () => {
    await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, padding: 'x'.repeat(70 * 1024) }), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('authentication and quotas', () => {
  it('401 without a key or with a wrong key', async () => {
    await expectError(await service.stack.post('/api/predict/vehicle', SAMPLE_VEHICLE_REQUEST), 401, 'INVALID_API_KEY');
    await expectError(await service.stack.post('/api/predict/vehicle', SAMPLE_VEHICLE_REQUEST, { 'x-api-key': 'tvk_abcdefgh_notarealsecret000000000000000' }), 401, 'INVALID_API_KEY');
  });

  it('counts against the same quota as the home route', async () => {
    const fresh = service.stack.newKey('pilot');
    const first = await service.post('/api/predict/vehicle', SAMPLE_VEHICLE_REQUEST, { 'x-api-key': fresh });
    const second = await service.post('/api/predict/home', { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9 }, { 'x-api-key': fresh });
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(Number(first.headers.get('ratelimit-remaining')) - 1);
  });
});

describe('the published contract', () => {
  it('the OpenAPI document has the route, with the field table as request schema and the reply schema', async () => {
    const doc = await json(await fetch(`${service.stack.url}/openapi.json`));
    const route = doc.paths['/api/predict/vehicle'].post;
    expect(route.security).toEqual([{ ApiKey: [] }]);
    const request = route.requestBody.content['application/json'].schema;
    expect(request.required).toEqual(['make', 'model', 'year']);
    expect(Object.keys(request.properties)).toEqual(expect.arrayContaining(['make', 'model', 'year', 'mileage', 'body_type', 'transmission', 'fuel', 'condition', 'paint', 'colour', 'color', 'region', 'engine', 'trim', 'valuation_date', 'asking_price']));
    expect(request.properties.mileage).toMatchObject({ type: 'integer', minimum: 0 });
    expect(request.properties.mileage.maximum).toBeUndefined();
    expect(request.properties.engine).toMatchObject({ type: ['number', 'string'], minimum: 0.5, maximum: 10 });
    expect(request.properties.valuation_date).toMatchObject({ type: 'string', pattern: expect.any(String) });
    const reply = route.responses['200'].content['application/json'].schema;
    expect(reply.required).toEqual(['estimate', 'currency', 'interval', 'fsd', 'confidence', 'models', 'anomaly', 'vehicle', 'basis', 'market_level', 'market_adjustment', 'valuation_id', 'model_version', 'valued_at', 'warnings']);
    expect(reply.properties.vehicle.required).toEqual(['make', 'model', 'year', 'trim', 'engine', 'fuel', 'transmission', 'body_type', 'drive', 'region', 'condition', 'paint', 'colour']);
    expect(reply.properties.vehicle.properties.paint.enum).toEqual(['original', 'spots', 'repainted_partly', 'fully_repainted', null]);
    expect(reply.properties.basis.enum).toEqual([...VEHICLE_BASES]);
    expect(reply.properties.market_level.required).toEqual(['valuation_date', 'newest_data_period', 'data_age_months', 'data_age_days', 'index_ratio', 'interval_widening']);
    expect(Object.keys(reply.properties.anomaly.properties)).toEqual(['group_median_price', 'deviation_from_group_median', 'market_listings', 'model_spread', 'flags']);
    expect(doc.info.description).toMatch(/UNKNOWN_VEHICLE \(400\).*INSUFFICIENT_MARKET_DATA \(422\)/);
  });
});
