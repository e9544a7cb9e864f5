/**
 * Valuation records end to end (issue 19): every valuation, on every door, gets a valuation_id whose
 * record its organisation (and no other) can read back, list, sample and revalue.
 */
import { json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';
import { until } from '../support/wait';
import { smallestBySampleKey } from '../../subgraphs/common/valuation-records';

let stack: SharedTestStack;
beforeAll(async () => {
  stack = await sharedTestStack();
});

const FLAT = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
const CAR = { make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000 };
const today = () => new Date().toISOString().slice(0, 10);
const get = (path: string, key: string) => stack.fetch(path, { headers: { 'x-api-key': key } });

async function valueFlat(key: string, body: object = FLAT) {
  const response = await stack.post('/api/predict/home', body, { 'x-api-key': key });
  expect(response.status).toBe(200);
  return json(response);
}

it('a REST valuation is recorded as answered, readable by its organisation only', async () => {
  const bank = stack.newKey();
  const other = stack.newKey();
  const reply = await valueFlat(bank);
  expect(reply.valuation_id).toMatch(/^val_[0-9A-HJKMNP-TV-Z]{26}$/);

  const response = await get(`/api/valuations/${reply.valuation_id}`, bank);
  expect(response.status).toBe(200);
  const record = await json(response);
  expect(record).toMatchObject({ valuation_id: reply.valuation_id, kind: 'home', model_version: reply.model_version, valuation_date: today() });
  expect(record.valuation).toEqual(reply);
  expect(record.input.request).toMatchObject({ district: 'chilanzar', area: 65, rooms: 3, floor: 4, totalFloors: 9, market: 'resale' });
  expect(record.keep_until > today()).toBe(true);

  const foreign = await get(`/api/valuations/${reply.valuation_id}`, other);
  expect(foreign.status).toBe(404);
  expect((await json(foreign)).error).toMatchObject({ code: 'NOT_FOUND' });
  const bad = await get('/api/valuations/not-an-id', bank);
  expect(bad.status).toBe(400);
  expect((await json(bad)).error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'id' });
  expect((await stack.fetch(`/api/valuations/${reply.valuation_id}`)).status).toBe(401);
  // A date before 1970 is refused, not answered with an empty page (issue 33, finding 12).
  const ancient = await get('/api/valuations?since=0001-01-01', bank);
  expect(ancient.status).toBe(400);
  expect((await json(ancient)).error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'since' });
  const sample = await json(await stack.post('/graphql', { query: '{ valuationSample(period: "1969") { population } }' }, { 'x-api-key': bank }));
  expect(sample.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER' });
  expect((await get(`/api/valuations?since=${today()}`, bank)).status).toBe(200);
});

it('GraphQL, vehicle and batch valuations are recorded too, and list newest first across kinds, page by page', async () => {
  const bank = stack.newKey('enterprise');
  const graphql = await json(await stack.post('/graphql', { query: '{ homeValuation(input: { district: "Yunusabad", area: 80, rooms: 3, floor: 5, totalFloors: 9 }) { estimate valuationId } }' }, { 'x-api-key': bank }));
  const fromGraphql = graphql.data.homeValuation.valuationId;
  const car = await json(await stack.post('/api/predict/vehicle', CAR, { 'x-api-key': bank }));
  const submitted = await json(await stack.post('/api/batch', { items: [{ address: 'Юнусабад 8-й квартал', home: { area: 70, rooms: 3, floor: 2, total_floors: 9 } }] }, { 'x-api-key': bank }));
  await until(async () => json(await get(`/api/batch/${submitted.id}`, bank)), (job) => job.status === 'completed');
  const [line] = (await (await get(`/api/batch/${submitted.id}/results`, bank)).text()).trim().split('\n').map((l) => JSON.parse(l));
  const fromBatch = line.result.home.valuation_id;
  expect(fromBatch).toMatch(/^val_/);

  const batchRecord = await json(await get(`/api/valuations/${fromBatch}`, bank));
  expect(batchRecord.valuation.estimate).toBe(line.result.home.estimate);
  const carRecord = await json(await get(`/api/valuations/${car.valuation_id}`, bank));
  expect(carRecord).toMatchObject({ kind: 'vehicle', valuation: { estimate: car.estimate, vehicle: { make: 'Chevrolet', model: 'Cobalt' } } });

  const all = await json(await get('/api/valuations', bank));
  expect(all.valuations.map((v: { valuation_id: string }) => v.valuation_id)).toEqual([fromBatch, car.valuation_id, fromGraphql]);
  const homes = await json(await get('/api/valuations?kind=home', bank));
  expect(homes.valuations.map((v: { valuation_id: string }) => v.valuation_id)).toEqual([fromBatch, fromGraphql]);
  const first = await json(await get('/api/valuations?limit=2', bank));
  expect(first.valuations).toHaveLength(2);
  expect(first.next).toBe(car.valuation_id);
  const second = await json(await get(`/api/valuations?limit=2&before=${first.next}`, bank));
  expect(second.valuations.map((v: { valuation_id: string }) => v.valuation_id)).toEqual([fromGraphql]);
  expect(second.next).toBeNull();
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  expect((await json(await get(`/api/valuations?until=${yesterday}`, bank))).valuations).toEqual([]);
  expect((await get('/api/valuations?limit=5000', bank)).status).toBe(400);
});

it('a sample of a period is random, reproducible from its seed, and only the organisation\'s', async () => {
  const bank = stack.newKey();
  const other = stack.newKey();
  const made = [];
  for (let i = 0; i < 12; i++) made.push((await valueFlat(bank, { ...FLAT, area: 50 + i })).valuation_id);
  await valueFlat(other);
  const month = today().slice(0, 7);
  const sample = await json(await get(`/api/valuations/sample?period=${month}&n=5`, bank));
  expect(sample).toMatchObject({ since: `${month}-01`, population: 12 });
  expect(sample.valuations).toHaveLength(5);
  const ids = sample.valuations.map((v: { valuation_id: string }) => v.valuation_id);
  for (const id of ids) expect(made).toContain(id);
  expect(new Set(ids).size).toBe(5);
  const again = await json(await get(`/api/valuations/sample?period=${month}&n=5&seed=${sample.seed}`, bank));
  expect(again.valuations.map((v: { valuation_id: string }) => v.valuation_id)).toEqual(ids);
  const all = await json(await get(`/api/valuations/sample?period=${today()}&n=200`, bank));
  expect(all.valuations).toHaveLength(12);
  const bad = await get('/api/valuations/sample?period=2026-13', bank);
  expect(bad.status).toBe(400);
  expect((await json(bad)).error).toMatchObject({ field: 'period' });
});

it('a sample across kinds is the n of smallest key of both kinds\' records, whichever kind answers first', async () => {
  const bank = stack.newKey();
  const homes = [];
  for (let i = 0; i < 4; i++) homes.push((await valueFlat(bank, { ...FLAT, area: 60 + i })).valuation_id);
  const cars = [];
  for (let i = 0; i < 3; i++) cars.push((await json(await stack.post('/api/predict/vehicle', { ...CAR, mileage: 50_000 + i * 1000 }, { 'x-api-key': bank }))).valuation_id);
  const idsOf = (sample: { valuations: { valuation_id: string }[] }) => sample.valuations.map((v) => v.valuation_id);
  const oldestFirst = (ids: string[]) => [...ids].sort();
  const all = [...homes, ...cars].map((id) => ({ id }));
  for (const seed of ['q4-review', 'sëed 💰', 'x']) {
    const sample = await json(await get(`/api/valuations/sample?period=${today()}&n=3&seed=${encodeURIComponent(seed)}`, bank));
    expect(sample).toMatchObject({ population: 7, seed });
    expect(idsOf(sample)).toEqual(oldestFirst(smallestBySampleKey(seed, 3, all).map((r) => r.id)));
    const vehicles = await json(await get(`/api/valuations/sample?period=${today()}&n=2&kind=vehicle&seed=${encodeURIComponent(seed)}`, bank));
    expect(vehicles).toMatchObject({ population: 3 });
    expect(idsOf(vehicles)).toEqual(oldestFirst(smallestBySampleKey(seed, 2, cars.map((id) => ({ id }))).map((r) => r.id)));
  }
  const everything = await json(await get(`/api/valuations/sample?period=${today()}&n=200`, bank));
  expect(idsOf(everything)).toEqual(oldestFirst([...homes, ...cars]));
  expect(everything.seed).toMatch(/^[0-9a-f]{12}$/);
});

it('revaluing a record answers beside it with the change explained, and is recorded in its turn', async () => {
  const bank = stack.newKey();
  const before = await valueFlat(bank, { ...FLAT, valuation_date: '2026-01-15' });
  const response = await stack.post(`/api/valuations/${before.valuation_id}/revalue`, {}, { 'x-api-key': bank });
  expect(response.status).toBe(200);
  const { previous, current, change } = await json(response);
  expect(previous.valuation).toEqual(before);
  expect(current.valuation_id).not.toBe(before.valuation_id);
  expect(current.valuation_date).toBe(today());
  expect(change).toMatchObject({ estimate_before: before.estimate, estimate_now: current.valuation.estimate, valuation_date_before: '2026-01-15', valuation_date_now: today(), model_version_now: current.model_version, exchange_rate: 1 });
  // The flat moved with the market index only: same model, no observations.
  expect(change.model).toBeCloseTo(1, 2);
  expect(change.observations).toBeCloseTo(1, 2);
  expect(change.market).toBeGreaterThan(1);
  expect(change.model * change.market * change.observations).toBeCloseTo(change.ratio, 2);
  expect(change.explanation).toMatch(/market from 2026-01-15 to/);
  expect((await get(`/api/valuations/${current.valuation_id}`, bank)).status).toBe(200);
  expect((await stack.post(`/api/valuations/${before.valuation_id}/revalue`, {}, { 'x-api-key': stack.newKey() })).status).toBe(404);
});

it('a revaluation is charged as a valuation: refused with 429 once the plan\'s valuations are spent (issue 33, finding 9)', async () => {
  const bank = stack.newKey('pilot'); // 1,000 valuations a minute
  const record = await valueFlat(bank);
  const inputs = Array.from({ length: 999 }, () => ({ district: 'Chilanzar', area: 65, rooms: 3, floor: 4, totalFloors: 9 }));
  // A minute boundary may fall between the two calls and restore the allowance: then once more.
  let status = 0;
  for (let attempt = 0; attempt < 2 && status !== 429; attempt++) {
    const spent = await stack.post('/graphql', { query: 'query($i: [HomeValuationInput!]!) { homeValuations(inputs: $i) { index } }', variables: { i: inputs } }, { 'x-api-key': bank });
    expect([200, 429]).toContain(spent.status);
    const revalued = await stack.post(`/api/valuations/${record.valuation_id}/revalue`, {}, { 'x-api-key': bank });
    status = revalued.status;
    if (status === 429) expect((await json(revalued)).error.code).toBe('RATE_LIMITED');
  }
  expect(status).toBe(429);
});

it('a valuation in soʻm is recorded in soʻm and revalued in soʻm', async () => {
  const bank = stack.newKey();
  const before = await valueFlat(bank, { ...FLAT, currency: 'UZS' });
  expect(before.currency).toBe('UZS');
  const record = await json(await get(`/api/valuations/${before.valuation_id}`, bank));
  expect(record.valuation).toEqual(before);
  const { current, change } = await json(await stack.post(`/api/valuations/${before.valuation_id}/revalue`, {}, { 'x-api-key': bank }));
  expect(current.valuation.currency).toBe('UZS');
  expect(change.exchange_rate).toBe(1);
  expect(change.ratio).toBeCloseTo(1, 2);
});
