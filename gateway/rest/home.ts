/**
 * POST /api/predict/home (X-API-Key) and POST /service/predict/home (Bearer): the legacy
 * contract of ARCHITECTURE.md section 2, translated into the `homeValuation` GraphQL operation.
 */
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError } from '../../schema/errors';
import { HOME_FIELDS, homeRequestJsonSchema } from '../../schema/home-contract';
import { parseYesNo } from '../../models/vocabulary';
import type { Graph } from '../graph/apollo';
import { executeForRest } from './execute';
import { homeResponseJsonSchema, errorResponseJsonSchema } from './response-schemas';
import { compileBodyValidator } from './validate-body';
import { documentRoute } from '../ops/openapi';

/** Persisted operation of the home routes; every field is owned by the residential subgraph (test/gateway/persisted-operations). */
export const HOME_VALUATION_OPERATION = { owner: 'residential', query: /* GraphQL */ `
  query RestPredictHome($input: HomeValuationInput!) {
    homeValuation(input: $input) {
      estimate currency pricePerM2
      interval { low high coverage }
      confidence { level score }
      models { name estimate }
      anomaly { districtMedianPricePerM2 deviationFromDistrictMedian mahallaMedianPricePerM2 deviationFromMahallaMedian modelSpread flags }
      location { district mahalla mahallaId matched }
      modelVersion valuedAt warnings
    }
  }` };

interface HomeValuationData {
  homeValuation: {
    estimate: number; currency: string; pricePerM2: number;
    interval: { low: number; high: number; coverage: number };
    confidence: { level: string; score: number };
    models: { name: string; estimate: number }[];
    anomaly: { districtMedianPricePerM2: number; deviationFromDistrictMedian: number; mahallaMedianPricePerM2: number | null; deviationFromMahallaMedian: number | null; modelSpread: number; flags: string[] };
    location: { district: string; mahalla: string | null; mahallaId: string | null; matched: string };
    modelVersion: string; valuedAt: string; warnings: string[];
  };
}

export const homeRouteSchema = {
  body: homeRequestJsonSchema(),
  response: { 200: homeResponseJsonSchema(), '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() },
};

const validateBody = compileBodyValidator(homeRequestJsonSchema());

documentRoute({ method: 'post', path: '/api/predict/home', summary: 'Value a home (legacy contract, API key)', security: 'apiKey', requestBody: homeRouteSchema.body, responses: homeRouteSchema.response, tag: 'valuation' });
documentRoute({ method: 'post', path: '/service/predict/home', summary: 'Value a home (bearer token from /service/auth/token)', security: 'bearer', requestBody: homeRouteSchema.body, responses: homeRouteSchema.response, tag: 'valuation' });

/** REST body (snake_case, aliases) → GraphQL HomeValuationInput. */
export function toHomeInput(body: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const f of HOME_FIELDS) {
    let value = body[f.rest];
    for (const alias of f.restAliases ?? []) if (value === undefined) value = body[alias];
    if (value === undefined || value === null) continue;
    if (f.kind === 'yesno' && typeof value === 'string') {
      const parsed = parseYesNo(value);
      if (parsed === null) throw new ApiError('INVALID_PARAMETER', `${f.rest} must be yes/no (ha/yo'q, да/нет, true/false)`, f.rest);
      value = parsed;
    }
    input[f.graphql] = value;
  }
  return input;
}

export function registerHomeRoutes(app: FastifyInstance, graph: Graph, auth: { apiKey: preHandlerAsyncHookHandler; bearer: preHandlerAsyncHookHandler }): void {
  const handler = async (request: import('fastify').FastifyRequest) => {
    const { body, warnings } = validateBody(request.body);
    const data = await executeForRest<HomeValuationData>(graph, request, HOME_VALUATION_OPERATION, { input: toHomeInput(body) });
    return toRestResponse(data.homeValuation, warnings);
  };
  // Body validation runs in the handler (our error format); the response schema makes fastify
  // serialise with fast-json-stringify. Both schemas are published in OpenAPI.
  const schema = { response: homeRouteSchema.response };
  app.post('/api/predict/home', { schema, preHandler: auth.apiKey }, handler);
  app.post('/service/predict/home', { schema, preHandler: auth.bearer }, handler);
}

function toRestResponse(v: HomeValuationData['homeValuation'], restWarnings: string[]) {
  return {
    estimate: v.estimate,
    currency: v.currency,
    price_per_m2: v.pricePerM2,
    interval: v.interval,
    confidence: v.confidence,
    models: v.models,
    anomaly: {
      district_median_price_per_m2: v.anomaly.districtMedianPricePerM2,
      deviation_from_district_median: v.anomaly.deviationFromDistrictMedian,
      mahalla_median_price_per_m2: v.anomaly.mahallaMedianPricePerM2,
      deviation_from_mahalla_median: v.anomaly.deviationFromMahallaMedian,
      model_spread: v.anomaly.modelSpread,
      flags: v.anomaly.flags,
    },
    location: { district: v.location.district, mahalla: v.location.mahalla, mahalla_id: v.location.mahallaId, matched: v.location.matched },
    model_version: v.modelVersion,
    valued_at: v.valuedAt,
    warnings: [...restWarnings, ...v.warnings],
  };
}
