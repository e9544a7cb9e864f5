/** POST /api/predict/vehicle against the real running service (gateway + vehicle subgraph + vehicle model). */
import { SAMPLE_VEHICLE_REQUEST } from '../../schema/vehicle-contract';
import { expectError, json, useTestStack } from '../support/stack';

const service = useTestStack();
const predict = (body: unknown) => service.post('/api/predict/vehicle', body);

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
    expect(body.vehicle).toEqual({ make: 'Chevrolet', model: 'Cobalt', year: 2019 });
    expect(body.model_version).toBe(service.stack.vehicleModelVersion);
    expect(new Date(body.valued_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(body.warnings).toEqual([]);
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

  it('a make with no market data at all gets 422', async () => {
    const e = await expectError(await predict({ make: 'Haval', model: 'Jolion', year: 2023 }), 422, 'INSUFFICIENT_MARKET_DATA', 'model');
    expect(e.message).toMatch(/Haval Jolion: 0 listings/);
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
    expect(e.message).toBe('mileage must be between 0 and 2000000');
    await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, mileage: 2_000_001 }), 400, 'INVALID_PARAMETER', 'mileage');
  });
  it.each([
    ['year', '2019', 'year must be an integer'],
    ['year', 2019.5, 'year must be an integer'],
    ['mileage', 'sixty thousand', 'mileage must be an integer'],
    ['make', 42, 'make must be a string'],
    ['engine', '1.5L', 'engine must be a number'],
    ['trim', 5, 'trim must be between 1 and 4'],
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
  it.each([
    ['fuel', 'plutonium', /accepted: petrol, gas_petrol, diesel, electric, hybrid/],
    ['transmission', 'pedals', /accepted: manual, automatic, robot, cvt/],
    ['body_type', 'spaceship', /accepted: sedan, hatchback/],
    ['region', 'Atlantis', /accepted: a region, city or district of Uzbekistan .*Samarkand Region/],
    ['condition', 'so-so', /accepted: good, .*needs_repair/],
  ])('an unrecognised %s names the accepted values', async (field, value, accepted) => {
    const e = await expectError(await predict({ ...SAMPLE_VEHICLE_REQUEST, [field]: value }), 400, 'INVALID_PARAMETER', field);
    expect(e.message).toMatch(accepted);
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
    const body = await json(await predict({ ...SAMPLE_VEHICLE_REQUEST, colour: 'white' }));
    expect(body.warnings).toEqual(['unknown field "colour" ignored']);
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
    expect(Object.keys(request.properties)).toEqual(expect.arrayContaining(['make', 'model', 'year', 'mileage', 'body_type', 'transmission', 'fuel', 'condition', 'region', 'engine', 'trim', 'asking_price']));
    expect(request.properties.mileage).toMatchObject({ type: 'integer', minimum: 0, maximum: 2_000_000 });
    const reply = route.responses['200'].content['application/json'].schema;
    expect(reply.required).toEqual(['estimate', 'currency', 'interval', 'confidence', 'models', 'anomaly', 'vehicle', 'model_version', 'valued_at', 'warnings']);
    expect(Object.keys(reply.properties.anomaly.properties)).toEqual(['group_median_price', 'deviation_from_group_median', 'market_listings', 'model_spread', 'flags']);
    expect(doc.info.description).toMatch(/UNKNOWN_VEHICLE \(400\).*INSUFFICIENT_MARKET_DATA \(422\)/);
  });
});
