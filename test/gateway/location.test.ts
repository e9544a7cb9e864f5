/** The location subgraph and POST /api/location/index, against the real running service. */
import { expectError, json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

let stack: SharedTestStack;
let key: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  key = stack.newKey('enterprise');
});

const AMIR_TIMUR_SQUARE = { lat: 41.311151, lon: 69.279737 };
/** About 100 m north of Chilonzor metro station (41.274359, 69.2049735). */
const NEXT_TO_CHILONZOR_METRO = { lat: 41.2752, lon: 69.2050 };
/** About 33 m north of the OpenStreetMap bus stop "Журжоний" (41.298817, 69.173802) in Uchtepa, 3.7 km from the nearest metro station. */
const BESIDE_JURJONIY_BUS_STOP = { lat: 41.299117, lon: 69.173802 };
const SUBINDEX_IDS = ['transport', 'education', 'healthcare', 'daily_needs', 'green', 'culture', 'safety', 'centrality', 'market_liquidity'];

const locationIndex = (body: unknown, headers: Record<string, string> = {}) => stack.post('/api/location/index', body, { 'x-api-key': key, ...headers });
const gql = (query: string, variables: Record<string, unknown> = {}) => stack.post('/graphql', { query, variables }, { 'x-api-key': key });
const onSubgraph = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = { 'x-internal-token': stack.internalToken }) =>
  fetch(stack.location.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });

function expectScoresInRange(body: { composite: { score: number | null }; subindexes: Record<string, { score: number | null }> }) {
  expect(Object.keys(body.subindexes)).toEqual(SUBINDEX_IDS);
  for (const score of [body.composite.score, ...Object.values(body.subindexes).map((s) => s.score)]) {
    if (score === null) continue;
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(100);
  }
}

describe('POST /api/location/index', () => {
  it('scores a coordinate: composite, nine subindexes, district and the data used', async () => {
    const response = await locationIndex(AMIR_TIMUR_SQUARE);
    expect(response.status).toBe(200);
    expect(response.headers.get('api-version')).toBe('v1.0');
    expect(response.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    const body = await json(response);
    expect(body).toMatchObject({ lat: AMIR_TIMUR_SQUARE.lat, lon: AMIR_TIMUR_SQUARE.lon });
    // Amir Timur Square lies in Yunusabad's polygon (the OSM boundaries), not Mirabad's.
    expect(body.district).toEqual({ id: 'yunusabad', name: 'Yunusabad' });
    expectScoresInRange(body);
    expect(body.composite.score).toBeGreaterThan(60); // the city centre
    expect(body.subindexes.centrality.score).toBe(100);
    expect(body.subindexes.transport).toMatchObject({ name: 'Transport', coverage: 'full', complete: true });
    expect(body.subindexes.transport.components[0]).toMatchObject({ feature: 'metro_station', used: true, layers: ['metro_stations'] });
    expect(body.subindexes.transport.components[1]).toMatchObject({ feature: 'surface_stop', used: true, coverage: 'full', layers: ['transit_stops_osm'] });
    expect(body.composite.complete).toBe(false); // education, healthcare… rest on partial layers
    const weights = Object.values(body.subindexes).reduce((sum: number, s) => sum + (s as { weight: number }).weight, 0);
    expect(weights).toBeCloseTo(1, 5);
    const layers = body.data_used.map((d: { layer: string }) => d.layer);
    expect(layers).toEqual(expect.arrayContaining(['metro_stations', 'listings']));
    expect(body.data_used.find((d: { layer: string }) => d.layer === 'metro_stations')).toMatchObject({ coverage: 'city', features: 49 });
    // The layer as a whole: 1,509 bus stops scored, and the 49 metro stations the metro_stations layer already has.
    expect(body.data_used.find((d: { layer: string }) => d.layer === 'transit_stops_osm')).toMatchObject({ coverage: 'city', features: 1558, complete_in: null });
    expect(body.geocoded).toBeUndefined();
    expect(body.warnings).toEqual([]);
  });

  it('a point next to a metro station scores transport at least 80', async () => {
    const body = await json(await locationIndex(NEXT_TO_CHILONZOR_METRO));
    expect(body.district.id).toBe('chilanzar');
    expect(body.subindexes.transport.score).toBeGreaterThanOrEqual(80);
  });

  it('a point beside a bus stop 3.7 km from the metro gets the surface-stop credit, backed by a city-wide layer', async () => {
    const body = await json(await locationIndex(BESIDE_JURJONIY_BUS_STOP));
    expect(body.district.id).toBe('uchtepa');
    const [metro, stops] = body.subindexes.transport.components;
    expect(metro).toMatchObject({ feature: 'metro_station', used: true });
    expect(stops).toMatchObject({ feature: 'surface_stop', used: true, coverage: 'full', layers: ['transit_stops_osm'] });
    expect(body.subindexes.transport).toMatchObject({ score: 33.3, coverage: 'full', complete: true }); // 100 × (0.3 + 0.1) / 1.2: no metro within 2 km
  });

  it('scores an address: geocoded first, the reply says where and how precisely', async () => {
    const response = await locationIndex({ address: 'Yunusobod 8 kvartal' });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.geocoded).toMatchObject({ address: 'Yunusobod 8 kvartal', precision: 'quarter', matched: { district: 'Yunusabad', quarter: expect.stringMatching(/8/) } });
    expect(body.geocoded.confidence).toBeGreaterThan(0);
    expect(body.geocoded.confidence).toBeLessThanOrEqual(1);
    expect({ lat: body.lat, lon: body.lon }).toEqual({ lat: body.geocoded.lat, lon: body.geocoded.lon });
    expect(body.district.id).toBe('yunusabad');
    expectScoresInRange(body);
  });

  it('an address naming a mahalla says which one', async () => {
    const body = await json(await locationIndex({ address: 'город Ташкент, Мирабадский район, махаллинский сход граждан Инокобод, улица Хамал' }));
    expect(body.geocoded.matched).toMatchObject({ district: 'Mirabad', mahalla: 'Inokobod', mahalla_id: 'mirabad/inokobod' });
  });

  describe('400s with code and field', () => {
    it('neither a coordinate nor an address', async () => {
      await expectError(await locationIndex({}), 400, 'MISSING_PARAMETER', 'lat');
    });
    it('lat without lon, lon without lat', async () => {
      await expectError(await locationIndex({ lat: 41.3 }), 400, 'MISSING_PARAMETER', 'lon');
      await expectError(await locationIndex({ lon: 69.3 }), 400, 'MISSING_PARAMETER', 'lat');
    });
    it('a coordinate and an address at once', async () => {
      await expectError(await locationIndex({ ...AMIR_TIMUR_SQUARE, address: 'Yunusobod 8 kvartal' }), 400, 'INVALID_PARAMETER', 'address');
    });
    it('out-of-range numbers', async () => {
      await expectError(await locationIndex({ lat: 91, lon: 69.3 }), 400, 'INVALID_PARAMETER', 'lat');
      await expectError(await locationIndex({ lat: 41.3, lon: -181 }), 400, 'INVALID_PARAMETER', 'lon');
    });
    it('wrong types', async () => {
      const e = await expectError(await locationIndex({ lat: '41.3', lon: 69.3 }), 400, 'INVALID_PARAMETER', 'lat');
      expect(e.message).toBe('lat must be a number');
      await expectError(await locationIndex({ address: 42 }), 400, 'INVALID_PARAMETER', 'address');
      await expectError(await locationIndex({ address: '' }), 400, 'INVALID_PARAMETER', 'address');
      await expectError(await locationIndex([41.3, 69.3]), 400, 'INVALID_PARAMETER');
    });
    it('malformed JSON', async () => {
      await expectError(await locationIndex('{"lat": 41.3, "lon": '), 400, 'INVALID_JSON');
    });
    it('personal data', async () => {
      await expectError(await locationIndex({ ...AMIR_TIMUR_SQUARE, phone: '+998901234567' }), 400, 'PERSONAL_DATA_NOT_ACCEPTED', 'phone');
    });
    it('a coordinate outside Tashkent', async () => {
      const e = await expectError(await locationIndex({ lat: 39.65, lon: 66.96 }), 400, 'OUTSIDE_TASHKENT'); // Samarkand
      expect(e.message).toMatch(/outside Tashkent/);
      expect(e.message).not.toMatch(/swapped/);
    });
    it('latitude and longitude swapped: the message says so', async () => {
      const e = await expectError(await locationIndex({ lat: AMIR_TIMUR_SQUARE.lon, lon: AMIR_TIMUR_SQUARE.lat }), 400, 'OUTSIDE_TASHKENT');
      expect(e.message).toMatch(/swapped/);
    });
    it('an address that cannot be placed, with suggestions', async () => {
      const outside = await expectError(await locationIndex({ address: 'Самарканд, улица Навои' }), 400, 'UNRESOLVABLE_ADDRESS', 'address');
      expect(outside.message).toMatch(/outside Tashkent/);
      expect(Array.isArray(outside.suggestions)).toBe(true);
      const unknown = await expectError(await locationIndex({ address: 'qwzx blorf' }), 400, 'UNRESOLVABLE_ADDRESS', 'address');
      expect(Array.isArray(unknown.suggestions)).toBe(true);
    });
  });

  it('unknown fields are ignored with a warning', async () => {
    const body = await json(await locationIndex({ ...AMIR_TIMUR_SQUARE, zoom: 3 }));
    expect(body.warnings).toEqual(['unknown field "zoom" ignored']);
  });

  it('401 without a key or with a wrong one', async () => {
    await expectError(await stack.post('/api/location/index', AMIR_TIMUR_SQUARE), 401, 'INVALID_API_KEY');
    await expectError(await stack.post('/api/location/index', AMIR_TIMUR_SQUARE, { 'x-api-key': 'tvk_abcdefgh_notarealsecret000000000000000' }), 401, 'INVALID_API_KEY');
  });

  it('429 past the plan quota, with Retry-After', async () => {
    const pilot = stack.newKey('pilot'); // 60 requests per minute
    let limited: Response | undefined;
    for (let i = 0; i < 130 && !limited; i++) {
      const r = await stack.post('/api/location/index', AMIR_TIMUR_SQUARE, { 'x-api-key': pilot });
      if (r.status === 429) limited = r;
      else expect(r.status).toBe(200);
    }
    expect(limited).toBeDefined();
    await expectError(limited!, 429, 'RATE_LIMITED');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await json(await fetch(`${stack.url}/openapi.json`));
    const operation = doc.paths['/api/location/index'].post;
    expect(operation.security).toEqual([{ ApiKey: [] }]);
    expect(Object.keys(operation.requestBody.content['application/json'].schema.properties)).toEqual(['lat', 'lon', 'address']);
    expect(operation.responses['200'].content['application/json'].schema.required).toEqual(expect.arrayContaining(['composite', 'subindexes', 'district', 'data_used']));
  });
});

const INDEX_FIELDS = 'lat lon district { name id } composite { score complete renormalised missing } subindexes { id name score weight coverage complete components { feature used coverage layers { layer coverage } } } dataUsed { layer coverage licence }';

describe('GraphQL through the gateway', () => {
  it('locationIndex(lat, lon) gives what the REST route gives', async () => {
    const { data, errors } = await json(await gql(`query($lat: Float!, $lon: Float!) { locationIndex(lat: $lat, lon: $lon) { ${INDEX_FIELDS} } }`, AMIR_TIMUR_SQUARE));
    expect(errors).toBeUndefined();
    const rest = await json(await locationIndex(AMIR_TIMUR_SQUARE));
    expect(data.locationIndex.district).toEqual({ name: 'Yunusabad', id: 'yunusabad' });
    expect(data.locationIndex.composite.score).toBe(rest.composite.score);
    expect(data.locationIndex.subindexes.map((s: { id: string }) => s.id)).toEqual(SUBINDEX_IDS);
    for (const s of data.locationIndex.subindexes) expect(s.score).toBe(rest.subindexes[s.id].score);
  });

  it('locationIndex outside the city: OUTSIDE_TASHKENT in extensions', async () => {
    const { data, errors } = await json(await gql('{ locationIndex(lat: 69.28, lon: 41.31) { lat } }'));
    expect(data).toBeNull();
    expect(errors[0].extensions.code).toBe('OUTSIDE_TASHKENT');
    expect(errors[0].message).toMatch(/swapped/);
  });

  it('locationIndexes scores many points in input order, a bad point getting an error in its place', async () => {
    const points = [
      AMIR_TIMUR_SQUARE, NEXT_TO_CHILONZOR_METRO, { lat: 41.3, lon: 69.25 },
      { lat: 69.28, lon: 41.31 }, // swapped: in the middle
      { lat: 41.2545, lon: 69.374 }, { lat: 41.3668411, lon: 69.2923003 }, { lat: 95, lon: 69.3 },
    ];
    const { data, errors } = await json(await gql('query($points: [PointInput!]!) { locationIndexes(points: $points) { index result { lat lon district { id } composite { score } } error { code message field } } }', { points }));
    expect(errors).toBeUndefined();
    const items = data.locationIndexes;
    expect(items).toHaveLength(points.length);
    items.forEach((item: { index: number }, i: number) => expect(item.index).toBe(i));
    expect(items[3].result).toBeNull();
    expect(items[3].error).toMatchObject({ code: 'OUTSIDE_TASHKENT', message: expect.stringMatching(/swapped/) });
    expect(items[6].error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'lat' });
    for (const i of [0, 1, 2, 4, 5]) {
      expect(items[i].error).toBeNull();
      expect(items[i].result).toMatchObject(points[i]);
    }
    expect(items[0].result.district.id).toBe('yunusabad');
    expect(items[4].result.district.id).toBe('bektemir');
    // The same point scores the same alone and in bulk.
    const single = await json(await gql(`{ locationIndex(lat: ${points[2].lat}, lon: ${points[2].lon}) { composite { score } } }`));
    expect(items[2].result.composite.score).toBe(single.data.locationIndex.composite.score);
  });

  it('geocode places an address with precision, confidence and the matched elements, and scores the point', async () => {
    const { data, errors } = await json(await gql('query($a: String!) { geocode(address: $a) { address lat lon precision confidence matched { district { name id } quarter street mahalla { id } } candidates { name precision } locationIndex { district { id } composite { score } } } }', { a: 'Yunusobod 8 kvartal' }));
    expect(errors).toBeUndefined();
    const g = data.geocode;
    expect(g).toMatchObject({ address: 'Yunusobod 8 kvartal', precision: 'quarter', matched: { district: { name: 'Yunusabad', id: 'yunusabad' }, street: null, mahalla: null } });
    expect(g.matched.quarter).toMatch(/8/);
    expect(g.lat).toBeGreaterThan(41.2);
    expect(g.lon).toBeGreaterThan(69.1);
    expect(g.locationIndex.district.id).toBe('yunusabad');
    expect(Array.isArray(g.candidates)).toBe(true);
  });

  it('a mahalla is scored in the district its address names: "Chilonzor tumani, Qatortol MFY" is Chilanzar in both', async () => {
    // Its one geocoded listing lies 221 m inside Uchtepa's polygon; the centre is moved into Chilanzar.
    const address = 'Chilonzor tumani, Qatortol MFY';
    const { data, errors } = await json(await gql('query($a: String!) { geocode(address: $a) { lat lon precision matched { district { id } mahalla { id centre { lat lon } } } locationIndex { lat lon district { id } } } }', { a: address }));
    expect(errors).toBeUndefined();
    const g = data.geocode;
    expect(g).toMatchObject({ precision: 'mahalla', matched: { district: { id: 'chilanzar' }, mahalla: { id: 'chilanzar/katartal' } } });
    expect(g.matched.mahalla.centre).toEqual({ lat: g.lat, lon: g.lon });
    expect(g.locationIndex).toEqual({ lat: g.lat, lon: g.lon, district: { id: 'chilanzar' } });
    // The REST route, which geocodes and scores in one call, agrees.
    const body = await json(await locationIndex({ address }));
    expect(body.geocoded.matched).toMatchObject({ district: 'Chilanzar', mahalla_id: 'chilanzar/katartal' });
    expect(body.district.id).toBe('chilanzar');
  });

  it('geocode of an unplaceable address: UNRESOLVABLE_ADDRESS with suggestions in extensions', async () => {
    const { errors } = await json(await gql('{ geocode(address: "Самарканд, улица Навои") { lat } }'));
    expect(errors[0].extensions).toMatchObject({ code: 'UNRESOLVABLE_ADDRESS', field: 'address' });
    expect(Array.isArray(errors[0].extensions.suggestions)).toBe(true);
  });

  it('districts: the 12, each with its mahallas, names in several scripts, a centroid inside it', async () => {
    const { data, errors } = await json(await gql('{ districts { name id names { english uzbekLatin russian } centroid { lat lon } mahallas { id name cyrillic district { name } } locationIndex { district { id } composite { score } } } }'));
    expect(errors).toBeUndefined();
    expect(data.districts).toHaveLength(12);
    expect(data.districts.map((d: { name: string }) => d.name)).toEqual(expect.arrayContaining(['Chilanzar', 'Mirzo-Ulugbek', 'Yunusabad', 'Yangihayot']));
    for (const d of data.districts) {
      expect(d.mahallas.length).toBeGreaterThan(0);
      for (const m of d.mahallas) {
        expect(m.id.startsWith(`${d.id}/`)).toBe(true);
        expect(m.district.name).toBe(d.name);
      }
      expect(d.names.english).toBe(d.name);
      expect(d.names.russian).toMatch(/[А-Яа-я]/);
      expect(d.locationIndex.district.id).toBe(d.id); // the centroid lies in the district
    }
    const chilanzar = data.districts.find((d: { id: string }) => d.id === 'chilanzar');
    expect(chilanzar.names).toEqual({ english: 'Chilanzar', uzbekLatin: 'Chilonzor tumani', russian: 'Чиланзарский район' });
    expect(chilanzar.mahallas.map((m: { id: string }) => m.id)).toContain('chilanzar/katartal');
  });

  it.each([['Чиланзарский район'], ['Chilonzor tumani'], ['Чилонзор'], ['chilanzar']])('district(name: %s) finds Chilanzar', async (name) => {
    const { data, errors } = await json(await gql('query($n: String!) { district(name: $n) { name id } }', { n: name }));
    expect(errors).toBeUndefined();
    expect(data.district).toEqual({ name: 'Chilanzar', id: 'chilanzar' });
  });

  it('district(name) of no district: UNKNOWN_DISTRICT with suggestions', async () => {
    const { errors } = await json(await gql('{ district(name: "Chilanzarabad") { name } }'));
    expect(errors[0].extensions).toMatchObject({ code: 'UNKNOWN_DISTRICT', field: 'name' });
    expect(errors[0].extensions.suggestions).toContain('Chilanzar');
  });
});

describe('entities on the location subgraph', () => {
  const ENTITIES = `query($representations: [_Any!]!) { _entities(representations: $representations) {
    ... on District { name id centroid { lat lon } mahallas { id } }
    ... on Mahalla { id name cyrillic centre { lat lon } district { name } locationIndex { composite { score } } }
  } }`;

  it('resolves District and Mahalla references (unknown keys to null), and the gateway serves the same data', async () => {
    const representations = [
      { __typename: 'District', name: 'Chilanzar' },
      { __typename: 'Mahalla', id: 'chilanzar/katartal' },
      { __typename: 'District', name: 'Atlantis' },
      { __typename: 'Mahalla', id: 'chilanzar/no-such-mahalla' },
    ];
    const response = await onSubgraph(ENTITIES, { representations });
    expect(response.status).toBe(200);
    const { data, errors } = await json(response);
    expect(errors).toBeUndefined();
    const [district, mahalla, unknownDistrict, unknownMahalla] = data._entities;
    expect(unknownDistrict).toBeNull();
    expect(unknownMahalla).toBeNull();
    expect(district.name).toBe('Chilanzar');
    expect(mahalla).toMatchObject({ id: 'chilanzar/katartal', district: { name: 'Chilanzar' } });
    expect(mahalla.locationIndex.composite.score).toBeGreaterThanOrEqual(0);

    const through = await json(await gql('{ district(name: "Chilanzar") { name id centroid { lat lon } mahallas { id name cyrillic centre { lat lon } district { name } locationIndex { composite { score } } } } }'));
    expect(through.errors).toBeUndefined();
    const { mahallas, ...rest } = through.data.district;
    expect({ ...rest, mahallas: mahallas.map((m: { id: string }) => ({ id: m.id })) }).toEqual(district);
    expect(mahallas.find((m: { id: string }) => m.id === 'chilanzar/katartal')).toEqual(mahalla);
  });

  it('refuses calls without the internal token', async () => {
    const query = '{ districts { name } }';
    expect((await onSubgraph(query, {}, {})).status).toBe(401);
    expect((await onSubgraph(query, {}, { 'x-internal-token': 'not-the-token' })).status).toBe(401);
    expect((await onSubgraph(query)).status).toBe(200);
  });
});

it('takes a full batch of 10,000 points through the gateway within the default cost limit', async () => {
  const points = Array.from({ length: 10_000 }, (_, i) => ({ lat: 41.28 + (i % 100) * 0.0005, lon: 69.22 + Math.floor(i / 100) * 0.0005 }));
  const { data, errors } = await json(await gql('query($p: [PointInput!]!) { locationIndexes(points: $p) { index result { composite { score } } error { code } } }', { p: points }));
  expect(errors).toBeUndefined();
  expect(data.locationIndexes).toHaveLength(10_000);
  expect(data.locationIndexes[9_999].index).toBe(9_999);
});
