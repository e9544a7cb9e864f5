/**
 * Valuing a home, the same on every door: POST /api/predict/home and /service/predict/home
 * (gateway/rest/home.ts) and MCP's value_home (gateway/mcp/tools.ts) read the body with the same
 * parser, run the same persisted operation and answer the same snake_case body.
 */
import { EXCHANGE_RATE_SELECTION, MARKET_ADJUSTMENT_SELECTION, MARKET_MIXTURE_SELECTION, parseHomeRestBody, toHomeRestResponse, type HomeValuationView } from '../../schema/home-rest';
import type { GraphExecutor } from '../graph/executor';

/** Persisted operation of the home valuation; every field is owned by the residential subgraph (test/gateway/persisted-operations). */
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

/** `homeValuation` as HOME_VALUATION_OPERATION selects it (location by name: district is an entity in the graph). */
export interface HomeValuationData {
  homeValuation: Omit<HomeValuationView, 'location'> & {
    location: { districtName: string; mahallaName: string | null; mahallaId: string | null; matched: HomeValuationView['location']['matched'] };
  };
}

/** The operation's selection → the valuation view the reply is made from (location.district is an entity in the graph). */
function toHomeValuationView({ location, ...valuation }: HomeValuationData['homeValuation']): HomeValuationView {
  return { ...valuation, location: { district: location.districtName, mahalla: location.mahallaName, mahallaId: location.mahallaId, matched: location.matched } };
}

/** A home request in REST names → its valuation through `executor`, as the home routes answer it. */
export async function valueHome(executor: GraphExecutor, body: unknown) {
  const { input, warnings } = parseHomeRestBody(body);
  const data = await executor.execute<HomeValuationData>(HOME_VALUATION_OPERATION, { input });
  return toHomeRestResponse(toHomeValuationView(data.homeValuation), warnings);
}
export type HomeReply = Awaited<ReturnType<typeof valueHome>>;
