/**
 * The records' REST replies are written by JSON.stringify, not by their routes' response schemas
 * (gateway/rest/valuations.ts, sendRecords): each reply must be, byte for byte, what fastify's own
 * serializer makes of it under the route's schema, as it was written before: no field the schema
 * does not list, none missing, none of another type, in the schema's order, with the same headers.
 */
import Fastify from 'fastify';
import { VALUATION_RECORD_SCHEMA } from '../../gateway/operations/valuations';
import { RECORDS_PAGE_SCHEMA, RECORDS_SAMPLE_SCHEMA, REVALUATION_SCHEMA } from '../../gateway/rest/valuations';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

let stack: SharedTestStack;
const serializer = Fastify();
beforeAll(async () => {
  stack = await sharedTestStack();
  // The value parsed back from a reply, written again by fastify's serializer under the route's 200 schema.
  for (const [path, schema] of Object.entries({ record: VALUATION_RECORD_SCHEMA, page: RECORDS_PAGE_SCHEMA, sample: RECORDS_SAMPLE_SCHEMA, revaluation: REVALUATION_SCHEMA })) {
    serializer.post(`/${path}`, { schema: { response: { 200: schema } } }, async (request) => request.body);
  }
  await serializer.ready();
});
afterAll(() => serializer.close());

const FLAT = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
const CAR = { make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000 };

/** The reply's body, checked to be what fastify's serializer writes of it under `schema`. */
async function asSerialized(response: Response, schema: 'record' | 'page' | 'sample' | 'revaluation'): Promise<string> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = await response.text();
  const written = await serializer.inject({ method: 'POST', url: `/${schema}`, headers: { 'content-type': 'application/json' }, payload: body });
  expect(written.statusCode).toBe(200);
  expect(body).toBe(written.body);
  expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
  return body;
}

it('records by id, a page, a sample and a revaluation are the bytes their schemas write, for homes in USD and soʻm and for vehicles', async () => {
  const bank = stack.newKey();
  const headers = { 'x-api-key': bank };
  const ids: string[] = [];
  for (const [path, body] of [['/api/predict/home', FLAT], ['/api/predict/home', { ...FLAT, currency: 'UZS' }], ['/api/predict/vehicle', CAR]] as const) {
    const valued = await stack.post(path, body, headers);
    expect(valued.status).toBe(200);
    ids.push(((await valued.json()) as { valuation_id: string }).valuation_id);
  }
  for (const id of ids) {
    const body = await asSerialized(await stack.fetch(`/api/valuations/${id}`, { headers }), 'record');
    expect(JSON.parse(body).valuation_id).toBe(id);
  }
  const page = JSON.parse(await asSerialized(await stack.fetch('/api/valuations?limit=2', { headers }), 'page'));
  expect(page.valuations.map((v: { valuation_id: string }) => v.valuation_id)).toEqual([ids[2], ids[1]]);
  await asSerialized(await stack.fetch(`/api/valuations?limit=2&before=${page.next}`, { headers }), 'page');
  const today = new Date().toISOString().slice(0, 10);
  const sample = JSON.parse(await asSerialized(await stack.fetch(`/api/valuations/sample?period=${today}&n=3&seed=bytes`, { headers }), 'sample'));
  expect(sample.valuations).toHaveLength(3);
  const revalued = JSON.parse(await asSerialized(await stack.post(`/api/valuations/${ids[1]}/revalue`, {}, headers), 'revaluation'));
  expect(revalued.previous.valuation_id).toBe(ids[1]);
  expect(revalued.current.valuation.currency).toBe('UZS');
});

it('a reply with a field its schema does not list, or a field of another type, is told apart by the check', async () => {
  // The check above is only worth its name if it fails on what fast-json-stringify would have changed.
  const extra = await serializer.inject({ method: 'POST', url: '/page', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ valuations: [], next: null, more: 1 }) });
  expect(extra.body).toBe('{"valuations":[],"next":null}');
  const typed = await serializer.inject({ method: 'POST', url: '/sample', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ since: 'a', until: 'b', population: '3', seed: 's', valuations: [] }) });
  expect(typed.body).toBe('{"since":"a","until":"b","population":3,"seed":"s","valuations":[]}');
});
