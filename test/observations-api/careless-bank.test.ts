/**
 * Issue 33 against the observations, over HTTP to the real gateway: a careless bank's prices are
 * refused or bounded, and can be retracted (finding 6); refusals are listed up to 1,000 with a count
 * (finding 3); a key revoked mid-upload stops it, observations and batch alike (finding 7); a plan's
 * storage quota (finding 8).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { PRICE_USD as VEHICLE_TRAINING_PRICES } from '../../models/vehicle/ingest/limits';
import { DEFAULT_PLANS_FILE } from '../../platform/plans';
import { MIN_PRICE_USD } from '../../subgraphs/common/observation-envelope';
import { callOk, connectHttp } from '../mcp/support';
import { expectError, json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

// A plan that keeps 40 observations of a kind, beside the repository's plans.
const PLANS_FILE = join(tmpdir(), `plans-careless-bank-${process.pid}.json`);
const plans = JSON.parse(readFileSync(DEFAULT_PLANS_FILE, 'utf8'));
writeFileSync(PLANS_FILE, JSON.stringify({ ...plans, tiny: { ...plans.standard, maxStoredObservations: 40 } }));

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { PLANS_FILE } });
});
afterAll(() => stack?.stop());

const FLAT = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
const today = () => new Date().toISOString().slice(0, 10);
const asKey = (key: string) => ({ 'x-api-key': key });

async function valueFlat(key: string) {
  const response = await stack.post('/api/predict/home', FLAT, asKey(key));
  expect(response.status).toBe(200);
  return json(response);
}

/** `n` flats like FLAT at `ratio` × the model's estimate of the flat. */
async function pricedAt(ratio: number, n: number, estimate: number) {
  return Array.from({ length: n }, (_, i) => ({ kind: 'home', ...FLAT, price_usd: Math.round(estimate * ratio * (1 + 0.03 * Math.sin(i))), observed_at: today(), price_type: 'sale', reference: `r-${i}` }));
}

async function record(key: string, observations: unknown[]) {
  const response = await stack.post('/api/observations', { observations }, asKey(key));
  expect(response.status).toBe(200);
  return json(response);
}

it('refuses a CSV number with a thousands separator in its place, never reading "72,000" as 72; and a price under a fifth of the cheapest the model knows (finding 6)', async () => {
  const bank = stack.newKey();
  const csv = [
    'kind,district,area,rooms,floor,total_floors,market,price_usd,observed_at,reference',
    `home,Chilanzar,65,3,4,9,resale,"72,000",${today()},grouped`,
    `home,Chilanzar,"65,5",3,4,9,resale,72000,${today()},decimal-comma`,
    `home,Chilanzar,65,3,4,9,resale,"1,250,000",${today()},millions`,
  ].join('\n');
  const response = await stack.fetch('/api/observations', { method: 'POST', headers: { 'content-type': 'text/csv', ...asKey(bank) }, body: csv });
  const result = await json(response);
  expect(result.accepted).toBe(1);
  expect(result.accepted_observations[0].reference).toBe('decimal-comma');
  expect(result.rejected.map((r: { index: number; error: { code: string; field: string } }) => [r.index, r.error.code, r.error.field])).toEqual([[0, 'INVALID_PARAMETER', 'price_usd'], [2, 'INVALID_PARAMETER', 'price_usd']]);
  expect(result.rejected[0].error.message).toMatch(/thousands separator.*72000 or 72\.000/);
  const kept = await json(await stack.post('/graphql', { query: '{ observations(kind: HOME) { priceUsd input } }' }, asKey(bank)));
  expect(kept.data.observations.map((o: { priceUsd: number }) => o.priceUsd)).toEqual([72000]);

  expect(MIN_PRICE_USD.vehicle).toBe(VEHICLE_TRAINING_PRICES.min / 5); // the floor stated as the training data's
  const tiny = await record(bank, [{ kind: 'home', ...FLAT, price_usd: 1e-300, observed_at: today() }, { kind: 'vehicle', make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000, price_usd: 99, observed_at: today() }]);
  expect(tiny.rejected.map((r: { error: { code: string; field: string; message: string } }) => [r.error.code, r.error.field, /cheapest (home|vehicle) the model was trained on/.test(r.error.message)])).toEqual([
    ['INVALID_PARAMETER', 'price_usd', true], ['INVALID_PARAMETER', 'price_usd', true],
  ]);
});

it('bounds the factor of prices far below the model and says so; retracting them (REST, GraphQL, MCP) gives the valuation back; another organisation cannot retract them (finding 6)', async () => {
  const bank = stack.newKey();
  const other = stack.newKey();
  const before = await valueFlat(bank);
  expect(before.market_adjustment).toBeNull();
  // Thirty prices at 0.3 × the model's: inside MAX_PRICE_RATIO (5), far past any market's move.
  const recorded = await record(bank, await pricedAt(0.3, 30, before.estimate));
  expect(recorded.accepted).toBe(30);
  const ids: string[] = recorded.accepted_observations.map((a: { id: string }) => a.id);

  const wrecked = await valueFlat(bank);
  expect(wrecked.market_adjustment.factor).toBeCloseTo(0.5, 3);
  expect(wrecked.estimate / before.estimate).toBeGreaterThan(0.49);
  expect(wrecked.warnings.join(' ')).toMatch(/× 0\.3\d* the model's; market factors are bounded to × 0\.5–2, so × 0\.50 was applied/);

  // Another organisation's retraction finds nothing, on each door, and moves nothing.
  await expectError(await stack.fetch(`/api/observations/${ids[0]}`, { method: 'DELETE', headers: asKey(other) }), 404, 'NOT_FOUND', 'id');
  const foreign = await json(await stack.post('/graphql', { query: 'mutation($ids: [ID!]!) { retractObservations(ids: $ids) { retracted notFound } }', variables: { ids } }, asKey(other)));
  expect(foreign.data.retractObservations).toEqual({ retracted: 0, notFound: ids });
  expect((await valueFlat(bank)).estimate).toBe(wrecked.estimate);

  // The bank retracts them: one by REST, ten by MCP, the rest by GraphQL.
  const deleted = await stack.fetch(`/api/observations/${ids[0]}`, { method: 'DELETE', headers: asKey(bank) });
  expect(deleted.status).toBe(200);
  expect(await json(deleted)).toEqual({ id: ids[0], retracted: true });
  await expectError(await stack.fetch(`/api/observations/${ids[0]}`, { method: 'DELETE', headers: asKey(bank) }), 404, 'NOT_FOUND', 'id');
  const mcp = await connectHttp(stack, asKey(bank));
  try {
    const { reply, summary } = await callOk(mcp.client, 'retract_observations', { ids: ids.slice(1, 11) });
    expect(reply).toMatchObject({ retracted: 10, retracted_ids: ids.slice(1, 11), not_found: [] });
    expect(summary).toMatch(/^10 observations retracted/);
  } finally {
    await mcp.close();
  }
  // The rest by GraphQL, with a vehicle's (kept by the other valuation subgraph) and an id no one has.
  const vehicle = await record(bank, [{ kind: 'vehicle', make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000, price_usd: 11_800, observed_at: today() }]);
  expect(vehicle.accepted).toBe(1);
  const rest = [...ids.slice(11), vehicle.accepted_observations[0].id];
  const retracted = await json(await stack.post('/graphql', { query: 'mutation($ids: [ID!]!) { retractObservations(ids: $ids) { retracted retractedIds notFound } }', variables: { ids: [...rest, 'obs_nonesuch'] } }, asKey(bank)));
  expect(retracted.data.retractObservations).toEqual({ retracted: 20, retractedIds: rest, notFound: ['obs_nonesuch'] });
  expect((await json(await stack.post('/graphql', { query: '{ observations(kind: VEHICLE) { id } }' }, asKey(bank)))).data.observations).toEqual([]);

  // Refitted without them: the valuation is the model's again.
  const restored = await until(() => valueFlat(bank), (valued) => valued.market_adjustment === null);
  expect(restored.estimate).toBe(before.estimate);
  expect(restored.warnings.join(' ')).not.toMatch(/bounded/);
});

it('lists the first 1,000 refused items of an upload and counts them all (finding 3)', async () => {
  const bank = stack.newKey();
  const good = JSON.stringify({ kind: 'home', ...FLAT, price_usd: 70_000, observed_at: today() });
  const body = [...Array.from({ length: 2_500 }, (_, i) => `{"junk": ${i}}`), good].join('\n');
  const response = await stack.fetch('/api/observations', { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...asKey(bank) }, body });
  const result = await json(response);
  expect(result.accepted).toBe(1);
  expect(result.rejected_count).toBe(2_500);
  expect(result.rejected).toHaveLength(1_000);
  expect(result.rejected[999].index).toBe(999);
  const graphql = await json(await stack.post('/graphql', {
    query: 'mutation($i: RecordObservationsInput!) { recordObservations(input: $i) { accepted rejectedCount rejected { index } } }',
    variables: { i: { observations: Array.from({ length: 1_200 }, () => ({ kind: 'HOME', home: {}, priceUsd: 70_000, observedAt: today() })) } },
  }, asKey(bank)));
  expect(graphql.data.recordObservations.rejectedCount).toBe(1_200);
  expect(graphql.data.recordObservations.rejected).toHaveLength(1_000);
});

it('stops an upload whose key is revoked mid-way: 401, and what was recorded before stays (finding 7)', async () => {
  const org = `revoked-mid-upload-${process.pid}`;
  const uploader = stack.keys.create({ org, plan: 'standard' });
  const reader = stack.keys.create({ org, plan: 'standard' });
  const line = (i: number) => `${JSON.stringify({ kind: 'home', ...FLAT, area: 50 + (i % 40), price_usd: 60_000 + (i % 40) * 1000, observed_at: today(), reference: `u-${i}` })}\n`;
  const encoder = new TextEncoder();
  let push!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (controller) => { push = controller; } });
  const uploading = fetch(`${stack.url}/api/observations`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...asKey(uploader.key) }, body, duplex: 'half' } as RequestInit);
  const count = async () => (await (await stack.fetch('/api/observations?kind=home', { headers: asKey(reader.key) })).text()).split('\n').filter(Boolean).length;

  // The first part (1,000 rows) is recorded while the upload goes on.
  push.enqueue(encoder.encode(Array.from({ length: 1_000 }, (_, i) => line(i)).join('')));
  await until(count, (n) => n === 1_000);
  stack.keys.revoke(uploader.record.id);
  push.enqueue(encoder.encode(Array.from({ length: 1_500 }, (_, i) => line(1_000 + i)).join('')));
  push.close();

  const error = await expectError(await uploading, 401, 'INVALID_API_KEY');
  expect(error.message).toMatch(/the upload was stopped there; the 1,000 observations recorded before .* are kept/);
  expect(await count()).toBe(1_000);
});

it('stops a batch upload whose key is revoked mid-way: 401, and its job is cancelled (finding 7)', async () => {
  const org = `revoked-mid-batch-${process.pid}`;
  const uploader = stack.keys.create({ org, plan: 'standard' });
  const reader = stack.keys.create({ org, plan: 'standard' });
  const encoder = new TextEncoder();
  let push!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (controller) => { push = controller; } });
  const uploading = fetch(`${stack.url}/api/batch`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...asKey(uploader.key) }, body, duplex: 'half' } as RequestInit);
  const jobs = async () => (await json(await stack.post('/graphql', { query: '{ batchJobs { jobs { id status } } }' }, asKey(reader.key)))).data.batchJobs.jobs as { id: string; status: string }[];
  const item = `${JSON.stringify({ address: 'Chilonzor tumani, 13-kvartal' })}\n`;

  // More than a part's worth: the job is opened with the first part while the upload goes on.
  push.enqueue(encoder.encode(item.repeat(6_000)));
  const [job] = await until(jobs, (listed) => listed.length === 1);
  stack.keys.revoke(uploader.record.id);
  push.enqueue(encoder.encode(item.repeat(6_000)));
  push.close();

  const error = await expectError(await uploading, 401, 'INVALID_API_KEY');
  expect(error.message).toContain(`batch job ${job.id} was cancelled`);
  expect((await jobs())[0]).toEqual({ id: job.id, status: 'cancelled' });
});

it('stops a backtest upload whose key is revoked mid-way: 401 (finding 7)', async () => {
  const org = `revoked-mid-backtest-${process.pid}`;
  const uploader = stack.keys.create({ org, plan: 'standard' });
  const reader = stack.keys.create({ org, plan: 'standard' });
  const encoder = new TextEncoder();
  let push!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (controller) => { push = controller; } });
  const uploading = fetch(`${stack.url}/api/backtest?kind=home`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...asKey(uploader.key) }, body, duplex: 'half' } as RequestInit);
  const jobs = async () => (await json(await stack.post('/graphql', { query: '{ batchJobs { jobs { id status } } }' }, asKey(reader.key)))).data.batchJobs.jobs as { id: string }[];
  const line = (i: number) => `${JSON.stringify({ ...FLAT, area: 50 + (i % 40), price_usd: 60_000 + (i % 40) * 1000, observed_at: today() })}\n`;

  // More than a part's worth (5,000): the backtest is opened with the first part while the upload goes on.
  push.enqueue(encoder.encode(Array.from({ length: 6_000 }, (_, i) => line(i)).join('')));
  await until(jobs, (listed) => listed.length === 1);
  stack.keys.revoke(uploader.record.id);
  push.enqueue(encoder.encode(Array.from({ length: 6_000 }, (_, i) => line(i)).join('')));
  push.close();
  await expectError(await uploading, 401, 'INVALID_API_KEY');
});

it('refuses observations past the plan\'s storage quota with 413 OBSERVATION_QUOTA_EXCEEDED; retracting makes room (finding 8)', async () => {
  const bank = stack.newKey('tiny');
  const estimate = (await valueFlat(bank)).estimate;
  const first = await record(bank, await pricedAt(1, 30, estimate));
  expect(first.accepted).toBe(30);
  const refused = await stack.post('/api/observations', { observations: await pricedAt(1, 11, estimate) }, asKey(bank));
  const error = await expectError(refused, 413, 'OBSERVATION_QUOTA_EXCEEDED', 'observations');
  expect(error.message).toMatch(/at most 40 observations of homes; 30 are kept and this call brings 11 more/);
  const graphql = await json(await stack.post('/graphql', { query: 'mutation($i: RecordObservationsInput!) { recordObservations(input: $i) { accepted } }', variables: { i: { observations: [{ kind: 'HOME', home: { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, totalFloors: 9, market: 'resale' }, priceUsd: estimate, observedAt: today() }] } } }, asKey(bank)));
  expect(graphql.data.recordObservations.accepted).toBe(1);
  expect((await record(bank, await pricedAt(1, 9, estimate))).accepted).toBe(9);
  await expectError(await stack.post('/api/observations', { observations: await pricedAt(1, 1, estimate) }, asKey(bank)), 413, 'OBSERVATION_QUOTA_EXCEEDED');
  const deleted = await stack.fetch(`/api/observations/${first.accepted_observations[0].id}`, { method: 'DELETE', headers: asKey(bank) });
  expect(deleted.status).toBe(200);
  expect((await record(bank, await pricedAt(1, 1, estimate))).accepted).toBe(1);
});
