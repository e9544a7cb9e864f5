/**
 * What a vehicle valuation is, on every door: the vehicle model's answer in USD (models/vehicle
 * makes it) and what its estimate stands on. Pure types; the REST form is ./vehicle-rest.ts, the
 * GraphQL one subgraphs/vehicle/types.ts.
 */
import type { MemberEstimate, StatedConfidence } from './ensemble-contract';
import type { MarketLevel } from './home-contract';

/**
 * What the estimate stands on: the make and model's own listings ('model'), the make's level for a
 * model the data does not hold ('make'), or the market's level for the body, engine and year given
 * when the make has too little data of its own ('segment'). Each has its own calibrated interval.
 */
export const VEHICLE_BASES = ['model', 'make', 'segment'] as const;
export type VehicleBasis = (typeof VEHICLE_BASES)[number];

export interface VehicleValue {
  estimate: number;
  currency: 'USD';
  interval: { low: number; high: number; coverage: number };
  /** The forecast standard deviation of the log error its interval implies (models/ensemble/fsd.ts). */
  fsd: number;
  confidence: StatedConfidence;
  models: MemberEstimate[];
  anomaly: {
    /** Median asking price of the same make, model and model year in the training data; null when none was seen. */
    groupMedianPrice: number | null;
    deviationFromGroupMedian: number | null;
    /** Training listings of this make and model (all years): how much market data backs the estimate. */
    marketListings: number;
    modelSpread: number;
    flags: string[];
  };
  /** What the estimate stands on. */
  basis: VehicleBasis;
  /** How old the market data behind it is, where the market index puts the valuation date, and how much the interval widened for it. */
  marketLevel: MarketLevel;
  modelVersion: string;
}
