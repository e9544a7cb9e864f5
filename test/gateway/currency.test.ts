/**
 * Issue 19 on every door of the real service: `currency` in (REST home and vehicle, the bearer
 * route, GraphQL with the Currency enum, bulk, MCP, batch items), amounts in soʻm and
 * `exchange_rate` out, converted at the CBU's official rate of the valuation date (models/currency).
 * USD, asked for or not, stays what it was.
 */
import { CBU_DAILY_RATES, CLIENT_RATE_SOURCE, rateForDate } from '../../models/currency';
import { SAMPLE_HOME_REQUEST, SAMPLE_HOUSE_REQUEST } from '../../schema/home-contract';
import { SAMPLE_VEHICLE_REQUEST } from '../../schema/vehicle-contract';
import { callOk, connectHttp, SAMPLE_HOME_ARGUMENTS, type Connected } from '../mcp/support';
import { expectError, json } from '../support/stack-client';
import { useSharedTestStack } from '../support/shared-stack';
import { until } from '../support/wait';

const fixture = useSharedTestStack();
const predictHome = async (body: unknown) => json(await fixture.post('/api/predict/home', body));
const predictVehicle = async (body: unknown) => json(await fixture.post('/api/predict/vehicle', body));
const gql = async (query: string, variables?: Record<string, unknown>) => json(await fixture.post('/graphql', { query, variables }));

/** USD → whole 1,000 soʻm (values) or whole soʻm (prices per unit), as the README states. */
const thousands = (usd: number, rate: number) => Math.round((usd * rate) / 1000) * 1000;
const whole = (usd: number, rate: number) => Math.round(usd * rate);

/** A reply without the time it was made. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const timeless = ({ valued_at: _time, valuation_id: _id, ...rest }: any) => rest; // each call is a valuation (and a record) of its own

/** A day with a CBU rate of its own (a Thursday), and one past the official rates (within what a home valuation accepts). */
const APRIL_2025 = '2025-04-17';
const APRIL_RATE = 12_994.59; // the CBU's official rate of 2025-04-17
const JUNE_RATE = 12_712.05; // of 2025-06-10, the vehicles' date
const last = CBU_DAILY_RATES[CBU_DAILY_RATES.length - 1];
const PAST_THE_RATES = '2026-09-15';

describe('POST /api/predict/home with currency', () => {
  it('answers in soʻm at the CBU rate of the valuation date, every amount converted and rounded, the rate named', async () => {
    const usd = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: APRIL_2025 });
    const uzs = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: APRIL_2025, currency: 'uzs' });
    const k = APRIL_RATE;
    expect(uzs.currency).toBe('UZS');
    expect(uzs.exchange_rate).toEqual({ usd_to_uzs: k, date: APRIL_2025, source: 'Central Bank of Uzbekistan (cbu.uz), official USD rate of 2025-04-17' });
    expect(uzs.estimate).toBe(thousands(usd.estimate, k));
    expect(uzs.estimate % 1000).toBe(0);
    expect(uzs.interval).toEqual({ low: thousands(usd.interval.low, k), high: thousands(usd.interval.high, k), coverage: usd.interval.coverage });
    expect(uzs.price_per_m2).toBe(whole(usd.price_per_m2, k));
    expect(uzs.models).toEqual(usd.models.map((m: { estimate: number }) => ({ ...m, estimate: thousands(m.estimate, k) })));
    expect(uzs.anomaly).toEqual({
      ...usd.anomaly,
      district_median_price_per_m2: whole(usd.anomaly.district_median_price_per_m2, k),
      mahalla_median_price_per_m2: usd.anomaly.mahalla_median_price_per_m2 === null ? null : whole(usd.anomaly.mahalla_median_price_per_m2, k),
    });
    // The flat is sent without its market: its new-build and resale valuations are values too.
    const values = (c: { estimate: number; low: number; high: number }) => ({ estimate: thousands(c.estimate, k), low: thousands(c.low, k), high: thousands(c.high, k) });
    expect(uzs.market_mixture).toEqual({ ...usd.market_mixture, new_build: values(usd.market_mixture.new_build), resale: values(usd.market_mixture.resale) });
    // What has no currency is the same: the date has a CBU rate of its own, so no warning is added.
    const { estimate: _e, currency: _c, exchange_rate: _r, price_per_m2: _p, interval: _i, models: _m, anomaly: _a, market_mixture: _x, ...rest } = timeless(uzs);
    expect(rest).toEqual(Object.fromEntries(Object.keys(rest).map((key) => [key, timeless(usd)[key]])));
  });

  it('leaves USD as it was: no currency and currency "USD" give the same reply, without exchange_rate', async () => {
    const plain = await predictHome(SAMPLE_HOME_REQUEST);
    const asked = await predictHome({ ...SAMPLE_HOME_REQUEST, currency: 'USD' });
    expect(plain.currency).toBe('USD');
    expect('exchange_rate' in plain).toBe(false);
    expect(timeless(asked)).toEqual(timeless(plain));
  });

  it('on a weekend converts at the newest official rate before it, named so, without a warning', async () => {
    const usd = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: '2026-07-19' });
    const uzs = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: '2026-07-19', currency: 'UZS' });
    expect(uzs.exchange_rate).toEqual({ usd_to_uzs: 12_093.35, date: '2026-07-17', source: 'Central Bank of Uzbekistan (cbu.uz), official USD rate of 2026-07-17, the newest published before 2026-07-19' });
    expect(uzs.warnings).toEqual(usd.warnings);
  });

  it('past the official rates converts at the last published (2026-08-21), says plainly it is not the rate of its date and names the rate\'s date', async () => {
    const usd = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: PAST_THE_RATES });
    const uzs = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: PAST_THE_RATES, currency: 'UZS' });
    expect(uzs.exchange_rate).toEqual({ usd_to_uzs: last.usdToUzs, date: '2026-08-21', source: rateForDate(PAST_THE_RATES).rate.source });
    expect(uzs.exchange_rate.source).toMatch(/last published official USD rate .* of 2026-08-21: not the rate of 2026-09-15$/);
    expect(uzs.estimate).toBe(thousands(usd.estimate, last.usdToUzs));
    expect(uzs.warnings).toContain("no official USD/UZS rate after 2026-08-21 in the service's data: converted at the Central Bank of Uzbekistan's last published rate, of 2026-08-21, not the rate of 2026-09-15");
  });

  it('before the official rates converts at the monthly table, with its warning', async () => {
    const uzs = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: '2021-01-15', currency: 'UZS' });
    expect(uzs.exchange_rate).toMatchObject({ usd_to_uzs: 10_480, date: '2021-02-01', source: expect.stringMatching(/first banking day of 2021-02.*monthly rate table$/) });
    expect(uzs.warnings).toContain('no USD/UZS rate before 2021-02 in the monthly table: converted at the 2021-02 rate');
  });

  it("converts a house's plot figures (whole soʻm per sotka)", async () => {
    const usd = await predictHome({ ...SAMPLE_HOUSE_REQUEST, valuation_date: APRIL_2025 });
    const uzs = await predictHome({ ...SAMPLE_HOUSE_REQUEST, valuation_date: APRIL_2025, currency: 'UZS' });
    expect(usd.land_price_per_sotka).toEqual(expect.any(Number));
    expect(uzs.land_price_per_sotka).toBe(whole(usd.land_price_per_sotka, APRIL_RATE));
    expect(uzs.anomaly.district_median_price_per_sotka).toBe(whole(usd.anomaly.district_median_price_per_sotka, APRIL_RATE));
    expect(uzs.anomaly.land_share).toBe(usd.anomaly.land_share);
  });

  it('takes currency on the bearer route too', async () => {
    const { access_token } = await json(await fixture.stack.post('/service/auth/token', {}, { 'x-api-key': fixture.key }));
    const response = await fixture.stack.post('/service/predict/home', { ...SAMPLE_HOME_REQUEST, valuation_date: APRIL_2025, currency: 'Uzs' }, { authorization: `Bearer ${access_token}` });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ currency: 'UZS', exchange_rate: { usd_to_uzs: APRIL_RATE } });
  });

  it('refuses any other currency with 400 INVALID_PARAMETER naming currency', async () => {
    for (const currency of ['EUR', 'sum', '', 840]) {
      const body = await expectError(await fixture.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, currency }), 400, 'INVALID_PARAMETER', 'currency');
      expect(body.message).toMatch(/^currency must be/);
    }
    const body = await expectError(await fixture.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, currency: 'EUR' }), 400, 'INVALID_PARAMETER', 'currency');
    expect(body.message).toBe('currency must be one of USD, UZS');
  });
});

describe("a client's own exchange_rate (issue 35, item 5)", () => {
  const OWN = 12_650;

  it('converts a home at it, names it as the client\'s dated the valuation date, without a warning, and keeps it with the record', async () => {
    const usd = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: PAST_THE_RATES });
    const own = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: PAST_THE_RATES, currency: 'UZS', exchange_rate: OWN });
    expect(own.exchange_rate).toEqual({ usd_to_uzs: OWN, date: PAST_THE_RATES, source: CLIENT_RATE_SOURCE });
    expect(own.estimate).toBe(thousands(usd.estimate, OWN));
    expect(own.interval).toEqual({ low: thousands(usd.interval.low, OWN), high: thousands(usd.interval.high, OWN), coverage: usd.interval.coverage });
    // Past the official rates the CBU's conversion warns that its rate is not of the date; the client's own is.
    expect(own.warnings).toEqual(usd.warnings);
    const record = await json(await fixture.stack.fetch(`/api/valuations/${own.valuation_id}`, { headers: { 'x-api-key': fixture.key } }));
    expect(record.valuation.exchange_rate).toEqual(own.exchange_rate);
  });

  it('converts a vehicle at it, in GraphQL too', async () => {
    const query = 'query ($input: VehicleValuationInput!) { vehicleValuation(input: $input) { currency estimate exchangeRate { usdToUzs date source } } }';
    const input = { make: 'Chevrolet', model: 'Cobalt', year: 2019, mileage: 60000, valuationDate: '2025-06-10' };
    const usd = await gql(query, { input });
    const own = await gql(query, { input: { ...input, currency: 'UZS', exchangeRate: OWN } });
    expect(own.errors).toBeUndefined();
    expect(own.data.vehicleValuation).toEqual({ currency: 'UZS', estimate: thousands(usd.data.vehicleValuation.estimate, OWN), exchangeRate: { usdToUzs: OWN, date: '2025-06-10', source: CLIENT_RATE_SOURCE } });
  });

  it('is refused with USD (nothing would be converted at it) and out of its bounds, naming exchange_rate', async () => {
    await expectError(await fixture.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, exchange_rate: OWN }), 400, 'INVALID_PARAMETER', 'exchange_rate');
    await expectError(await fixture.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, currency: 'UZS', exchange_rate: 1 / OWN }), 400, 'INVALID_PARAMETER', 'exchange_rate');
    await expectError(await fixture.post('/api/predict/vehicle', { ...SAMPLE_VEHICLE_REQUEST, currency: 'UZS', exchange_rate: 'twelve' }), 400, 'INVALID_PARAMETER', 'exchange_rate');
  });
});

describe('POST /api/predict/vehicle with currency', () => {
  it('answers in soʻm, the group median a value in whole 1,000 soʻm', async () => {
    const date = '2025-06-10';
    const usd = await predictVehicle({ ...SAMPLE_VEHICLE_REQUEST, valuation_date: date });
    const uzs = await predictVehicle({ ...SAMPLE_VEHICLE_REQUEST, valuation_date: date, currency: 'UZS' });
    const k = JUNE_RATE;
    expect(uzs).toMatchObject({ currency: 'UZS', exchange_rate: { usd_to_uzs: k, date: '2025-06-10' } });
    expect(uzs.estimate).toBe(thousands(usd.estimate, k));
    expect(uzs.interval).toEqual({ low: thousands(usd.interval.low, k), high: thousands(usd.interval.high, k), coverage: usd.interval.coverage });
    expect(uzs.models).toEqual(usd.models.map((m: { estimate: number }) => ({ ...m, estimate: thousands(m.estimate, k) })));
    expect(uzs.anomaly).toEqual({ ...usd.anomaly, group_median_price: usd.anomaly.group_median_price === null ? null : thousands(usd.anomaly.group_median_price, k) });
    expect(uzs.vehicle).toEqual(usd.vehicle);
    expect(uzs.warnings).toEqual(usd.warnings);
    expect('exchange_rate' in usd).toBe(false);
  });

  it('refuses any other currency with 400 INVALID_PARAMETER naming currency', async () => {
    await expectError(await fixture.post('/api/predict/vehicle', { ...SAMPLE_VEHICLE_REQUEST, currency: 'RUB' }), 400, 'INVALID_PARAMETER', 'currency');
  });
});

describe('GraphQL: the Currency enum', () => {
  const HOME = { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9, valuationDate: APRIL_2025 };
  const VEHICLE = { make: 'Chevrolet', model: 'Cobalt', year: 2019, mileage: 60000, valuationDate: '2025-06-10' };
  const FIELDS = 'estimate currency exchangeRate { usdToUzs date source } interval { low high } warnings';

  it('values a home in UZS as REST does, and in USD with exchangeRate null', async () => {
    const { data, errors } = await gql(`query($input: HomeValuationInput!) {
      uzs: homeValuation(input: $input) { ${FIELDS} }
      usd: homeValuation(input: { district: "Chilanzar", mahalla: "Qatortol", area: 65, rooms: 3, floor: 4, totalFloors: 9, valuationDate: "${APRIL_2025}" }) { ${FIELDS} }
    }`, { input: { ...HOME, currency: 'UZS' } });
    expect(errors).toBeUndefined();
    const rest = await predictHome({ ...SAMPLE_HOME_REQUEST, mebel: undefined, renovation: undefined, qurilish_turi: undefined, sanuzel: undefined, valuation_date: APRIL_2025, currency: 'UZS' });
    expect(data.uzs).toMatchObject({ estimate: rest.estimate, currency: 'UZS', exchangeRate: { usdToUzs: APRIL_RATE, date: APRIL_2025, source: rest.exchange_rate.source }, interval: { low: rest.interval.low, high: rest.interval.high } });
    expect(data.usd.currency).toBe('USD');
    expect(data.usd.exchangeRate).toBeNull();
    expect(data.uzs.estimate).toBe(thousands(data.usd.estimate, APRIL_RATE));
  });

  it('converts each item of a bulk query to the currency its own input asked for', async () => {
    const homes = await gql(`query($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index valuation { ${FIELDS} } error { code field } } }`, {
      inputs: [HOME, { ...HOME, currency: 'UZS' }, { ...HOME, currency: 'USD' }, { ...HOME, area: 5, currency: 'UZS' }],
    });
    expect(homes.errors).toBeUndefined();
    const [usd, uzs, asked, bad] = homes.data.homeValuations;
    expect([usd.valuation.currency, uzs.valuation.currency, asked.valuation.currency]).toEqual(['USD', 'UZS', 'USD']);
    expect(uzs.valuation.estimate).toBe(thousands(usd.valuation.estimate, APRIL_RATE));
    expect(asked.valuation).toEqual(usd.valuation);
    expect(bad).toMatchObject({ valuation: null, error: { code: 'INVALID_PARAMETER', field: 'area' } });

    const vehicles = await gql(`query($inputs: [VehicleValuationInput!]!) { vehicleValuations(inputs: $inputs) { index valuation { ${FIELDS} } } }`, { inputs: [VEHICLE, { ...VEHICLE, currency: 'UZS' }] });
    expect(vehicles.errors).toBeUndefined();
    const [car, carUzs] = vehicles.data.vehicleValuations.map((r: { valuation: unknown }) => r.valuation);
    expect(carUzs).toMatchObject({ currency: 'UZS', exchangeRate: { usdToUzs: JUNE_RATE, date: '2025-06-10' } });
    expect(carUzs.estimate).toBe(thousands(car.estimate, JUNE_RATE));
    expect(car.exchangeRate).toBeNull();
  });

  it('values a vehicle in UZS with the enum literal', async () => {
    const { data, errors } = await gql(`{ vehicleValuation(input: { make: "Chevrolet", model: "Cobalt", year: 2019, valuationDate: "2025-06-10", currency: UZS }) { ${FIELDS} } }`);
    expect(errors).toBeUndefined();
    expect(data.vehicleValuation).toMatchObject({ currency: 'UZS', exchangeRate: { usdToUzs: JUNE_RATE } });
  });

  it('refuses a currency the enum does not have', async () => {
    const { errors } = await gql(`{ homeValuation(input: { district: "Chilanzar", area: 65, rooms: 3, floor: 4, totalFloors: 9, currency: EUR }) { estimate } }`);
    expect(errors?.[0]?.message).toMatch(/EUR/);
  });
});

describe('MCP value_home and value_vehicle with currency', () => {
  let session: Connected;
  beforeAll(async () => {
    session = await connectHttp(fixture.stack, { 'x-api-key': fixture.key });
  });
  afterAll(() => session?.close());

  it('answers a home in soʻm exactly as the REST route does, and says so in the summary', async () => {
    const { reply, summary } = await callOk(session.client, 'value_home', { ...SAMPLE_HOME_ARGUMENTS, valuation_date: APRIL_2025, currency: 'uzs' });
    const rest = await predictHome({ ...SAMPLE_HOME_REQUEST, valuation_date: APRIL_2025, currency: 'uzs' });
    expect(timeless(reply)).toEqual(timeless(rest));
    expect(summary).toMatch(/^Estimated [\d,]+ UZS \(90% interval/);
    expect(summary).toContain('UZS/m²');
    expect(summary).toContain('Converted at 12,994.59 UZS per USD (2025-04-17).');
  });

  it("takes the client's own exchange_rate as REST does", async () => {
    const { reply } = await callOk(session.client, 'value_home', { ...SAMPLE_HOME_ARGUMENTS, valuation_date: APRIL_2025, currency: 'UZS', exchange_rate: 12_650 });
    expect(reply.exchange_rate).toEqual({ usd_to_uzs: 12_650, date: APRIL_2025, source: CLIENT_RATE_SOURCE });
  });

  it('answers a vehicle in soʻm', async () => {
    const { reply, summary } = await callOk(session.client, 'value_vehicle', { ...SAMPLE_VEHICLE_REQUEST, valuation_date: '2025-06-10', currency: 'UZS' });
    expect(reply).toMatchObject({ currency: 'UZS', exchange_rate: { usd_to_uzs: JUNE_RATE, date: '2025-06-10' } });
    expect(summary).toMatch(/estimated [\d,]+ UZS \(90% interval/);
  });

  it('refuses another currency as a tool error naming currency', async () => {
    const result = await session.client.callTool({ name: 'value_home', arguments: { ...SAMPLE_HOME_ARGUMENTS, currency: 'EUR' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('INVALID_PARAMETER');
    expect(JSON.stringify(result.content)).toContain('currency');
  });
});

describe('batch items and observations', () => {
  it("values a batch item's home in the currency it asks for (any case); USD items carry no exchangeRate", async () => {
    const home = { area: 65, rooms: 3, floor: 4, total_floors: 9, valuation_date: APRIL_2025 };
    const submitted = await fixture.post('/api/batch', { items: [{ address: 'Чиланзар 9-й квартал', home: { ...home, currency: 'uzs' } }, { address: 'Чиланзар 9-й квартал', home }] });
    expect(submitted.status).toBe(202);
    const { id } = await json(submitted);
    await until(async () => json(await fixture.stack.fetch(`/api/batch/${id}`, { headers: { 'x-api-key': fixture.key } })), (job) => job.status === 'completed');
    const lines = (await (await fixture.stack.fetch(`/api/batch/${id}/results`, { headers: { 'x-api-key': fixture.key } })).text()).trim().split('\n').map((l) => JSON.parse(l));
    const [uzs, usd] = lines.map((l) => l.result.home);
    expect(uzs).toMatchObject({ currency: 'UZS', exchange_rate: { usd_to_uzs: APRIL_RATE, date: APRIL_2025 } });
    expect(uzs.estimate).toBe(thousands(usd.estimate, APRIL_RATE));
    expect(usd.currency).toBe('USD');
    expect('exchange_rate' in usd).toBe(false);
  });

  it('refuses a bad currency in a batch item in its place', async () => {
    await expectError(await fixture.post('/api/batch', { items: [{ address: 'Чиланзар 9-й квартал', home: { area: 65, rooms: 3, floor: 4, total_floors: 9, currency: 'EUR' } }] }), 400, 'INVALID_PARAMETER', 'items[0].home.currency');
  });

  it('refuses currency on an observation: its price is price_usd', async () => {
    const reply = await json(await fixture.post('/api/observations', { observations: [{ kind: 'home', ...SAMPLE_HOME_REQUEST, price_usd: 70_000, observed_at: new Date().toISOString().slice(0, 10), currency: 'UZS' }] }));
    expect(reply.accepted).toBe(0);
    expect(reply.rejected[0].error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'currency' });
  });
});
