/**
 * POST /api/location/index (X-API-Key): `{ lat, lon }` or `{ address }` → the location index. The
 * body is checked here; `locationIndexOf` (gateway/operations/location.ts) runs one GraphQL
 * operation on the location subgraph and answers in snake_case.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { SUBINDEXES } from '../../models/location';
import { locationFieldsJsonSchema, locationRequestJsonSchema, locationResponseJsonSchema } from '../../schema/location-contract';
import { compileBodyValidator } from '../../schema/rest-validation';
import type { Graph } from '../graph/apollo';
import { SECURITY, withExample } from '../ops/openapi';
import { gatewayExecutor } from '../graph/executor';
import { locationIndexOf } from '../operations/location';
import { errorResponseJsonSchema } from '../operations/response-schemas';

export const locationRouteSchema = {
  body: locationRequestJsonSchema(),
  response: { 200: locationResponseJsonSchema(SUBINDEXES), '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() },
};

const validateFields = compileBodyValidator(locationFieldsJsonSchema());

export function registerLocationRoutes(app: FastifyInstance, graph: Graph, auth: { apiKey: preHandlerAsyncHookHandler }): void {
  const handler = async (request: FastifyRequest) => {
    const { body, warnings } = validateFields(request.body);
    return locationIndexOf(gatewayExecutor(graph, request), body, warnings);
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
