/**
 * Valuing a used vehicle, the same on every door: POST /api/predict/vehicle (gateway/rest/vehicle.ts)
 * and MCP's value_vehicle (gateway/mcp/tools.ts) read the body with the same parser, run the same
 * persisted operation on the vehicle subgraph and answer the same snake_case body.
 */
import { EXCHANGE_RATE_SELECTION, MARKET_ADJUSTMENT_SELECTION } from '../../schema/home-rest';
import { parseVehicleRestBody, toVehicleRestResponse, VALUED_VEHICLE_SELECTION, type VehicleValuationView } from '../../schema/vehicle-rest';
import type { GraphExecutor } from '../graph/executor';

/** Persisted operation of the vehicle valuation; every field is owned by the vehicle subgraph (test/gateway/vehicle-rest). */
export const VEHICLE_VALUATION_OPERATION = { owner: 'vehicle', query: /* GraphQL */ `
  query RestPredictVehicle($input: VehicleValuationInput!) {
    vehicleValuation(input: $input) {
      estimate currency ${EXCHANGE_RATE_SELECTION}
      interval { low high coverage }
      fsd
      confidence { level score drivers }
      models { name estimate weight }
      anomaly { groupMedianPrice deviationFromGroupMedian marketListings modelSpread flags }
      vehicle { ${VALUED_VEHICLE_SELECTION} }
      basis
      marketLevel { valuationDate newestDataPeriod dataAgeMonths dataAgeDays indexRatio intervalWidening }
      ${MARKET_ADJUSTMENT_SELECTION}
      valuationId modelVersion valuedAt warnings
    }
  }` };

/** A vehicle request in REST names → its valuation through `executor`, as the vehicle route answers it. */
export async function valueVehicle(executor: GraphExecutor, body: unknown) {
  const { input, warnings } = parseVehicleRestBody(body);
  const data = await executor.execute<{ vehicleValuation: VehicleValuationView }>(VEHICLE_VALUATION_OPERATION, { input });
  return toVehicleRestResponse(data.vehicleValuation, warnings);
}
export type VehicleReply = Awaited<ReturnType<typeof valueVehicle>>;
