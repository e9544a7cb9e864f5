/**
 * What the vehicle runtime takes and returns. Pure types: the vehicle subgraph maps them to
 * GraphQL and REST, the valuate CLI writes them as JSON lines. The shape follows the home
 * valuation (estimate, interval, confidence, models, anomaly) so clients handle both alike.
 */
import type { AccuracyClass } from '../ensemble/confidence';
import type { AccuracyMetrics } from '../ensemble/metrics';
import type { MarketLevel } from '../../schema/home-contract';
import { BODY_TYPES, type BodyType, type Colour, type Drive, type Fuel, type Paint, type RegionId, type Transmission } from './vocabulary';

export type { MarketLevel };

// What a vehicle valuation is and what it stands on, on every door: schema/vehicle-value.ts.
import type { VehicleBasis, VehicleValue } from '../../schema/vehicle-value';
export { VEHICLE_BASES, type VehicleBasis, type VehicleValue } from '../../schema/vehicle-value';

/**
 * The canonical request: catalogue names and codes, never free text. Only make, model and year
 * are required; every other field improves the estimate when given and is null when not.
 */
export interface VehicleRequest {
  /** Canonical make (resolveMake(make) === make). */
  make: string;
  /**
   * Canonical model of that make (resolveModel(make, model) === model), or null for a model the
   * catalogue does not list (valued on the make's or the segment's level, see VehicleBasis).
   */
  model: string | null;
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
  /** Paint condition: kept and reported; no listing file records it, so it does not move the estimate. */
  paint: Paint | null;
  colour: Colour | null;
  /** 'YYYY-MM-DD': the date the value is for (default: the day it is made). */
  valuationDate: string | null;
  askingPrice: number | null;
}

/** One point of the vehicle market index: the asking-price level of a period relative to the newest. */
export interface VehicleMarketIndexPoint {
  period: string;
  /** Ratio to the newest period's level (1 there), with its 95% band. */
  index: number;
  low: number;
  high: number;
  /** Listings of the segment in that period. */
  listings: number;
}

/** The market index of one segment of makes (the `vehicleMarketIndex` query). */
export interface VehicleMarketIndexSeries {
  /** 'domestic' (Chevrolet, Daewoo, Ravon), 'russian' (Lada, GAZ, UAZ, Moskvich …) or 'foreign' (every other make). */
  segment: string;
  /** The makes the segment holds in the training data. */
  makes: string[];
  points: VehicleMarketIndexPoint[];
  /** Measured move of the level per year between consecutive snapshots (log change / years). */
  movesPerYear: { from: string; to: string; change: number }[];
}

/** The make and model catalogue as the training data saw it (the `vehicleCatalog` query). */
export interface VehicleCatalogEntry {
  make: string;
  models: {
    model: string;
    listings: number;
    years: { from: number; to: number } | null;
    /** How a request for it is valued; null when it cannot be (INSUFFICIENT_MARKET_DATA). */
    basis: VehicleBasis | null;
    /** Accuracy class of its forward-in-time evaluation (low where it has too few rows to tell). */
    accuracyClass: AccuracyClass;
  }[];
  listings: number;
  /** How a model of this make that is not listed, or too thin to stand alone, is valued; null = refused. */
  otherModels: VehicleBasis | null;
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
/**
 * Too little market data for the make and model, and no body type to value it on its segment's
 * level: the message says what would value it, so that a client (or an agent) can retry with it.
 */
export class InsufficientMarketDataError extends Error {
  constructor(readonly make: string, readonly model: string | null, readonly listings: number) {
    super(`not enough market data for ${make} ${model ?? '(model not in the catalogue)'}: ${listings} listings in the training data. Send body_type (${BODY_TYPES.join(', ')}) and it is valued on its segment's level, with a wider interval and a warning`);
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
  /** The market index per segment, oldest point first. */
  marketIndex(): VehicleMarketIndexSeries[];
  /** The typical cars of the version in service (a car's "what drives the estimate" compares with them); null for a version before 2026.11.3. */
  typicalVehicles(): TypicalVehicles | null;
}

/** A typical car: the medians and most usual values of some training listings. */
export type TypicalVehicle = Pick<VehicleRequest, 'year' | 'mileageKm' | 'engineLitres' | 'fuel' | 'transmission' | 'body' | 'drive' | 'trim' | 'defects' | 'region'> & {
  /** Training listings it is drawn from. */
  listings: number;
};

/** What the vehicle manifest ships (from version 2026.11.3): a typical car per make and model, per make, and of the whole market. */
export interface TypicalVehicles {
  /** By vehicleGroup (badge family make + model), for the groups with at least `minListings` listings. */
  group: Record<string, TypicalVehicle>;
  /** By badge family, for the makes with at least `minListings` listings. */
  make: Record<string, TypicalVehicle>;
  overall: TypicalVehicle;
  minListings: number;
}

/** Which typical car a request is compared with: its make and model's, its make's, or the market's. */
export type TypicalVehicleLevel = 'model' | 'make' | 'market';
