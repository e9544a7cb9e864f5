/**
 * Hostile input, generated (fast-check): thousands of malformed bodies to every REST route, to
 * the GraphQL operations and to every MCP tool, made from valid requests by replacing, adding and nesting values (wrong
 * types, huge numbers, NaN and Infinity as JSON text, deep nesting, very long and unusual unicode
 * strings, prototype-pollution keys), plus broken JSON and oversized bodies. No reply may be a
 * 5xx; every reply is a success or an error with a documented code; the service answers afterwards.
 * REST bodies also get integers past 32 bits and nesting thousands of levels deep, in process and
 * with the subgraphs over HTTP, where each must be a 400 (issue 13, finding 6).
 * Seeds are fixed, so a failure replays; fast-check shrinks it to the smallest body that fails.
 */
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { GRAPHQL_REQUEST_CODES } from '../../gateway/graph/error-masking';
import { ERROR_CATALOGUE } from '../../schema/errors';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectHttp, SAMPLE_HOME_ARGUMENTS } from '../mcp/support';
import { fragmentBomb } from '../support/hostile-documents';
import { json, startTestStack, useTestStack, type TestStack } from '../support/stack';

const DOCUMENTED = new Set(Object.keys(ERROR_CATALOGUE).filter((code) => code !== 'INTERNAL'));

let stack: TestStack;
beforeAll(async () => {
  // Unchecked: the bodies are hostile on purpose, and the replies are checked here.
  stack = await startTestStack({ checkResponses: false });
});
afterAll(async () => {
  await agent.close();
  await stack?.stop();
});

/**
 * The thousands of hostile requests go out by undici's request over kept-alive connections, with the
 * headers fetch sends: fetch costs the client about 0.3 ms of CPU a request more (3,000 requests to
 * a bare server in one process, client and server: fetch 1.1–1.7 s, undici's request 0.26–0.51 s,
 * node:http 0.28–0.55 s), 11,000 requests here. What reaches the service is the same request.
 */
const agent = new Agent();
const FETCH_HEADERS = { accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node', 'accept-encoding': 'gzip, deflate' };
interface Reply {
  status: number;
  text(): Promise<string>;
}
async function send(url: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const reply = await request(url, { method: body === undefined ? 'GET' : 'POST', dispatcher: agent, headers: { ...FETCH_HEADERS, ...headers }, body });
  const text = await reply.body.text();
  return { status: reply.statusCode, text: async () => text };
}

/** Each target gets an organisation of its own, so no quota is exhausted (enterprise: 6,000 a minute). */
const keyFor = (() => {
  const keys = new Map<string, string>();
  return (target: string) => keys.get(target) ?? (keys.set(target, stack.newKey('enterprise')), keys.get(target)!);
})();

// ---- Generators ----------------------------------------------------------------------------------

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'toString', 'hasOwnProperty'];

/** A value of any JSON type a client could send, hostile ones weighted up. */
const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string(),
    fc.string({ unit: 'binary', maxLength: 64 }),
    fc.string({ minLength: 5_000, maxLength: 20_000 }),
    fc.integer(),
    fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 1e-320, 0.5, -0),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...PROTO_KEYS)), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** JSON text to put in a body as it is (nesting too deep for the test's own JSON.stringify). */
class JsonText {
  constructor(readonly text: string) {}
}
const jsonText = (value: unknown): string => (value instanceof JsonText ? value.text : JSON.stringify(value) ?? 'null');
/** An object's JSON text from its entries: built as text so that "__proto__" stays a key of the JSON, not the object's prototype. */
const objectText = (entries: Iterable<[string, unknown]>): string => `{${[...entries].map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;

/** Arrays or objects nested `min` to `max` levels deep, as JSON text. */
const nesting = (min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.boolean()).map(([depth, arrays]) =>
    new JsonText(arrays ? `${'['.repeat(depth)}"bottom"${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`));
/** Hundreds of levels: parsers and validators must not recurse into a crash. */
const deepNesting = nesting(100, 2_000);
/** Thousands of levels: past what a recursive walk of the value survives (a REST body refuses them with 400). */
const veryDeepNesting = nesting(3_000, 5_000);
/**
 * Documents shaped to make validation slow (issue 13, finding 1): fragment bombs, alias and
 * directive floods, one field repeated (the quadratic overlap check), deep selections.
 */
const hostileDocument = fc.oneof(
  fc.integer({ min: 8, max: 40 }).map((levels) => fragmentBomb(levels)),
  fc.integer({ min: 40, max: 3_000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`),
  fc.integer({ min: 40, max: 600 }).map((n) => `{ __typename ${'@include(if: true) '.repeat(n)}}`),
  fc.tuple(fc.integer({ min: 20, max: 2_000 }), fc.constantFrom('__typename', 'residentialModel { version }', 'districts { name }')).map(([n, field]) => `{ ${`${field} `.repeat(n)}}`),
  fc.integer({ min: 10, max: 1_000 }).map((depth) => `{ ${'... on Query { '.repeat(depth)}residentialModel { version } ${'} '.repeat(depth)}}`),
);
/** Integers GraphQL's Int cannot hold, and 1e308: a REST body refuses them with 400 before any GraphQL variable. */
const hugeInteger = fc.oneof(fc.constantFrom(2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 32, 1e308, -1e308), fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }));

/**
 * A valid body changed: fields replaced (by hostile values or `nested` ones) or removed, keys
 * added (prototype keys among them).
 */
function mutated(valid: Record<string, unknown>, nested: fc.Arbitrary<JsonText> = deepNesting): fc.Arbitrary<string> {
  const fields = Object.keys(valid);
  return fc
    .record({
      replace: fc.array(fc.tuple(fc.constantFrom(...fields), fc.oneof(hostileValue, nested)), { maxLength: 3 }),
      remove: fc.subarray(fields, { maxLength: Math.min(3, fields.length) }),
      add: fc.array(fc.tuple(fc.oneof(fc.string(), fc.constantFrom(...PROTO_KEYS)), fc.oneof({ weight: 3, arbitrary: hostileValue }, { weight: 1, arbitrary: nested })), { maxLength: 3 }),
    })
    .map(({ replace, remove, add }) => objectText([...Object.entries(valid).filter(([k]) => !remove.includes(k)), ...replace, ...add]));
}

/** A valid body with one or two of its fields out of bounds: an integer past 32 bits (or 1e308), or thousands of levels of nesting. */
function outOfBounds(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const fields = Object.keys(valid);
  return fc
    .array(fc.tuple(fc.constantFrom(...fields), fc.oneof(hugeInteger, veryDeepNesting)), { minLength: 1, maxLength: 2 })
    .map((replace) => objectText(new Map<string, unknown>([...Object.entries(valid), ...replace])));
}

/** Text that is not the JSON a route wants: broken JSON, JSON's non-values, other types at the top. */
const brokenText = fc.oneof(
  fc.constantFrom('', '{', '}', '{"area":', 'NaN', '{"area": NaN}', '{"area": Infinity}', '{"area": -Infinity}', 'null', 'true', '[]', '"text"', '{"a":1}{"b":2}', '\u0000', '\ufeff{}'),
  fc.string(),
  hostileValue.map((v) => JSON.stringify(v) ?? 'null'),
  fc.oneof(deepNesting, veryDeepNesting).map((v) => v.text),
);

function bodyFor(valid: Record<string, unknown>): fc.Arbitrary<string> {
  return fc.oneof({ weight: 6, arbitrary: mutated(valid, fc.oneof(deepNesting, veryDeepNesting)) }, { weight: 3, arbitrary: brokenText });
}

// ---- Checks --------------------------------------------------------------------------------------

async function expectDocumentedRestReply(response: Reply, label: string): Promise<void> {
  const text = await response.text();
  expect([label, response.status, text.slice(0, 300)]).toEqual([label, expect.any(Number), expect.any(String)]);
  if (response.status >= 500) throw new Error(`${label}: ${response.status} ${text.slice(0, 500)}`);
  if (response.status >= 400) {
    const body = JSON.parse(text);
    if (!DOCUMENTED.has(body?.error?.code)) throw new Error(`${label}: undocumented error ${text.slice(0, 500)}`);
  }
}

const REST_ROUTES: Array<{ path: string; valid: Record<string, unknown>; runs: number; auth?: 'bearer' }> = [
  { path: '/api/predict/home', valid: SAMPLE_HOME_REQUEST, runs: 2_000 },
  { path: '/api/predict/vehicle', valid: { make: 'Chevrolet', model: 'Cobalt', year: 2019, mileage: 60_000, transmission: 'automatic' }, runs: 1_500 },
  { path: '/api/location/index', valid: { lat: 41.2995, lon: 69.2401 }, runs: 1_500 },
  { path: '/api/batch', valid: { items: [{ address: 'Куйлюк-5', home: { area: 65, rooms: 3 } }], callback_url: 'https://example.org/hook', chunk_size: 100 }, runs: 1_000 },
  { path: '/service/predict/home', valid: SAMPLE_HOME_REQUEST, runs: 1_000, auth: 'bearer' },
];

describe.each(REST_ROUTES)('POST $path', ({ path, valid, runs, auth }) => {
  test(`${runs} hostile bodies: no 5xx, every error documented`, async () => {
    const key = keyFor(path);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (auth === 'bearer') {
      const token = await json(await stack.post('/service/auth/token', {}, { 'x-api-key': key }));
      headers.authorization = `Bearer ${token.access_token}`;
    } else headers['x-api-key'] = key;
    await fc.assert(
      fc.asyncProperty(bodyFor(valid), fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded'), async (body, contentType) => {
        const response = await send(stack.url + path, { ...headers, 'content-type': contentType }, body);
        await expectDocumentedRestReply(response, `${path} ${contentType} ${body.slice(0, 200)}`);
      }),
      { numRuns: runs, seed: 20261122, endOnFailure: true },
    );
  });
});

describe('with the subgraphs called over HTTP (split deployment)', () => {
  // Where a subgraph's refusal of a value GraphQL cannot coerce used to come back as 503.
  const split = useTestStack({ checkResponses: false, env: { SUBGRAPH_TRANSPORT: 'http' } });

  test.each(REST_ROUTES.filter((route) => route.auth === undefined))('POST $path, 150 bodies with a field past 32 bits or nested thousands of levels: 400, documented', async ({ path, valid }) => {
    await fc.assert(
      fc.asyncProperty(outOfBounds(valid), async (body) => {
        const response = await send(split.stack.url + path, { 'content-type': 'application/json', 'x-api-key': split.key }, body);
        await expectDocumentedRestReply(response, `${path} ${body.slice(0, 200)}`);
        if (response.status !== 400) throw new Error(`${path}: ${response.status} for ${body.slice(0, 300)}`);
      }),
      { numRuns: 150, seed: 20261122, endOnFailure: true },
    );
  });
});

test('hostile ids and query strings on the batch read routes: no 5xx, every error documented', async () => {
  const key = keyFor('batch-reads');
  const id = fc.oneof(fc.string(), fc.uuid(), fc.constantFrom('..', '%00', '%2e%2e%2f', 'a'.repeat(5_000), '__proto__', "' OR 1=1 --"));
  await fc.assert(
    fc.asyncProperty(id, fc.constantFrom('', '/results', '/results?format=csv', '/results?format=xml', '/results?format[]=csv'), async (raw, suffix) => {
      const response = await send(`${stack.url}/api/batch/${encodeURIComponent(raw)}${suffix}`, { 'x-api-key': key });
      await expectDocumentedRestReply(response, `batch ${JSON.stringify(raw).slice(0, 100)}${suffix}`);
    }),
    { numRuns: 800, seed: 20261122, endOnFailure: true },
  );
});

test('oversized bodies are refused with 413 PAYLOAD_TOO_LARGE, not read into memory', async () => {
  const key = keyFor('oversized');
  for (const [path, size] of [['/api/predict/home', 2 * 1024 * 1024], ['/api/location/index', 1024 * 1024], ['/api/batch', 25 * 1024 * 1024], ['/graphql', 3 * 1024 * 1024]] as const) {
    const body = `{"area":"${'x'.repeat(size)}"}`;
    const response = await fetch(stack.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body });
    expect([path, response.status]).toEqual([path, 413]);
    expect((await json(response)).error.code).toBe('PAYLOAD_TOO_LARGE');
  }
});

// ---- GraphQL ---------------------------------------------------------------------------------------

const GRAPHQL_OPERATIONS: Array<{ name: string; query: string; variables: Record<string, unknown>; runs: number }> = [
  {
    name: 'homeValuation',
    query: 'query($i: HomeValuationInput!) { homeValuation(input: $i) { estimate interval { low high } } }',
    variables: { i: { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, totalFloors: 9 } },
    runs: 1_000,
  },
  {
    name: 'vehicleValuation',
    query: 'query($i: VehicleValuationInput!) { vehicleValuation(input: $i) { estimate } }',
    variables: { i: { make: 'Chevrolet', model: 'Cobalt', year: 2019 } },
    runs: 600,
  },
  {
    name: 'locationIndex',
    query: 'query($lat: Float!, $lon: Float!) { locationIndex(lat: $lat, lon: $lon) { composite { score } } }',
    variables: { lat: 41.2995, lon: 69.2401 },
    runs: 600,
  },
  {
    name: 'geocode',
    query: 'query($a: String!) { geocode(address: $a) { lat lon } }',
    variables: { a: 'Куйлюк-5' },
    runs: 600,
  },
  {
    name: 'submitBatch',
    query: 'mutation($input: SubmitBatchInput!) { submitBatch(input: $input) { id } }',
    variables: { input: { items: [{ address: 'Куйлюк-5' }] } },
    runs: 400,
  },
];

function graphqlErrorCodes(body: { errors?: Array<{ extensions?: { code?: string } }> }): string[] {
  return (body.errors ?? []).map((e) => e.extensions?.code ?? '(none)');
}

describe.each(GRAPHQL_OPERATIONS)('GraphQL $name', ({ name, query, variables, runs }) => {
  test(`${runs} hostile variables or documents: no 5xx, every error code documented`, async () => {
    const key = keyFor(`graphql-${name}`);
    const request = fc.oneof(
      { weight: 6, arbitrary: mutated(variables, fc.oneof(deepNesting, veryDeepNesting)).map((v) => `{"query":${JSON.stringify(query)},"variables":${v}}`) },
      { weight: 1, arbitrary: hostileDocument.map((q) => JSON.stringify({ query: q, variables })) },
      { weight: 2, arbitrary: fc.oneof(fc.string(), deepNesting.map((v) => v.text), hostileValue.map((v) => JSON.stringify(v) ?? 'null')).map((q) => `{"query":${JSON.stringify(q)}}`) },
      { weight: 1, arbitrary: brokenText },
    );
    await fc.assert(
      fc.asyncProperty(request, async (body) => {
        const response = await send(`${stack.url}/graphql`, { 'content-type': 'application/json', 'x-api-key': key }, body);
        const text = await response.text();
        if (response.status >= 500) throw new Error(`${name}: ${response.status} ${text.slice(0, 500)} for ${body.slice(0, 300)}`);
        const parsed = JSON.parse(text);
        const codes = parsed.error ? [parsed.error.code] : graphqlErrorCodes(parsed);
        for (const code of codes) {
          if (!DOCUMENTED.has(code) && !GRAPHQL_REQUEST_CODES.has(code)) throw new Error(`${name}: undocumented ${code}: ${text.slice(0, 500)} for ${body.slice(0, 300)}`);
        }
      }),
      { numRuns: runs, seed: 20261122, endOnFailure: true },
    );
  });
});

// ---- MCP tools -------------------------------------------------------------------------------------

const MCP_TOOLS: Array<{ name: string; valid: Record<string, unknown> }> = [
  { name: 'value_home', valid: { ...SAMPLE_HOME_ARGUMENTS } },
  { name: 'value_vehicle', valid: { make: 'Chevrolet', model: 'Cobalt', year: 2019, mileage: 60_000 } },
  { name: 'location_index', valid: { lat: 41.2995, lon: 69.2401 } },
  { name: 'geocode_address', valid: { address: 'Yunusobod 8 kvartal' } },
  { name: 'list_districts', valid: { district: 'Chilanzar', include_mahallas: false } },
  { name: 'submit_batch', valid: { items: [{ address: 'Куйлюк-5' }] } },
  { name: 'get_batch_status', valid: { id: '00000000-0000-4000-8000-000000000000', results_limit: 1 } },
  { name: 'get_model_accuracy', valid: { kind: 'residential' } },
];

describe.each(MCP_TOOLS)('MCP tool $name', ({ name, valid }) => {
  test('200 hostile argument objects: never a crash or protocol error, every tool error documented', async () => {
    const connected = await connectHttp(stack, { 'x-api-key': keyFor(`mcp-${name}`) });
    try {
      await fc.assert(
        fc.asyncProperty(mutated(valid), async (text) => {
          const args = JSON.parse(text) as Record<string, unknown>;
          let result: CallToolResult;
          try {
            result = (await connected.client.callTool({ name, arguments: args })) as CallToolResult;
          } catch (error) {
            // Refused at HTTP, before MCP (the gateway's JSON parser refuses __proto__ keys): a 4xx with the catalogue's body.
            const refused = /Error POSTing to endpoint: (\{.*\})$/s.exec((error as Error).message);
            const code = refused ? JSON.parse(refused[1]).error?.code : undefined;
            if (!DOCUMENTED.has(code)) throw error;
            return;
          }
          if (!result.isError) return;
          const first = result.content[0];
          const body = first?.type === 'text' ? JSON.parse(first.text.slice(first.text.indexOf('\n') + 1)) : undefined;
          if (!DOCUMENTED.has(body?.error?.code)) throw new Error(`${name}: undocumented tool error ${JSON.stringify(result).slice(0, 500)} for ${text.slice(0, 300)}`);
        }),
        { numRuns: 200, seed: 20261122, endOnFailure: true },
      );
    } finally {
      await connected.close();
    }
  });
});

test('afterwards the service still answers, with the same valuation as before', async () => {
  const key = stack.newKey('enterprise');
  const health = await fetch(`${stack.url}/ready`);
  expect(health.status).toBe(200);
  const valued = await json(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key }));
  expect(valued.estimate).toBeGreaterThan(0);
  expect(Object.getPrototypeOf({}).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).area).toBeUndefined();
});
