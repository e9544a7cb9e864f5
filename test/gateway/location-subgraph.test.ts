/**
 * The location subgraph's batching, executed in process on its schema: entity references and
 * nested location indexes go through per-request DataLoaders (one scoreMany call per request,
 * nothing cached across requests), and locationIndexes scores its points in one call.
 */
import { execute, parse, type GraphQLSchema } from 'graphql';
import { MAX_POINTS_PER_CALL } from '../../schema/location-contract';
import { createLocationContext } from '../../subgraphs/location/context';
import { buildLocationSchema, loadLocationServices, type LocationServices } from '../../subgraphs/location';

let schema: GraphQLSchema;
let services: LocationServices;
let scoreMany: jest.SpyInstance;

beforeAll(async () => {
  schema = await buildLocationSchema();
  services = loadLocationServices();
  scoreMany = jest.spyOn(services.index, 'scoreMany');
});
beforeEach(() => scoreMany.mockClear());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function run(query: string, variables: Record<string, unknown> = {}): Promise<any> {
  return execute({ schema, document: parse(query), variableValues: variables, contextValue: createLocationContext(services) });
}

it('resolves many Mahalla references with their location index in one scoreMany call', async () => {
  const placed = services.places.districts.flatMap((d) => services.places.mahallasOf(d.id)).filter((m) => m.centre !== null).slice(0, 40);
  expect(placed.length).toBe(40);
  const representations = [...placed, placed[0]].map((m) => ({ __typename: 'Mahalla', id: m.id }));
  const result = await run('query($r: [_Any!]!) { _entities(representations: $r) { ... on Mahalla { id locationIndex { composite { score } } } } }', { r: representations });
  expect(result.errors).toBeUndefined();
  expect(result.data._entities).toHaveLength(41);
  expect(result.data._entities.map((e: { id: string }) => e.id)).toEqual(representations.map((r) => r.id));
  expect(scoreMany).toHaveBeenCalledTimes(1);
  // Each distinct centre once: the repeated mahalla, and mahallas sharing a centre, are scored once.
  const centres = new Set(placed.map((m) => `${m.centre!.lat},${m.centre!.lon}`));
  expect(scoreMany.mock.calls[0][0]).toHaveLength(centres.size);
});

it('scores the 12 district centroids in one call, and again in the next request (no cache across requests)', async () => {
  const query = '{ districts { name locationIndex { composite { score } } } }';
  const first = await run(query);
  expect(first.errors).toBeUndefined();
  expect(scoreMany).toHaveBeenCalledTimes(1);
  await run(query);
  expect(scoreMany).toHaveBeenCalledTimes(2);
});

it(`locationIndexes scores ${MAX_POINTS_PER_CALL.toLocaleString('en')} points in one call and refuses more`, async () => {
  const points = Array.from({ length: MAX_POINTS_PER_CALL }, (_, i) => ({ lat: 41.25 + (i % 100) * 0.001, lon: 69.2 + Math.floor(i / 100) * 0.001 }));
  const started = Date.now();
  const result = await run('query($p: [PointInput!]!) { locationIndexes(points: $p) { index result { composite { score } } error { code } } }', { p: points });
  expect(result.errors).toBeUndefined();
  expect(result.data.locationIndexes).toHaveLength(MAX_POINTS_PER_CALL);
  expect(scoreMany).toHaveBeenCalledTimes(1);
  expect(Date.now() - started).toBeLessThan(20_000);

  const tooMany = await run('query($p: [PointInput!]!) { locationIndexes(points: $p) { index } }', { p: [...points, points[0]] });
  expect(tooMany.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'points' });
});
