/**
 * The subgraph server's fast lane (platform/fast-lane.ts): a query Apollo Server accepted once is
 * run again without it, and every answer reads exactly as Apollo Server's: the same body, status
 * and content type; a result with errors is formatted by Apollo, never run twice; anything the lane
 * does not know goes to Apollo. A real subgraph server (platform/serve.ts) on an ephemeral port.
 */
import { GraphQLError, GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { FastLane } from '../../platform/fast-lane';
import { INTERNAL_TOKEN_HEADER } from '../../platform/graphql-over-http';
import { serveSubgraph, type RunningService } from '../../platform/serve';

const TOKEN = 'fast-lane-test-token';
let resolved = 0;
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      double: { type: GraphQLInt, args: { n: { type: new GraphQLNonNull(GraphQLInt) } }, resolve: (_root, { n }: { n: number }) => (resolved++, 2 * n) },
      organisation: { type: GraphQLString, resolve: (_root, _args, context: { organisation: string | null }) => (resolved++, context.organisation) },
      /** Text beyond ASCII, as a valuation's drivers and places have: the answer's length in bytes is not its length in characters. */
      note: { type: GraphQLString, resolve: () => 'Tashkent › Chilanzar: −34% to +57% (FSD ≤ 0.3), Oʻzbekiston' },
      refused: {
        type: GraphQLInt,
        resolve: () => {
          resolved++;
          throw new GraphQLError('Unknown district "Narnia"', { extensions: { code: 'UNKNOWN_DISTRICT', field: 'district' } });
        },
      },
    },
  }),
});

let service: RunningService;
beforeAll(async () => {
  service = await serveSubgraph({ name: 'lane', schema, host: '127.0.0.1', port: 0, internalToken: TOKEN, compiled: true, context: (caller) => ({ organisation: caller.principal?.org ?? null }) });
});
afterAll(() => service.close());

const lane = jest.spyOn(FastLane.prototype, 'run');
beforeEach(() => lane.mockClear());

/** The lane's outcomes in this test so far: true where it answered itself. */
async function laneAnswered(): Promise<boolean[]> {
  return Promise.all(lane.mock.results.map(async (r) => (await r.value).answered !== null));
}

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(service.url, { method: 'POST', headers: { 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: TOKEN, 'x-organisation': 'org-a', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, type: response.headers.get('content-type'), length: response.headers.get('content-length'), body: await response.text() };
}

test("a query Apollo Server accepted is answered by the lane, as Apollo answered it, with the request's own context", async () => {
  const query = 'query Twice($n: Int!) { double(n: $n) organisation note }';
  const before = resolved;
  const first = await post({ query, variables: { n: 21 }, operationName: 'Twice' });
  const second = await post({ query, variables: { n: 21 }, operationName: 'Twice' });
  const body = '{"data":{"double":42,"organisation":"org-a","note":"Tashkent › Chilanzar: −34% to +57% (FSD ≤ 0.3), Oʻzbekiston"}}\n';
  // The same bytes and the same content-length (UTF-8 bytes, not characters) as Apollo Server's.
  expect(first).toEqual({ status: 200, type: 'application/json; charset=utf-8', length: String(Buffer.byteLength(body)), body });
  expect(second).toEqual(first);
  expect(await laneAnswered()).toEqual([false, true]);
  expect(resolved - before).toBe(4);
  const other = await post({ query, variables: { n: 5 }, operationName: 'Twice' }, { 'x-organisation': 'org-b' });
  expect(JSON.parse(other.body)).toEqual({ data: { double: 10, organisation: 'org-b', note: expect.any(String) } });
});

test("a result with errors is Apollo Server's to answer, and is not run again", async () => {
  const query = '{ double(n: 1) refused }';
  const before = resolved;
  const first = await post({ query });
  const second = await post({ query });
  expect(JSON.parse(first.body)).toEqual({ errors: [{ message: 'Unknown district "Narnia"', locations: [{ line: 1, column: 16 }], path: ['refused'], extensions: { code: 'UNKNOWN_DISTRICT', field: 'district' } }], data: { double: 2, refused: null } });
  expect(second).toEqual(first);
  // The second ran in the lane and was handed to Apollo: two fields a request, each once.
  expect(await laneAnswered()).toEqual([false, false]);
  expect(lane).toHaveBeenCalledTimes(2);
  expect(resolved - before).toBe(4);
});

test('variables refused before anything runs, unknown media types and APQ go to Apollo Server', async () => {
  const query = 'query ($n: Int!) { double(n: $n) }';
  const before = resolved;
  const bad = await post({ query, variables: { n: 'many' } });
  expect(bad.status).toBe(400);
  expect(JSON.parse(bad.body).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  expect(await post({ query, variables: { n: 'many' } })).toEqual(bad);
  expect(resolved).toBe(before);
  // The text is known now. An accept header none of Apollo's types satisfies: Apollo's 406.
  const html = await post({ query, variables: { n: 2 } }, { accept: 'text/html' });
  expect(html.status).toBe(406);
  // A body Apollo reads otherwise (persisted query extensions) is not the lane's either.
  const apq = await post({ query, variables: { n: 2 }, extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } });
  expect(apq.status).toBe(400);
  // The lane looked at the two refused requests only (not at text/html or APQ), and answered neither.
  expect(await laneAnswered()).toEqual([false, false]);
});

test.each([
  ['application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
  // What Hive Gateway sends its subgraphs (@graphql-tools/executor-http).
  ['application/graphql-response+json, application/json, multipart/mixed', 'application/graphql-response+json; charset=utf-8'],
  ['application/json; charset=utf-8, application/graphql-response+json; charset=utf-8', 'application/json; charset=utf-8'],
  ['application/json;q=0.9, application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
  ['*/*', 'application/json; charset=utf-8'],
])('accept %s: the lane answers in the media type Apollo Server chose', async (accept, type) => {
  const query = `query Typed($n: Int!) { double(n: $n) } # ${accept}`;
  const first = await post({ query, variables: { n: 3 } }, { accept });
  const second = await post({ query, variables: { n: 3 } }, { accept });
  expect(first).toEqual({ status: 200, type, length: '22', body: '{"data":{"double":6}}\n' });
  expect(second).toEqual(first);
  expect(await laneAnswered()).toEqual([false, true]);
});

test('the lane is behind the internal token like the rest of the subgraph', async () => {
  const query = 'query Twice($n: Int!) { double(n: $n) organisation }';
  const response = await fetch(service.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: { n: 1 } }) });
  expect(response.status).toBe(401);
  expect(lane).not.toHaveBeenCalled();
});
