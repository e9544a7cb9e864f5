/**
 * POST /api/predict/home (X-API-Key) and POST /service/predict/home (Bearer): the legacy
 * contract (docs/ARCHITECTURE.md, "The REST contract"). The HTTP side of `valueHome`
 * (gateway/operations/home.ts), which runs the `homeValuation` GraphQL operation.
 */
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { homeRequestJsonSchema, SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import type { Graph } from '../graph/apollo';
import { gatewayExecutor } from '../graph/executor';
import { valueHome } from '../operations/home';
import { homeResponseJsonSchema, errorResponseJsonSchema } from '../operations/response-schemas';
import { SECURITY, withExample } from '../ops/openapi';

export const homeRouteSchema = {
  body: homeRequestJsonSchema(),
  response: { 200: homeResponseJsonSchema(), '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() },
};


const HOME_ROUTE_DESCRIPTION = 'A flat (property_type apartment, the default: floor and total_floors required) or a private house with its plot (property_type house: area is the floor area, land_area the plot in sotka, total_floors its storeys, 1 to 5). Estimate, calibrated interval, confidence, per-model estimates and anomaly data; for a house also land_price_per_sotka (the plot alone), anomaly.land_share, and anomaly.district_median_price_per_sotka (whole houses per sotka of plot) with the house\'s own deviation from it, deviation_from_district_median_per_sotka (null for a flat). Fields that do not apply to the property type are ignored with a warning. A house in a district with too few house listings to value honestly: 422 INSUFFICIENT_MARKET_DATA.';


export function registerHomeRoutes(app: FastifyInstance, graph: Graph, auth: { apiKey: preHandlerAsyncHookHandler; bearer: preHandlerAsyncHookHandler }): void {
  const handler = (request: import('fastify').FastifyRequest) => valueHome(gatewayExecutor(graph, request), request.body);
  // The body is read by parseHomeRestBody (the catalogue's errors); the response schema makes
  // fastify serialise with fast-json-stringify. Both are published in OpenAPI.
  const schema = { tags: ['valuation'], description: HOME_ROUTE_DESCRIPTION, body: withExample(homeRouteSchema.body, SAMPLE_HOME_REQUEST), response: homeRouteSchema.response };
  app.post('/api/predict/home', { schema: { ...schema, summary: 'Value a home (legacy contract, API key)', security: SECURITY.apiKey }, preHandler: auth.apiKey }, handler);
  app.post('/service/predict/home', { schema: { ...schema, summary: 'Value a home (bearer token from /service/auth/token)', security: SECURITY.bearer }, preHandler: auth.bearer }, handler);
}
