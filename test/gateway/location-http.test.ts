/** Split deployment: the gateway calls the location subgraph over HTTP (SUBGRAPH_TRANSPORT=http), as with LOCATION_URL. */
import { json, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let key: string;
beforeAll(async () => {
  stack = await startTestStack({ env: { SUBGRAPH_TRANSPORT: 'http' } });
  key = stack.newKey('enterprise');
});
afterAll(() => stack.stop());

it('serves the REST route and the GraphQL queries over HTTP, errors included', async () => {
  const rest = await stack.post('/api/location/index', { address: 'Yunusobod 8 kvartal' }, { 'x-api-key': key });
  expect(rest.status).toBe(200);
  const body = await json(rest);
  expect(body.district.id).toBe('yunusabad');
  expect(body.geocoded.precision).toBe('quarter');

  const outside = await stack.post('/api/location/index', { lat: 69.28, lon: 41.31 }, { 'x-api-key': key });
  expect(outside.status).toBe(400);
  expect((await json(outside)).error.code).toBe('OUTSIDE_TASHKENT');

  const { data, errors } = await json(await stack.post('/graphql', { query: '{ district(name: "Mirobod tumani") { name mahallas { id district { name } } locationIndex { district { id } composite { score } } } }' }, { 'x-api-key': key }));
  expect(errors).toBeUndefined();
  expect(data.district.name).toBe('Mirabad');
  expect(data.district.mahallas.length).toBeGreaterThan(0);
  expect(data.district.locationIndex.district.id).toBe('mirabad');
});
