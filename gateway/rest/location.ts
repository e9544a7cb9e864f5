/**
 * POST /api/location/index (X-API-Key): `{ lat, lon }` or `{ address }` → the location index,
 * translated into one GraphQL operation on the location subgraph: `locationIndex(lat, lon)`, or
 * `geocode(address)` with the index at the geocoded point. Replies in snake_case.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { SUBINDEXES } from '../../models/location';
import { chooseLocationRequest, locationFieldsJsonSchema, locationRequestJsonSchema, locationResponseJsonSchema } from '../../schema/location-contract';
import { compileBodyValidator } from '../../schema/rest-validation';
import type { Graph } from '../graph/apollo';
import { SECURITY, withExample } from '../ops/openapi';
import { gatewayExecutor } from '../graph/executor';
import { errorResponseJsonSchema } from './response-schemas';

const LOCATION_INDEX_REPLY = /* GraphQL */ `
  fragment LocationIndexReply on LocationIndexResult {
    lat lon
    district { id name }
    composite { score complete renormalised missing }
    subindexes { id name score weight coverage complete components { feature required used coverage layers { layer } } }
    dataUsed { layer features coverage completeIn licence note }
  }`;

/** Persisted operations of the route; every field is owned by the location subgraph (test/gateway/persisted-operations). */
export const LOCATION_INDEX_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query RestLocationIndex($lat: Float!, $lon: Float!) {
    locationIndex(lat: $lat, lon: $lon) { ...LocationIndexReply }
  }${LOCATION_INDEX_REPLY}` };

export const LOCATION_INDEX_BY_ADDRESS_OPERATION = { owner: 'location', query: /* GraphQL */ `
  query RestLocationIndexByAddress($address: String!) {
    geocode(address: $address) {
      address lat lon precision confidence
      matched { district { name } quarter street mahalla { id name } }
      locationIndex { ...LocationIndexReply }
    }
  }${LOCATION_INDEX_REPLY}` };

/** The fields LOCATION_INDEX_REPLY selects. */
export interface LocationIndexData {
  lat: number;
  lon: number;
  district: { id: string; name: string };
  composite: { score: number | null; complete: boolean; renormalised: boolean; missing: string[] };
  subindexes: {
    id: string; name: string; score: number | null; weight: number; coverage: string; complete: boolean;
    components: { feature: string; required: boolean; used: boolean; coverage: string; layers: { layer: string }[] }[];
  }[];
  dataUsed: { layer: string; features: number; coverage: string; completeIn: string[] | null; licence: string | null; note: string }[];
}

/** What the by-address operation selects: the geocode with its location index. */
export interface GeocodeData {
  address: string;
  lat: number;
  lon: number;
  precision: string;
  confidence: number;
  matched: { district: { name: string }; quarter: string | null; street: string | null; mahalla: { id: string; name: string } | null };
  locationIndex: LocationIndexData;
}

export const locationRouteSchema = {
  body: locationRequestJsonSchema(),
  response: { 200: locationResponseJsonSchema(SUBINDEXES), '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() },
};

const validateFields = compileBodyValidator(locationFieldsJsonSchema());

/** What a geocode matched, as the REST bodies (and MCP's geocode_address) write it. */
export function toMatchedResponse(matched: GeocodeData['matched']) {
  return { district: matched.district.name, quarter: matched.quarter, street: matched.street, mahalla: matched.mahalla?.name ?? null, mahalla_id: matched.mahalla?.id ?? null };
}

/** The route's body (MCP's location_index tool answers with it too). */
export function toLocationRestResponse(index: LocationIndexData, geocoded: GeocodeData | null, warnings: readonly string[]) {
  return {
    lat: index.lat,
    lon: index.lon,
    district: index.district,
    composite: index.composite,
    subindexes: Object.fromEntries(index.subindexes.map((s) => [s.id, {
      name: s.name,
      score: s.score,
      weight: s.weight,
      coverage: s.coverage,
      complete: s.complete,
      components: s.components.map((c) => ({ feature: c.feature, required: c.required, used: c.used, coverage: c.coverage, layers: c.layers.map((l) => l.layer) })),
    }])),
    data_used: index.dataUsed.map((d) => ({ layer: d.layer, features: d.features, coverage: d.coverage, complete_in: d.completeIn, licence: d.licence, note: d.note })),
    ...(geocoded && {
      geocoded: {
        address: geocoded.address,
        lat: geocoded.lat,
        lon: geocoded.lon,
        precision: geocoded.precision,
        confidence: geocoded.confidence,
        matched: toMatchedResponse(geocoded.matched),
      },
    }),
    warnings,
  };
}

export function registerLocationRoutes(app: FastifyInstance, graph: Graph, auth: { apiKey: preHandlerAsyncHookHandler }): void {
  const handler = async (request: FastifyRequest) => {
    const { body, warnings } = validateFields(request.body);
    const wanted = chooseLocationRequest(body);
    if (wanted.kind === 'point') {
      const data = await gatewayExecutor(graph, request).execute<{ locationIndex: LocationIndexData }>(LOCATION_INDEX_OPERATION, { lat: wanted.lat, lon: wanted.lon });
      return toLocationRestResponse(data.locationIndex, null, warnings);
    }
    const data = await gatewayExecutor(graph, request).execute<{ geocode: GeocodeData }>(LOCATION_INDEX_BY_ADDRESS_OPERATION, { address: wanted.address });
    return toLocationRestResponse(data.geocode.locationIndex, data.geocode, warnings);
  };
  // The body is read by validateFields (the catalogue's errors); the response schema makes fastify
  // serialise with fast-json-stringify. Both are published in OpenAPI.
  const schema = {
    tags: ['location'],
    summary: 'Location index of a Tashkent coordinate or address (API key)',
    description: 'Nine subindexes, each 0–100 on an absolute scale, a composite, and the data behind them with coverage flags. With an address, it is geocoded first and the reply includes `geocoded`. Outside the city: 400 OUTSIDE_TASHKENT; an address that cannot be placed: 400 UNRESOLVABLE_ADDRESS with suggestions.',
    security: SECURITY.apiKey,
    body: withExample(locationRouteSchema.body, { lat: 41.2856, lon: 69.2034 }),
    response: locationRouteSchema.response,
  };
  app.post('/api/location/index', { schema, preHandler: auth.apiKey }, handler);
}
