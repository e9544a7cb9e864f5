/**
 * What the house runtime takes and returns. Pure types: the residential service routes a house
 * request here (models/residential/serving.ts) and answers with the flat's reply shape.
 */
import type { AccuracyMetrics } from '../ensemble/metrics';
import type { HomeValue } from '../../schema/home-value';
import type { HouseFeatureSource } from './features';

/**
 * A private house with its plot, as the request normaliser (models/residential/request.ts) makes it:
 * the features' source minus the listing period, with where it stands and what the client asks.
 */
export interface HouseRequest extends Omit<HouseFeatureSource, 'period'> {
  propertyType: 'house';
  mahallaId: string | null;
  lat: number | null;
  lon: number | null;
  askingPrice: number | null;
  /** 'YYYY-MM-DD'; null = today (the runtime's clock). */
  valuationDate: string | null;
}

/** A house valuation: the flat's reply shape with propertyType 'house' and the land figures filled. */
export type HouseValue = HomeValue & { propertyType: 'house' };

/** Too few house listings where the house stands to value it honestly: the API answers 422 INSUFFICIENT_MARKET_DATA. */
export class InsufficientHouseDataError extends Error {
  constructor(readonly district: string, readonly listings: number, readonly minListings: number, message?: string) {
    super(message ?? `Too few house listings in ${district} to value a house honestly (${listings} in the training data; at least ${minListings} are needed)`);
    this.name = 'InsufficientHouseDataError';
  }

  /** No house model is promoted (`npm run train -- --kind house` makes one). */
  static noModel(district: string): InsufficientHouseDataError {
    return new InsufficientHouseDataError(district, 0, 0, 'No house model is in service, so no house can be valued');
  }
}

/** What the service says about the house model in service (`residentialModel { houses }`). */
export interface HouseModelSummary {
  version: string;
  trainedAt: string;
  dataSnapshot: string;
  /** How the headline figures were measured, in one sentence. */
  evaluation: string;
  metrics: AccuracyMetrics;
  /** Leave one source out: each house source valued by a model that never saw it. */
  leaveOneSourceOut: AccuracyMetrics;
  districts: { district: string; listings: number; metrics: AccuracyMetrics | null; accuracyClass: string }[];
  members: { name: string; algorithm: string; weight: number }[];
  intervalCoverage: number;
  /** A district with fewer training house listings than this is refused (INSUFFICIENT_MARKET_DATA). */
  minListings: number;
}

export interface HouseRuntime {
  readonly version: string;
  /** Values many houses with one ONNX call. Output order = input order. */
  value(requests: readonly HouseRequest[]): Promise<(HouseValue | InsufficientHouseDataError)[]>;
  summary(): HouseModelSummary;
}
