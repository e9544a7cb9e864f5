/**
 * The REST form of the vehicle valuation: from a body (./vehicle-contract.ts) to the GraphQL
 * input, and from a valuation to the snake_case reply shaped like the home one (estimate,
 * interval, confidence, models, anomaly). Used by POST /api/predict/vehicle and by
 * `npm run valuate`, so a file of API requests is read exactly as the API reads them.
 */
import type { VehicleValue } from '../models/vehicle/valuation';
import { compileRestBodyParser, type RestBodyParser } from './rest-validation';
import { VEHICLE_FIELDS } from './vehicle-contract';

/** A valuation as the graph returns it (VehicleValuation): the runtime's value plus what was valued, and when. */
export type VehicleValuationView = VehicleValue & {
  vehicle: { make: string; model: string; year: number };
  valuedAt: string;
  warnings: string[];
};

/** Checks a REST body (personal data, types, ranges) and maps it to VehicleValuationInput; throws ApiError. */
export const parseVehicleRestBody: RestBodyParser = compileRestBodyParser(VEHICLE_FIELDS);

/** The REST reply for one valuation. */
export function toVehicleRestResponse(v: VehicleValuationView, restWarnings: readonly string[] = []) {
  return {
    estimate: v.estimate,
    currency: v.currency,
    interval: v.interval,
    confidence: v.confidence,
    models: v.models,
    anomaly: {
      group_median_price: v.anomaly.groupMedianPrice,
      deviation_from_group_median: v.anomaly.deviationFromGroupMedian,
      market_listings: v.anomaly.marketListings,
      model_spread: v.anomaly.modelSpread,
      flags: v.anomaly.flags,
    },
    vehicle: v.vehicle,
    model_version: v.modelVersion,
    valued_at: v.valuedAt,
    warnings: [...restWarnings, ...v.warnings],
  };
}
