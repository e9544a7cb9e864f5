/**
 * POST /api/predict/vehicle (X-API-Key): make, model, year, mileage … → a valuation shaped like the
 * home one: the HTTP side of `valueVehicle` (gateway/operations/vehicle.ts), which runs the
 * `vehicleValuation` GraphQL operation on the vehicle subgraph.
 * Authentication, quotas, size limit and error format are the home route's.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { SAMPLE_VEHICLE_REQUEST, vehicleRequestJsonSchema } from '../../schema/vehicle-contract';
import type { Graph } from '../graph/apollo';
import { SECURITY, withExample } from '../ops/openapi';
import { gatewayExecutor } from '../graph/executor';
import { valueVehicle } from '../operations/vehicle';
import { errorResponseJsonSchema, vehicleResponseJsonSchema } from '../operations/response-schemas';

export const vehicleRouteSchema = {
  body: vehicleRequestJsonSchema(),
  response: { 200: vehicleResponseJsonSchema(), '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() },
};

const VEHICLE_ROUTE_DESCRIPTION =
  "Estimate, calibrated interval, confidence, per-model estimates and anomaly data, as for homes, with what the estimate stands on (basis), the market level (market_level) and the vehicle as understood (vehicle: catalogue names and codes). Fields take avtoelon.uz's own words: the trim in the model name (\"Cobalt, 4 pozitsiya EVRO\"), the engine cell (\"1.5 (Benzin)\"), a paint condition in condition or paint. An optional name that is not recognised is ignored with a warning; a wrong type or range is 400 INVALID_PARAMETER. An unknown make, or a misspelt model: 400 UNKNOWN_VEHICLE with suggestions; a model of a known make that the catalogue does not list is valued on the make's level with a warning (vehicle.model null) where the model can; a make and model with too little market data to value honestly: 422 INSUFFICIENT_MARKET_DATA.";

export function registerVehicleRoutes(app: FastifyInstance, graph: Graph, auth: { apiKey: preHandlerAsyncHookHandler }): void {
  // The body is read by parseVehicleRestBody (the catalogue's errors); the response schema makes
  // fastify serialise with fast-json-stringify. Both are published in OpenAPI.
  const schema = {
    tags: ['valuation'], summary: 'Value a used vehicle (API key)', description: VEHICLE_ROUTE_DESCRIPTION, security: SECURITY.apiKey,
    body: withExample(vehicleRouteSchema.body, SAMPLE_VEHICLE_REQUEST), response: vehicleRouteSchema.response,
  };
  app.post('/api/predict/vehicle', { schema, preHandler: auth.apiKey }, (request: FastifyRequest) => valueVehicle(gatewayExecutor(graph, request), request.body));
}
