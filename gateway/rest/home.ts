/**
 * POST /api/predict/home (X-API-Key) and POST /service/predict/home (Bearer): the legacy
 * contract (docs/ARCHITECTURE.md, "The REST contract"), translated into the `homeValuation` GraphQL operation.
 */
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { homeRequestJsonSchema, SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { EXCHANGE_RATE_SELECTION, MARKET_ADJUSTMENT_SELECTION, MARKET_MIXTURE_SELECTION, parseHomeRestBody, toHomeRestResponse, type HomeValuationView } from '../../schema/home-rest';
import type { Graph } from '../graph/apollo';
import { gatewayExecutor } from '../graph/executor';
import { homeResponseJsonSchema, errorResponseJsonSchema } from './response-schemas';
import { SECURITY, withExample } from '../ops/openapi';

/** Persisted operation of the home routes; every field is owned by the residential subgraph (test/gateway/persisted-operations). */
export const HOME_VALUATION_OPERATION = { owner: 'residential', query: /* GraphQL */ `
  query RestPredictHome($input: HomeValuationInput!) {
    homeValuation(input: $input) {
      propertyType estimate currency ${EXCHANGE_RATE_SELECTION} pricePerM2 landPricePerSotka
      interval { low high coverage }
      fsd
      confidence { level score drivers }
      models { name estimate weight }
      anomaly { districtMedianPricePerM2 deviationFromDistrictMedian mahallaMedianPricePerM2 deviationFromMahallaMedian districtMedianPricePerSotka deviationFromDistrictMedianPerSotka landShare modelSpread flags }
      location { districtName mahallaName mahallaId matched }
      marketLevel { valuationDate newestDataPeriod dataAgeMonths dataAgeDays indexRatio intervalWidening }
      ${MARKET_ADJUSTMENT_SELECTION}
      ${MARKET_MIXTURE_SELECTION}
      valuationId modelVersion valuedAt warnings
    }
  }` };

interface HomeValuationData {
  homeValuation: Omit<HomeValuationView, 'location'> & {
    location: { districtName: string; mahallaName: string | null; mahallaId: string | null; matched: HomeValuationView['location']['matched'] };
  };
}

/** The operation's selection → the valuation view the REST reply is made from (location.district is an entity in the graph). */
function toHomeValuationView({ location, ...valuation }: HomeValuationData['homeValuation']): HomeValuationView {
  return { ...valuation, location: { district: location.districtName, mahalla: location.mahallaName, mahallaId: location.mahallaId, matched: location.matched } };
}

export const homeRouteSchema = {
  body: homeRequestJsonSchema(),
  response: { 200: homeResponseJsonSchema(), '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() },
};


const HOME_ROUTE_DESCRIPTION = 'A flat (property_type apartment, the default: floor and total_floors required) or a private house with its plot (property_type house: area is the floor area, land_area the plot in sotka, total_floors its storeys, 1 to 5). Estimate, calibrated interval, confidence, per-model estimates and anomaly data; for a house also land_price_per_sotka (the plot alone), anomaly.land_share, and anomaly.district_median_price_per_sotka (whole houses per sotka of plot) with the house\'s own deviation from it, deviation_from_district_median_per_sotka (null for a flat). Fields that do not apply to the property type are ignored with a warning. A house in a district with too few house listings to value honestly: 422 INSUFFICIENT_MARKET_DATA.';


export function registerHomeRoutes(app: FastifyInstance, graph: Graph, auth: { apiKey: preHandlerAsyncHookHandler; bearer: preHandlerAsyncHookHandler }): void {
  const handler = async (request: import('fastify').FastifyRequest) => {
    const { input, warnings } = parseHomeRestBody(request.body);
    const data = await gatewayExecutor(graph, request).execute<HomeValuationData>(HOME_VALUATION_OPERATION, { input });
    return toHomeRestResponse(toHomeValuationView(data.homeValuation), warnings);
  };
  // The body is read by parseHomeRestBody (the catalogue's errors); the response schema makes
  // fastify serialise with fast-json-stringify. Both are published in OpenAPI.
  const schema = { tags: ['valuation'], description: HOME_ROUTE_DESCRIPTION, body: withExample(homeRouteSchema.body, SAMPLE_HOME_REQUEST), response: homeRouteSchema.response };
  app.post('/api/predict/home', { schema: { ...schema, summary: 'Value a home (legacy contract, API key)', security: SECURITY.apiKey }, preHandler: auth.apiKey }, handler);
  app.post('/service/predict/home', { schema: { ...schema, summary: 'Value a home (bearer token from /service/auth/token)', security: SECURITY.bearer }, preHandler: auth.bearer }, handler);
}
