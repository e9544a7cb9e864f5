/**
 * Split deployment: the gateway calls the residential subgraph over HTTP (SUBGRAPH_TRANSPORT=http).
 * What it answers is compared with the worker's shared stack, whose subgraphs run in process.
 */
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { RawReplySlot } from '../../gateway/graph/raw-reply';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';
import { json, startTestStack, type TestStack } from '../support/stack';
import type { StackClient } from '../support/stack-client';

/** The sample flat as GraphQL's HomeValuationInput, with some fields changed. */
function graphqlInput(changes: Record<string, unknown>): Record<string, unknown> {
  return { district: 'Chilanzar', area: 65, rooms: 2, floor: 4, totalFloors: 9, ...changes };
}

let stack: TestStack;
let key: string;
/** The same service with its subgraphs in process (the shared stack's default transport). */
let inProcess: SharedTestStack;
beforeAll(async () => {
  inProcess = await sharedTestStack();
  stack = await startTestStack({ env: { SUBGRAPH_TRANSPORT: 'http' } });
  key = stack.newKey('enterprise');
});
afterAll(() => stack.stop());

it('values the same over HTTP as in process, on REST and GraphQL', async () => {
  const expected = await json(await inProcess.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': inProcess.newKey() }));
  const rest = await json(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key }));
  expect(rest.estimate).toBe(expected.estimate);
  expect(rest.interval).toEqual(expected.interval);
  const { data } = await json(await stack.post('/graphql', { query: '{ residentialModel { version } }' }, { 'x-api-key': key }));
  expect(data.residentialModel.version).toBe(stack.modelVersion);
  const unknown = await stack.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, district: 'Narnia' }, { 'x-api-key': key });
  expect(unknown.status).toBe(400);
  expect((await json(unknown)).error.code).toBe('UNKNOWN_DISTRICT');
});

it("writes a one-subgraph query's reply as the subgraph's bytes: the same answers, in the same order, as in process", async () => {
  const written = jest.spyOn(RawReplySlot.prototype, 'write');
  try {
    const query = `query Bulk($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index valuation { estimate pricePerM2 interval { low high coverage } fsd confidence { level score drivers } models { name estimate weight } anomaly { flags modelSpread } location { districtName mahallaName matched } modelVersion } error { code field } } }`;
    const inputs = [graphqlInput({}), graphqlInput({ area: 120, rooms: 4 }), graphqlInput({ district: 'Narnia' })];
    const ask = async (target: StackClient, apiKey: string) => {
      const response = await target.post('/graphql', { query, variables: { inputs } }, { 'x-api-key': apiKey });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
      return text;
    };
    // The first request of a document learns its plan (Apollo Gateway's general path); the next takes the single-fetch path.
    await ask(stack, key);
    written.mockClear();
    const overHttp = await ask(stack, key);
    // The handler replaced the data's token with the subgraph's bytes (a Buffer), once.
    expect(written.mock.results.map((r) => Buffer.isBuffer(r.value))).toEqual([true]);
    const expected = await ask(inProcess, inProcess.newKey('enterprise'));
    expect(overHttp).toBe(expected);
    expect(JSON.parse(overHttp).data.homeValuations.map((item: { error: { code: string } | null }) => item.error?.code ?? null)).toEqual([null, null, 'UNKNOWN_DISTRICT']);
    // A reply with errors still goes Apollo Gateway's way: masked, coded.
    const failed = await json(await stack.post('/graphql', { query: `query ($input: HomeValuationInput!) { homeValuation(input: $input) { estimate } }`, variables: { input: graphqlInput({ district: 'Narnia' }) } }, { 'x-api-key': key }));
    expect(failed.errors[0].extensions.code).toBe('UNKNOWN_DISTRICT');
    expect(failed.data).toBeNull();
  } finally {
    written.mockRestore();
  }
});

it('answers 503 SERVICE_UNAVAILABLE, without internal addresses, when the subgraph is down', async () => {
  await stack.residential.close();
  const rest = await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key });
  expect(rest.status).toBe(503);
  const body = await json(rest);
  expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|graphql/);
  const graphql = await json(await stack.post('/graphql', { query: '{ residentialModel { version } }' }, { 'x-api-key': key }));
  expect(graphql.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
  expect(JSON.stringify(graphql)).not.toMatch(/127\.0\.0\.1/);
});

it('takes a batch upload larger than a bulk valuation: the batch subgraph accepts what the gateway sends it', async () => {
  // 60,000 CSV rows with homes (≈ 5 MB) reach the batch subgraph as openBatch and appendBatchItems calls of about 5,000 items each.
  const header = 'address,area,rooms,floor,total_floors,renovation,qurilish_turi,mebel,sanuzel';
  const rows = Array.from({ length: 60_000 }, (_, i) => `"Chilonzor tumani, Qatortol, ${i + 1}-uy",65,3,4,9,Evro,G'ishtli,ha,alohida`);
  const csv = [header, ...rows].join('\n');
  expect(Buffer.byteLength(csv)).toBeGreaterThan(4 * 1024 * 1024);
  const response = await stack.fetch(`/api/batch`, { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': key }, body: csv });
  const body = await json(response);
  expect(response.status).toBe(202);
  expect(body.status).toMatch(/queued|running/);
  const job = await json(await stack.fetch(`/api/batch/${body.id}`, { headers: { 'x-api-key': key } }));
  expect(job.total).toBe(60_000);
  const cancelled = await json(await stack.post('/graphql', { query: `mutation { cancelBatch(id: "${body.id}") { status } }` }, { 'x-api-key': key }));
  expect(cancelled.data.cancelBatch.status).toMatch(/cancelled|completed/);
});
