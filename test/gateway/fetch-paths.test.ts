/**
 * The gateway's two shortcuts around Apollo Gateway's general path (issue 34, item 2):
 * gateway/graph/fetch-batching.ts (the fetches of one request to one subgraph issued together go as
 * one call, each getting back exactly its own reply) and gateway/graph/single-fetch.ts (an operation
 * planned as one fetch asking exactly what the client asked is answered with the subgraph's reply;
 * anything else takes the general path). Over HTTP both are exercised by every gateway test with
 * SUBGRAPH_TRANSPORT=http (test/gateway/http-transport.test.ts); here their decisions, one by one.
 */
import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { execute, parse, buildSchema, type OperationDefinitionNode } from 'graphql';
import type { GatewayContext } from '../../gateway/graph/context';
import { FetchBatcher, type Send } from '../../gateway/graph/fetch-batching';
import { singleFetchOf } from '../../gateway/graph/single-fetch';
import { dataBytesOf, RawData, RawReplySlot } from '../../gateway/graph/raw-reply';

const SUBGRAPH = buildSchema(`
  type Query { _entities(representations: [String!]!): [Place]!, district(id: String!): Place, boom: Place }
  type Place { id: String!, name: String!, score(weight: Int): Int }
`);
const places: Record<string, { id: string; name: string; score: (a: { weight?: number }) => number }> = {
  chilanzar: { id: 'chilanzar', name: 'Chilonzor', score: ({ weight }) => 10 * (weight ?? 1) },
  yunusabad: { id: 'yunusabad', name: 'Yunusobod', score: ({ weight }) => 20 * (weight ?? 1) },
};
const root = {
  _entities: ({ representations }: { representations: string[] }) => representations.map((id) => places[id] ?? null),
  district: ({ id }: { id: string }) => places[id] ?? null,
  boom: () => {
    throw new Error('boom');
  },
};

/** A subgraph that executes what it is sent, and remembers each call. */
function fakeSubgraph(): { send: Send; calls: { query: string; variables: Record<string, unknown> }[] } {
  const calls: { query: string; variables: Record<string, unknown> }[] = [];
  const send: Send = async (request) => {
    calls.push({ query: request.query, variables: request.variables });
    if (Object.keys(request.variables).some((name) => name.endsWith('refuse'))) return { errors: [{ message: 'Variable "$refuse" is not allowed' }] } as GatewayGraphQLResponse;
    return (await execute({ schema: SUBGRAPH, document: parse(request.query), rootValue: root, variableValues: request.variables })) as GatewayGraphQLResponse;
  };
  return { send, calls };
}

const fetchOf = (context: object, query: string, variables: Record<string, unknown> = {}) =>
  ({ request: { query, variables }, context, kind: 'UserFetch' }) as unknown as GraphQLDataSourceProcessOptions<GatewayContext>;

describe('fetch batching', () => {
  test('queries of one request issued together go as one call, each answered with its own data', async () => {
    const subgraph = fakeSubgraph();
    const batcher = new FetchBatcher(subgraph.send);
    const context = {};
    const [first, second] = await Promise.all([
      batcher.process(fetchOf(context, 'query($r:[String!]!){_entities(representations:$r){id name}}', { r: ['chilanzar'] })),
      batcher.process(fetchOf(context, 'query($r:[String!]!,$w:Int){_entities(representations:$r){id score(weight:$w)}}', { r: ['yunusabad', 'nowhere'], w: 3 })),
    ]);
    expect(subgraph.calls).toHaveLength(1);
    expect(first).toEqual({ data: { _entities: [{ id: 'chilanzar', name: 'Chilonzor' }] } });
    expect(second).toEqual({ data: { _entities: [{ id: 'yunusabad', score: 60 }, null] } });
  });

  test("errors go back to the query whose field raised them, with that query's own path", async () => {
    const subgraph = fakeSubgraph();
    const batcher = new FetchBatcher(subgraph.send);
    const context = {};
    const [first, second] = await Promise.all([batcher.process(fetchOf(context, '{district(id:"chilanzar"){name}}')), batcher.process(fetchOf(context, '{boom{name}}'))]);
    expect(subgraph.calls).toHaveLength(1);
    expect(first).toEqual({ data: { district: { name: 'Chilonzor' } } });
    expect(second.data).toEqual({ boom: null });
    expect(second.errors).toEqual([expect.objectContaining({ message: 'boom', path: ['boom'] })]);
  });

  test("an error of the whole call reaches every query it answered", async () => {
    const subgraph = fakeSubgraph();
    const batcher = new FetchBatcher(subgraph.send);
    const context = {};
    const replies = await Promise.all([batcher.process(fetchOf(context, 'query($refuse:Int){district(id:"chilanzar"){name}}', { refuse: 1 })), batcher.process(fetchOf(context, '{district(id:"yunusabad"){name}}'))]);
    for (const reply of replies) expect(reply.errors).toEqual([expect.objectContaining({ message: 'Variable "$refuse" is not allowed' })]);
  });

  test('other requests, later turns and queries with fragments are sent alone', async () => {
    const subgraph = fakeSubgraph();
    const batcher = new FetchBatcher(subgraph.send);
    await Promise.all([batcher.process(fetchOf({}, '{district(id:"chilanzar"){name}}')), batcher.process(fetchOf({}, '{district(id:"yunusabad"){name}}'))]);
    expect(subgraph.calls).toHaveLength(2);
    const context = {};
    await batcher.process(fetchOf(context, '{district(id:"chilanzar"){name}}'));
    await batcher.process(fetchOf(context, '{district(id:"yunusabad"){name}}'));
    expect(subgraph.calls).toHaveLength(4);
    const withFragment = 'query{...F} fragment F on Query{district(id:"chilanzar"){name}}';
    const [alone] = await Promise.all([batcher.process(fetchOf(context, withFragment)), batcher.process(fetchOf(context, '{district(id:"yunusabad"){name}}'))]);
    expect(subgraph.calls.slice(4).map((c) => c.query)).toContain(withFragment);
    expect(alone).toEqual({ data: { district: { name: 'Chilonzor' } } });
  });
});

describe('the single-fetch path', () => {
  const operationOf = (query: string) => parse(query).definitions[0] as OperationDefinitionNode;
  const sources = new Map([['residential', {}]]);
  const plan = (node: Record<string, unknown> | undefined) => ({ kind: 'QueryPlan', node }) as unknown as Parameters<typeof singleFetchOf>[0];
  const fetch = (operation: string, extra: Record<string, unknown> = {}) => ({ kind: 'Fetch', serviceName: 'residential', operation, operationKind: 'query', variableUsages: ['input'], ...extra });
  const client = 'query Home($input: HomeInput!) { homeValuation(input: $input) { estimate interval { low high } } }';

  test("a plan of one fetch asking exactly the client's selection is answered by it", () => {
    const node = fetch('query Home__residential__0($input:HomeInput!){homeValuation(input:$input){estimate interval{low high}}}');
    expect(singleFetchOf(plan(node), operationOf(client), sources)).toBe(node);
  });

  test('anything else takes the general path', () => {
    const op = operationOf(client);
    // The planner asked for something else (a __typename, a key field): the reply must be shaped by Apollo.
    expect(singleFetchOf(plan(fetch('query($input:HomeInput!){homeValuation(input:$input){__typename estimate interval{low high}}}')), op, sources)).toBeNull();
    // Another subgraph, an entity fetch, rewrites, a sequence of fetches, no plan.
    expect(singleFetchOf(plan({ ...fetch('query($input:HomeInput!){homeValuation(input:$input){estimate interval{low high}}}'), serviceName: 'location' }), op, sources)).toBeNull();
    expect(singleFetchOf(plan(fetch('query($input:HomeInput!){homeValuation(input:$input){estimate interval{low high}}}', { requires: [{}] })), op, sources)).toBeNull();
    expect(singleFetchOf(plan(fetch('query($input:HomeInput!){homeValuation(input:$input){estimate interval{low high}}}', { outputRewrites: [{}] })), op, sources)).toBeNull();
    expect(singleFetchOf(plan({ kind: 'Sequence', nodes: [] }), op, sources)).toBeNull();
    expect(singleFetchOf(plan(undefined), op, sources)).toBeNull();
    // Variables declared otherwise (a default the subgraph would not see).
    expect(singleFetchOf(plan(fetch('query($input:HomeInput){homeValuation(input:$input){estimate interval{low high}}}')), op, sources)).toBeNull();
  });
});

describe('raw replies (gateway/graph/raw-reply.ts)', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8');

  test("a reply of data alone gives its data's bytes, whatever they hold", () => {
    expect(dataBytesOf(bytes('{"data":{"a":1}}\n'))?.toString()).toBe('{"a":1}');
    expect(dataBytesOf(bytes('{"data":{"homeValuations":[{"estimate":1,"note":"Qo\'yliq, \\"extensions\\": no"}]}}'))?.toString()).toBe('{"homeValuations":[{"estimate":1,"note":"Qo\'yliq, \\"extensions\\": no"}]}');
  });

  test('a reply with errors, without data or with extensions is parsed instead', () => {
    expect(dataBytesOf(bytes('{"errors":[{"message":"x"}],"data":{"a":null}}'))).toBeNull();
    expect(dataBytesOf(bytes('{"data":null}'))).toBeNull();
    expect(dataBytesOf(bytes('{"data":{"a":1},"extensions":{"cost":3}}'))).toBeNull();
    // A response key named extensions inside data cannot be told from the top-level one without parsing.
    expect(dataBytesOf(bytes('{"data":{"extensions":1}}'))).toBeNull();
    expect(dataBytesOf(bytes('{"data":{"a":1}'))).toBeNull();
    expect(dataBytesOf(bytes(''))).toBeNull();
  });

  test("the handler writes Apollo's response with the subgraph's bytes in the data's place", () => {
    const slot = new RawReplySlot();
    const data = new RawData(bytes('{"home":{"district":"Yunusobod","note":"Ўзбекистон"}}'));
    slot.data = data;
    const body = JSON.stringify({ data, extensions: { requestId: 'r1' } }) + '\n';
    const written = slot.write(body);
    expect(Buffer.isBuffer(written)).toBe(true);
    expect(JSON.parse(written.toString())).toEqual({ data: { home: { district: 'Yunusobod', note: 'Ўзбекистон' } }, extensions: { requestId: 'r1' } });
    // Once: the slot is empty after writing, and a body without a raw reply is written as it is.
    expect(slot.write('{"data":{"a":1}}')).toBe('{"data":{"a":1}}');
  });
});
