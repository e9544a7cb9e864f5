/**
 * Access, on every surface: nothing without valid credentials (REST, GraphQL over HTTP and
 * WebSocket, MCP, batch results — the URL a webhook names); one organisation never sees another's
 * jobs; and API keys and tokens never reach a log. The subgraphs called directly past the gateway,
 * without the internal token, are every subgraph's contract: test/subgraphs/contract.test.ts.
 */
import WebSocket from 'ws';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { json, startTestStack, type TestStack } from '../support/stack';
import { until, waitFor } from '../support/wait';

let stack: TestStack;
let keyA: string;
let keyB: string;
let tokenA: string;
let jobOfA: string;
/** Everything the process printed while the file ran: console and the raw streams. */
const printed: string[] = [];

beforeAll(async () => {
  for (const method of ['log', 'error', 'warn', 'info', 'debug'] as const) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    jest.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
  stack = await startTestStack();
  keyA = stack.newKey('enterprise');
  keyB = stack.newKey('enterprise');
  tokenA = (await json(await stack.post('/service/auth/token', {}, { 'x-api-key': keyA }))).access_token;
  expect(tokenA).toBeTruthy();
  const submitted = await stack.post('/api/batch', { items: [{ address: 'Куйлюк-5' }, { address: 'Chilonzor tumani, 13-kvartal' }] }, { 'x-api-key': keyA });
  expect(submitted.status).toBe(202);
  jobOfA = (await json(submitted)).id;
  await until(async () => json(await get(`/api/batch/${jobOfA}`, { 'x-api-key': keyA })), (job) => job.status === 'completed', 30_000);
});
afterAll(async () => {
  await stack?.stop();
  jest.restoreAllMocks();
});

const get = (path: string, headers: Record<string, string> = {}) => stack.fetch(path, { headers });
const BAD_KEY = 'tvk_' + 'x'.repeat(40);

/** Every credential a request can be missing or have wrong, as headers. */
const NO_ACCESS: Array<[string, Record<string, string>]> = [
  ['no credentials', {}],
  ['an unknown API key', { 'x-api-key': BAD_KEY }],
  ['a malformed bearer token', { authorization: 'Bearer not.a.jwt' }],
  ['a forged bearer token', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJvcmciOiJ4IiwicGxhbiI6ImVudGVycHJpc2UifQ.c2lnbmF0dXJl' }],
];

describe.each(NO_ACCESS)('with %s', (_label, headers) => {
  test('every REST data route answers 401 and no data', async () => {
    const calls: Array<Promise<Response>> = [
      stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, headers),
      stack.post('/api/predict/vehicle', { make: 'Chevrolet', model: 'Cobalt', year: 2019 }, headers),
      stack.post('/api/location/index', { lat: 41.3, lon: 69.25 }, headers),
      stack.post('/api/batch', { items: [{ address: 'Куйлюк-5' }] }, headers),
      get(`/api/batch/${jobOfA}`, headers),
      // The URL a completion webhook names.
      get(`/api/batch/${jobOfA}/results`, headers),
      get(`/api/batch/${jobOfA}/results?format=csv`, headers),
      stack.post('/service/predict/home', SAMPLE_HOME_REQUEST, headers),
      stack.post('/service/auth/token', {}, headers),
      // The MCP tool server: even listing the tools needs a key.
      stack.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream', ...headers }),
    ];
    for (const response of await Promise.all(calls)) {
      expect([response.url, response.status]).toEqual([response.url, 401]);
      const body = await json(response);
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error.code).toMatch(/^(INVALID_API_KEY|INVALID_TOKEN|MISSING_API_KEY|MISSING_TOKEN)$/);
    }
  });

  test('GraphQL over HTTP answers 401 to any operation, introspection included', async () => {
    const operations = [
      '{ residentialModel { version } }',
      '{ districts { name } }',
      `{ batchJob(id: "${jobOfA}") { status } }`,
      `{ batchResults(id: "${jobOfA}") { items { index } } }`,
      '{ batchWebhookSecret }',
      '{ __schema { queryType { name } } }',
      'mutation { submitBatch(input: { items: [{ address: "Куйлюк-5" }] }) { id } }',
    ];
    for (const query of operations) {
      const response = await stack.post('/graphql', { query }, headers);
      expect([query, response.status]).toEqual([query, 401]);
      expect(JSON.stringify(await json(response))).not.toMatch(/"data"/);
      const viaGet = await get(`/graphql?query=${encodeURIComponent(query)}`, { ...headers, 'apollo-require-preflight': '1' });
      expect([query, viaGet.status]).toEqual([query, 401]);
    }
  });

  test('GraphQL over WebSocket closes with 4403 before any event', async () => {
    const payload = headers['x-api-key'] ? { 'x-api-key': headers['x-api-key'] } : headers.authorization ? { authorization: headers.authorization } : {};
    const socket = new WebSocket(stack.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
    const messages: string[] = [];
    socket.on('message', (data) => messages.push(data.toString()));
    // Only a connection_ack would allow a subscribe; none comes.
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
    const code = await new Promise<number>((resolve) => socket.on('close', (closeCode) => resolve(closeCode)));
    expect(code).toBe(4403);
    expect(messages).toEqual([]);
  });
});

describe("another organisation's jobs", () => {
  const gql = async (query: string, key: string) => json(await stack.post('/graphql', { query }, { 'x-api-key': key }));

  test('are invisible to it on REST and GraphQL, and cannot be cancelled', async () => {
    expect((await get(`/api/batch/${jobOfA}`, { 'x-api-key': keyB })).status).toBe(404);
    expect((await get(`/api/batch/${jobOfA}/results`, { 'x-api-key': keyB })).status).toBe(404);
    expect((await gql(`{ batchJob(id: "${jobOfA}") { id } }`, keyB)).data.batchJob).toBeNull();
    expect((await gql(`{ batchResults(id: "${jobOfA}") { items { index } } }`, keyB)).errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(`mutation { cancelBatch(id: "${jobOfA}") { id } }`, keyB)).errors[0].extensions.code).toBe('NOT_FOUND');
    const listed = await gql('{ batchJobs(limit: 100) { jobs { id } } }', keyB);
    expect(listed.data.batchJobs.jobs.map((j: { id: string }) => j.id)).not.toContain(jobOfA);
    // …while its owner sees it, with a key or with the token made from it.
    expect((await gql(`{ batchJob(id: "${jobOfA}") { status } }`, keyA)).data.batchJob.status).toBe('completed');
    const withToken = await json(await stack.post('/graphql', { query: `{ batchJob(id: "${jobOfA}") { status } }` }, { authorization: `Bearer ${tokenA}` }));
    expect(withToken.data.batchJob.status).toBe('completed');
  });

  test('and their progress is not streamed to it', async () => {
    const socket = new WebSocket(stack.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
    const messages: Array<{ type: string; payload?: unknown }> = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': keyB } }));
    await waitFor(() => messages.some((m) => m.type === 'connection_ack'), 10_000);
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: `subscription { batchProgress(id: "${jobOfA}") { processed } }` } }));
    await waitFor(() => messages.some((m) => m.type === 'error' || m.type === 'complete'), 10_000);
    socket.close();
    // An execution error (not a protocol one): one result with the error and no data, then complete.
    expect(messages.map((m) => m.type)).toEqual(['connection_ack', 'next', 'complete']);
    const result = messages[1].payload as { data?: unknown; errors: Array<{ extensions: { code: string } }> };
    expect(result.data ?? null).toBeNull();
    expect(result.errors.map((e) => e.extensions.code)).toEqual(['NOT_FOUND']);
  });
});

test('API keys and tokens never appear in the logs, also when requests with them fail', async () => {
  // Requests carrying them that fail in every way: a bad query, a rejected body, an unknown route, a near-miss key.
  await stack.post('/graphql', { query: '{ nope }' }, { 'x-api-key': keyA });
  await stack.post('/api/predict/home', { area: -1 }, { 'x-api-key': keyA });
  await stack.post('/service/predict/home', { area: 'x' }, { authorization: `Bearer ${tokenA}` });
  await get('/api/nowhere', { 'x-api-key': keyA });
  await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': `${keyA}x` });
  // The gateway logs no request lines, only events (start-up, outages, masked errors): what is there must not hold a secret.
  const logged = [...stack.logs, ...printed].join('\n');
  for (const secret of [keyA, keyB, tokenA, keyA.slice(4, 24), tokenA.split('.')[2]]) {
    expect(logged).not.toContain(secret);
  }
});
