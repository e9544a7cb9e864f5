/**
 * Issue 33, findings 2 and 3: bulk work (an observation upload, its export, a batch's results)
 * pauses between its parts while another caller's request is in flight, as long as the part took,
 * and runs without pauses alone. Over HTTP to the real gateway, with a pacer that records its
 * pauses instead of waiting them.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { BulkPacer } from '../../gateway/http/bulk-pacing';
import { json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

const pauses: number[] = [];
const pacer = new BulkPacer({ sleep: async (ms) => void pauses.push(ms) });
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ pacer });
});
afterAll(() => stack?.stop());

const today = () => new Date().toISOString().slice(0, 10);
const FLAT = { district: 'Chilanzar', rooms: 3, floor: 4, total_floors: 9, market: 'resale' };

/** 2,500 flats (three parts of at most 1,000) as NDJSON, priced near the model. */
const upload = (): string => Array.from({ length: 2_500 }, (_, i) => JSON.stringify({ kind: 'home', ...FLAT, area: 55 + (i % 30), price_usd: 60_000 + 700 * (i % 30), observed_at: today() })).join('\n');

async function recordUpload(key: string): Promise<number> {
  const response = await stack.fetch('/api/observations', { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': key }, body: upload() });
  expect(response.status).toBe(200);
  return (await json(response)).accepted;
}

/** A GraphQL request whose headers are in (so it is authenticated and in flight) and whose body never comes, until `release`. */
async function heldRequest(key: string): Promise<{ release(): void }> {
  const before = pacer.load().inFlight;
  const held: ClientRequest = httpRequest(`${stack.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100', 'x-api-key': key } });
  held.on('error', () => undefined); // destroyed on release
  held.flushHeaders();
  await until(async () => pacer.load().inFlight, (inFlight) => inFlight === before + 1);
  return { release: () => held.destroy() };
}

it('an upload alone runs its parts without pausing; with another bank\'s request in flight it pauses before each', async () => {
  const uploader = stack.newKey('enterprise');
  pauses.length = 0;
  expect(await recordUpload(uploader)).toBe(2_500);
  expect(pauses).toEqual([]);

  const held = await heldRequest(stack.newKey());
  try {
    expect(await recordUpload(uploader)).toBe(2_500);
    // Before each of the three parts: as long as the bulk part before it took (a part of 500 or 1,000 flats takes milliseconds at least).
    expect(pauses).toHaveLength(3);
    for (const ms of pauses) expect(ms).toBeGreaterThanOrEqual(1);

    // The export reads pages of 1,000 (5,000 kept: five pages and an empty one), pausing before each.
    pauses.length = 0;
    const exported = await stack.fetch('/api/observations?kind=home', { headers: { 'x-api-key': uploader } });
    expect((await exported.text()).trim().split('\n')).toHaveLength(5_000);
    expect(pauses).toHaveLength(6);
  } finally {
    held.release();
  }
  await until(async () => pacer.load().inFlight, (inFlight) => inFlight === 0);
  pauses.length = 0;
  expect(await recordUpload(uploader)).toBe(2_500);
  expect(pauses).toEqual([]);
});

it('a request without a valid key is not counted: it cannot slow anyone\'s upload down', async () => {
  const { arrived } = pacer.load();
  const refused = await stack.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
  expect(refused.status).toBe(401);
  expect(pacer.load()).toEqual({ inFlight: 0, arrived });
  const answered = await stack.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': stack.newKey() }, body: '{"query":"{ __typename }"}' });
  expect(answered.status).toBe(200);
  await until(async () => pacer.load().inFlight, (inFlight) => inFlight === 0);
  expect(pacer.load().arrived).toBe(arrived + 1);
});
