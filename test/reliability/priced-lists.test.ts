/**
 * Issue 33, finding 3 (and the cost half of finding 2): list sizes are priced. Over HTTP to the real
 * gateway: 20 aliases of observations(limit: 10000, offset: …) and a 30,000-item recordObservations
 * are refused with 400 QUERY_TOO_COMPLEX before anything runs; the largest page of each list, the
 * REST export and a dashboard's few aliases still pass.
 */
import { buildClientSchema, getIntrospectionQuery, isObjectType } from 'graphql';
import { DEFAULT_LIST_SIZES, isSizedListField } from '../../gateway/graph/list-prices';
import { json } from '../support/stack-client';
import { useSharedTestStack } from '../support/shared-stack';

const fixture = useSharedTestStack();
const gql = (query: string, variables?: unknown) => fixture.post('/graphql', { query, variables });

async function expectTooComplex(response: Response, message: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  const { errors, data } = await json(response);
  expect(data).toBeUndefined();
  expect(errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  expect(errors[0].message).toMatch(message);
}

const pages = (count: number, limit: number) =>
  `{ ${Array.from({ length: count }, (_, i) => `p${i}: observations(kind: HOME, limit: ${limit}, offset: ${i * limit}) { id priceUsd input }`).join(' ')} }`;

describe('list sizes in the cost check', () => {
  it('20 aliases of observations(limit: 10000, offset: …): 400 QUERY_TOO_COMPLEX', async () => {
    await expectTooComplex(await gql(pages(20, 10_000)), /observations 5 times|exceeds the limit/);
  });

  it('two pages of 10,000 in one operation cost more than the limit (the alias cap aside)', async () => {
    await expectTooComplex(await gql(pages(2, 10_000)), /query cost 2\d{4} exceeds the limit of 20000/);
  });

  it('sizes given as variables are priced too, after a cheaper call of the same document', async () => {
    const query = 'query($l: Int) { a: valuations(limit: $l) { next } b: observations(kind: HOME, limit: $l) { id } c: observations(kind: VEHICLE, limit: $l) { id } }';
    const cheap = await json(await gql(query, { l: 100 }));
    expect(cheap.errors).toBeUndefined();
    expect(cheap.data.b).toEqual([]);
    await expectTooComplex(await gql(query, { l: 10_000 }), /exceeds the limit of 20000/);
  });

  it('a heavy field selected more than 4 times, through aliases or fragments: 400 naming it', async () => {
    await expectTooComplex(await gql(pages(5, 1)), /Query\.observations 5 times .*the limit is 4/);
    const spread = '{ ...F ...G } fragment F on Query { a: liveAccuracy(kind: HOME) { driftRule } b: liveAccuracy(kind: VEHICLE) { driftRule } } fragment G on Query { ...F c: liveAccuracy(kind: HOME, level: "segment") { driftRule } }';
    await expectTooComplex(await gql(spread), /Query\.liveAccuracy 5 times/);
  });

  it('recordObservations with 30,000 items nested in its input: 400 QUERY_TOO_COMPLEX, nothing recorded', async () => {
    const mutation = 'mutation($i: RecordObservationsInput!) { recordObservations(input: $i) { accepted rejected { index } } }';
    const items = (n: number) => Array.from({ length: n }, () => ({ kind: 'HOME', priceUsd: 1, observedAt: '2026-01-01' }));
    await expectTooComplex(await gql(mutation, { i: { observations: items(30_000) } }), /query cost 300\d\d exceeds the limit of 20000/);
    // 100 such items (no home) are priced at about 100 and each refused in its place.
    const small = await json(await gql(mutation, { i: { observations: items(100) } }));
    expect(small.errors).toBeUndefined();
    expect(small.data.recordObservations.accepted).toBe(0);
    expect(small.data.recordObservations.rejected).toHaveLength(100);
  });

  it("30,000 items that do not fit the input type: 400 with the first error in the catalogue's terms, at once", async () => {
    const started = Date.now();
    const response = await gql('mutation($i: RecordObservationsInput!) { recordObservations(input: $i) { accepted } }', { i: { observations: Array.from({ length: 30_000 }, () => ({})) } });
    expect(response.status).toBe(400);
    const { errors } = await json(response);
    expect(errors).toHaveLength(1);
    // The first item lacks its required fields: MISSING_PARAMETER on the first of them, as REST says it.
    expect(errors[0].extensions).toEqual({ code: 'MISSING_PARAMETER', field: expect.stringMatching(/^observations\[0\]\.\w+$/) });
    expect(errors[0].message).toBe(`${errors[0].extensions.field} is required`);
    // Coercing and reporting all 30,000 took over 30 s; this bound only catches a return to that.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ordinary queries still pass: the largest page of each list, a dashboard\'s aliases, the REST export', async () => {
    const body = await json(await gql(`{
      observations(kind: HOME, limit: 10000, offset: 990000) { id observedAt priceUsd input }
      valuations(limit: 1000) { records { id estimate } next }
      valuationSample(n: 200, period: "2026") { population records { id } }
      batchJobs(limit: 100) { jobs { id } }
      home: liveAccuracy(kind: HOME) { driftRule } vehicle: liveAccuracy(kind: VEHICLE) { driftRule }
    }`));
    expect(body.errors).toBeUndefined();
    expect(body.data.observations).toEqual([]);
    expect(body.data.valuations.records).toEqual([]);
    const exported = await fixture.stack.fetch('/api/observations?kind=home', { headers: { 'x-api-key': fixture.key } });
    expect(exported.status).toBe(200);
    expect(await exported.text()).toBe('');
  });
});

it('every list field the API sizes by limit, n or first has its default size in the price table', async () => {
  const schema = buildClientSchema((await json(await gql(getIntrospectionQuery()))).data);
  const sized = Object.values(schema.getTypeMap())
    .filter(isObjectType)
    .flatMap((type) => Object.values(type.getFields()).filter(isSizedListField).map((field) => `${type.name}.${field.name}`));
  expect(sized.sort()).toEqual(Object.keys(DEFAULT_LIST_SIZES).sort());
});
