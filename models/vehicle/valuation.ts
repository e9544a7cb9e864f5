/**
 * What the vehicle runtime takes and returns. Pure types: the vehicle subgraph maps them to
 * GraphQL and REST, the valuate CLI writes them as JSON lines. The shape follows the home
 * valuation (estimate, interval, confidence, models, anomaly) so clients handle both alike.
 */
import type { ConfidenceLevel } from '../ensemble/confidence';
import type { AccuracyMetrics } from '../ensemble/metrics';
import type { BodyType, Drive, Fuel, RegionId, Transmission } from './vocabulary';

/**
 * The canonical request: catalogue names and codes, never free text. Only make, model and year
 * are required; every other field improves the estimate when given and is null when not.
 */
export interface VehicleRequest {
  /** Canonical make (resolveMake(make) === make). */
  make: string;
  /** Canonical model of that make (resolveModel(make, model) === model). */
  model: string;
  year: number;
  mileageKm: number | null;
  engineLitres: number | null;
  fuel: Fuel | null;
  transmission: Transmission | null;
  body: BodyType | null;
  drive: Drive | null;
  /** Trim level (avtoelon "pozitsiya", 1–4). */
  trim: number | null;
  /** True when the vehicle has defects or needs repair (from the API's `condition`). */
  defects: boolean | null;
  region: RegionId | null;
  askingPrice: number | null;
}

export interface VehicleValue {
  estimate: number;
  currency: 'USD';
  interval: { low: number; high: number; coverage: number };
  confidence: { level: ConfidenceLevel; score: number };
  models: { name: string; estimate: number }[];
  anomaly: {
    /** Median asking price of the same make, model and model year in the training data; null when none was seen. */
    groupMedianPrice: number | null;
    deviationFromGroupMedian: number | null;
    /** Training listings of this make and model (all years): how much market data backs the estimate. */
    marketListings: number;
    modelSpread: number;
    flags: string[];
  };
  modelVersion: string;
}

/** The make and model catalogue as the training data saw it (the `vehicleCatalog` query). */
export interface VehicleCatalogEntry {
  make: string;
  models: { model: string; listings: number; years: { from: number; to: number } | null }[];
  listings: number;
}

/** What the service says about the vehicle model version it runs (the `vehicleModel` query). */
export interface VehicleModelSummary {
  version: string;
  trainedAt: string;
  dataSnapshot: string;
  evaluation: string;
  metrics: AccuracyMetrics;
  /** Per make/model group of the headline evaluation, with counts. */
  groups: { group: string; metrics: AccuracyMetrics; accuracyClass: string }[];
  featureImportance: { feature: string; importance: number }[];
  members: { name: string; algorithm: string; weight: number }[];
  intervalCoverage: number;
}

/** Thrown by `value` for a make/model with too little market data to value honestly (never a confident number). */
export class InsufficientMarketDataError extends Error {
  constructor(readonly make: string, readonly model: string, readonly listings: number) {
    super(`not enough market data for ${make} ${model}: ${listings} listings in the training data`);
  }
}

/** The running vehicle model set. */
export interface VehicleRuntime {
  readonly version: string;
  /**
   * Values many requests with one ONNX session call. Output order = input order; an entry is an
   * InsufficientMarketDataError instead of a value where the market data cannot support one.
   */
  value(requests: readonly VehicleRequest[]): Promise<(VehicleValue | InsufficientMarketDataError)[]>;
  summary(): VehicleModelSummary;
  catalog(): VehicleCatalogEntry[];
}
