/**
 * Input bounds (issue 13, finding 6): integers past what GraphQL's Int holds or the field means
 * (2^31, 1e308) and values nested thousands of levels deep get 400 with a catalogue code naming
 * the field, on REST and on GraphQL, in both deployment shapes: never 503 (a subgraph's 400 read as
 * "unavailable" in split mode), never INTERNAL (a stack overflow), never GraphQL's own wording on REST.
 */
import type { FastifyRequest } from 'fastify';
import { startGraph } from '../../gateway/graph/apollo';
import { gatewayExecutor } from '../../gateway/graph/executor';
import { VEHICLE_VALUATION_OPERATION } from '../../gateway/operations/vehicle';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { SAMPLE_VEHICLE_REQUEST } from '../../schema/vehicle-contract';
import { expectError, json, SUBGRAPH_TRANSPORTS, useTestStack } from '../support/stack';

const INT32_OVERFLOW = 2 ** 31;
/** JSON text of an object nested `depth` levels deep ({"a":{"a":…}}), built as text: no recursion in the test either. */
const deep = (depth = 5_000) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** A JSON object's text with `extra` (raw JSON text per key) merged into `base`. */
const withRaw = (base: object, extra: Record<string, string>) =>
  `{${[...Object.entries(base).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`), ...Object.entries(extra).map(([k, v]) => `${JSON.stringify(k)}:${v}`)].join(',')}}`;

const ITEM = { address: 'Chilonzor tumani, 13-kvartal' };

/** [what, body as JSON text, the field the error names] */
const VEHICLE_CASES: Array<[string, string, string]> = [
  ['year 2^31', withRaw(SAMPLE_VEHICLE_REQUEST, { year: String(INT32_OVERFLOW) }), 'year'],
  ['year 1e308', withRaw(SAMPLE_VEHICLE_REQUEST, { year: '1e308' }), 'year'],
  ['year 2^31 - 1', withRaw(SAMPLE_VEHICLE_REQUEST, { year: String(INT32_OVERFLOW - 1) }), 'year'],
  ['mileage 1e308', withRaw(SAMPLE_VEHICLE_REQUEST, { mileage: '1e308' }), 'mileage'],
  ['trim 2^31', withRaw(SAMPLE_VEHICLE_REQUEST, { trim: String(INT32_OVERFLOW) }), 'trim'],
  ['year nested 5,000 levels', withRaw(SAMPLE_VEHICLE_REQUEST, { year: deep() }), 'year'],
  ['an unknown field nested 5,000 levels', withRaw(SAMPLE_VEHICLE_REQUEST, { notes: deep() }), 'notes'],
];

const HOME_CASES: Array<[string, string, string]> = [
  ['area 1e308', withRaw(SAMPLE_HOME_REQUEST, { area: '1e308' }), 'area'],
  ['rooms 2^31', withRaw(SAMPLE_HOME_REQUEST, { rooms: String(INT32_OVERFLOW) }), 'rooms'],
  ['floor 2^31', withRaw(SAMPLE_HOME_REQUEST, { floor: String(INT32_OVERFLOW) }), 'floor'],
  ['total_floors 1e308', withRaw(SAMPLE_HOME_REQUEST, { total_floors: '1e308' }), 'total_floors'],
  ['renovation nested 5,000 levels', withRaw(SAMPLE_HOME_REQUEST, { renovation: deep() }), 'renovation'],
  ['a home nested 5,000 levels', withRaw(SAMPLE_HOME_REQUEST, { home: deep() }), 'home'],
];

const BATCH_CASES: Array<[string, string, string]> = [
  ['chunk_size 2^31', withRaw({ items: [ITEM] }, { chunk_size: String(INT32_OVERFLOW) }), 'chunk_size'],
  ['chunk_size 1e308', withRaw({ items: [ITEM] }, { chunk_size: '1e308' }), 'chunk_size'],
  ['chunk_size 10,001', withRaw({ items: [ITEM] }, { chunk_size: '10001' }), 'chunk_size'],
  ['a home nested 5,000 levels', `{"items":[{"address":${JSON.stringify(ITEM.address)},"home":${deep()}}]}`, 'items[0].home'],
  ['a home area of 1e308', `{"items":[{"address":${JSON.stringify(ITEM.address)},"home":{"area":1e308,"rooms":3}}]}`, 'items[0].home.area'],
  ['a home with rooms 2^31', `{"items":[{"address":${JSON.stringify(ITEM.address)},"home":{"area":65,"rooms":${INT32_OVERFLOW}}}]}`, 'items[0].home.rooms'],
  ['an unknown item field nested 5,000 levels', `{"items":[{"address":${JSON.stringify(ITEM.address)},"note":${deep()}}]}`, 'items[0].note'],
  ['an unknown field nested 5,000 levels', withRaw({ items: [ITEM] }, { metadata: deep() }), 'metadata'],
];

const VEHICLE_QUERY = 'query($input: VehicleValuationInput!) { vehicleValuation(input: $input) { estimate } }';
const HOME_QUERY = 'query($input: HomeValuationInput!) { homeValuation(input: $input) { estimate } }';
const SUBMIT_QUERY = 'mutation($input: SubmitBatchInput!) { submitBatch(input: $input) { id } }';
const VEHICLE_INPUT = { make: 'Chevrolet', model: 'Cobalt', year: 2019 };
const HOME_INPUT = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, totalFloors: 9 };

/** [what, query, variables as JSON text, code, field] */
const GRAPHQL_CASES: Array<[string, string, string, string, string]> = [
  ['vehicle year 2^31', VEHICLE_QUERY, withRaw({}, { input: withRaw(VEHICLE_INPUT, { year: String(INT32_OVERFLOW) }) }), 'BAD_USER_INPUT', 'year'],
  ['vehicle year 1e308', VEHICLE_QUERY, withRaw({}, { input: withRaw(VEHICLE_INPUT, { year: '1e308' }) }), 'BAD_USER_INPUT', 'year'],
  ['home rooms 2^31', HOME_QUERY, withRaw({}, { input: withRaw(HOME_INPUT, { rooms: String(INT32_OVERFLOW) }) }), 'BAD_USER_INPUT', 'rooms'],
  ['batch chunkSize 2^31', SUBMIT_QUERY, withRaw({}, { input: withRaw({ items: [ITEM] }, { chunkSize: String(INT32_OVERFLOW) }) }), 'BAD_USER_INPUT', 'chunkSize'],
  ['batch chunkSize 1e308', SUBMIT_QUERY, withRaw({}, { input: withRaw({ items: [ITEM] }, { chunkSize: '1e308' }) }), 'BAD_USER_INPUT', 'chunkSize'],
  // JSONObject is the subgraph's scalar: the gateway passes any value, the subgraph's coercion refuses it.
  ['a batch home that is not an object', SUBMIT_QUERY, `{"input":{"items":[{"address":${JSON.stringify(ITEM.address)},"home":"65 m2"}]}}`, 'BAD_USER_INPUT', 'items[0].home'],
  ['a batch home nested 5,000 levels', SUBMIT_QUERY, `{"input":{"items":[{"address":${JSON.stringify(ITEM.address)},"home":${deep()}}]}}`, 'INVALID_PARAMETER', 'items[0].home'],
];

describe.each(SUBGRAPH_TRANSPORTS)('with the subgraphs called %s', (_name, transport) => {
  const service = useTestStack({ env: { SUBGRAPH_TRANSPORT: transport } });

  /** Each case's reply as [what, status, code, field, in GraphQL's wording?], compared at once. */
  async function replies(path: string, cases: Array<[string, string, string]>) {
    const got: unknown[] = [];
    for (const [what, body] of cases) {
      const response = await service.post(path, body);
      const { error } = await json(response);
      got.push([what, response.status, error?.code, error?.field, /Variable "\$|cannot represent/.test(error?.message ?? '')]);
    }
    return got;
  }
  const refusedAll = (cases: Array<[string, string, string]>) => cases.map(([what, , field]) => [what, 400, 'INVALID_PARAMETER', field, false]);

  test('POST /api/predict/vehicle: 400 INVALID_PARAMETER naming the field, in its REST name', async () => {
    expect(await replies('/api/predict/vehicle', VEHICLE_CASES)).toEqual(refusedAll(VEHICLE_CASES));
  });

  test('POST /api/predict/home: 400 INVALID_PARAMETER naming the field, in its REST name', async () => {
    expect(await replies('/api/predict/home', HOME_CASES)).toEqual(refusedAll(HOME_CASES));
  });

  test('POST /api/batch: 400 INVALID_PARAMETER naming the field, in its REST name', async () => {
    expect(await replies('/api/batch', BATCH_CASES)).toEqual(refusedAll(BATCH_CASES));
  });

  test('POST /api/batch uploads: chunk_size 2^31 or 1e308 in the query, a home nested 5,000 levels in an NDJSON line', async () => {
    const upload = (body: string, type: string, query = '') =>
      service.stack.fetch(`/api/batch${query}`, { method: 'POST', headers: { 'content-type': type, 'x-api-key': service.key }, body });
    await expectError(await upload(`address\n"${ITEM.address}"\n`, 'text/csv', `?chunk_size=${INT32_OVERFLOW}`), 400, 'INVALID_PARAMETER', 'chunk_size');
    await expectError(await upload(`address\n"${ITEM.address}"\n`, 'text/csv', '?chunk_size=1e308'), 400, 'INVALID_PARAMETER', 'chunk_size');
    await expectError(await upload(`{"address":${JSON.stringify(ITEM.address)},"home":${deep()}}\n`, 'application/x-ndjson'), 400, 'INVALID_PARAMETER', 'items[0].home');
  });

  test.each(GRAPHQL_CASES)('POST /graphql, %s: 400 with the code and the field', async (_what, query, variables, code, field) => {
    const response = await service.post('/graphql', `{"query":${JSON.stringify(query)},"variables":${variables}}`);
    const body = await json(response);
    expect([response.status, body.errors?.[0]?.extensions]).toEqual([400, { code, field }]);
    expect(body.errors[0].message).toContain(field);
  });

  // A REST route's operation with variables its subgraph cannot coerce (the REST parsers now refuse
  // them first): over HTTP the subgraph answers 400 with GraphQL errors, which is the client's error.
  test("a variable the subgraph cannot coerce is the client's INVALID_PARAMETER naming the field, not SERVICE_UNAVAILABLE", async () => {
    const { stack } = service;
    const graph = await startGraph({
      subgraphUrls: { residential: stack.residential.url, location: stack.location.url, vehicle: stack.vehicle.url, batch: stack.batch.url },
      ...(transport === 'local' && { localSubgraphs: { vehicle: stack.vehicle.inProcess } }),
      internalToken: stack.internalToken,
      introspection: false,
    });
    try {
      const request = { principal: null, id: 'input-bounds' } as unknown as FastifyRequest;
      const refused = gatewayExecutor(graph, request).execute(VEHICLE_VALUATION_OPERATION, { input: { ...VEHICLE_INPUT, year: INT32_OVERFLOW } });
      await expect(refused).rejects.toMatchObject({ code: 'INVALID_PARAMETER', status: 400, field: 'year', message: 'year has the wrong type or is out of range' });
    } finally {
      await graph.stop();
    }
  });
});
