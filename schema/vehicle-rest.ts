/**
 * The REST form of the vehicle valuation: from a body (./vehicle-contract.ts) to the GraphQL
 * input, and from a valuation to the snake_case reply shaped like the home one (estimate,
 * interval, confidence, models, anomaly, market_level). Used by POST /api/predict/vehicle, the
 * value_vehicle MCP tool and `npm run valuate`, so a file of API requests is read exactly as the
 * API reads them.
 */
import type { Currency, ExchangeRate } from './currency-contract';
import type { VehicleValue } from './vehicle-value';
import type { BodyType, Colour, Drive, Fuel, Paint, RegionId, Transmission } from './vehicle-codes';
import { exchangeRateRest, toMarketAdjustmentRest, toMarketLevelRest, type MarketAdjustmentView } from './home-rest';
import { compileRestBodyParser, type RestBodyParser } from './rest-validation';
import { VEHICLE_FIELDS } from './vehicle-contract';

/** What `condition` says about defects, as the reply echoes it. */
export type VehicleCondition = 'good' | 'needs_repair';

/**
 * The vehicle valued, as the service understood the request: the catalogue's make and model (null:
 * a model the catalogue does not list) and the codes of the attributes read (null: not given, or
 * not recognised; the warnings say which).
 */
export interface ValuedVehicle {
  make: string;
  model: string | null;
  year: number;
  trim: number | null;
  /** Litres. */
  engine: number | null;
  fuel: Fuel | null;
  transmission: Transmission | null;
  bodyType: BodyType | null;
  drive: Drive | null;
  region: RegionId | null;
  condition: VehicleCondition | null;
  paint: Paint | null;
  colour: Colour | null;
}

/** A valuation as the graph returns it (VehicleValuation): the runtime's value plus what was valued, and when, in the currency asked for (as HomeValuationView). */
export type VehicleValuationView = Omit<VehicleValue, 'currency'> & {
  currency: Currency;
  exchangeRate?: ExchangeRate | null;
  vehicle: ValuedVehicle;
  valuedAt: string;
  warnings: string[];
  marketAdjustment?: MarketAdjustmentView | null;
  valuationId?: string | null;
};

/** The GraphQL selection of ValuedVehicle, for the operations that map to toVehicleRestResponse. */
export const VALUED_VEHICLE_SELECTION = 'make model year trim engine fuel transmission bodyType drive region condition paint colour';

/** Checks a REST body (personal data, types, ranges) and maps it to VehicleValuationInput; throws ApiError. */
export const parseVehicleRestBody: RestBodyParser = compileRestBodyParser(VEHICLE_FIELDS);

/** The REST reply for one valuation. */
export function toVehicleRestResponse(v: VehicleValuationView, restWarnings: readonly string[] = []) {
  const { make, model, year, trim, engine, fuel, transmission, bodyType, drive, region, condition, paint, colour } = v.vehicle;
  return {
    estimate: v.estimate,
    currency: v.currency,
    ...exchangeRateRest(v.exchangeRate),
    interval: v.interval,
    fsd: v.fsd ?? null,
    confidence: v.confidence,
    models: v.models,
    anomaly: {
      group_median_price: v.anomaly.groupMedianPrice,
      deviation_from_group_median: v.anomaly.deviationFromGroupMedian,
      market_listings: v.anomaly.marketListings,
      model_spread: v.anomaly.modelSpread,
      flags: v.anomaly.flags,
    },
    vehicle: { make, model, year, trim, engine, fuel, transmission, body_type: bodyType, drive, region, condition, paint, colour },
    basis: v.basis,
    market_level: toMarketLevelRest(v.marketLevel),
    market_adjustment: toMarketAdjustmentRest(v.marketAdjustment),
    valuation_id: v.valuationId ?? null,
    model_version: v.modelVersion,
    valued_at: v.valuedAt,
    warnings: [...restWarnings, ...v.warnings],
  };
}
