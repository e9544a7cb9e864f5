/**
 * What the residential runtime returns for one request. Pure types: the subgraph maps them
 * to GraphQL, the valuate CLI writes them as JSON lines.
 */
import type { ConfidenceLevel } from '../ensemble/confidence';
import type { AccuracyMetrics } from '../ensemble/metrics';
import type { MarketReference } from './market';
import type { HomeRequest } from './request';
import type { DistrictId, Market } from '../vocabulary/codes';

export type { ConfidenceLevel } from '../ensemble/confidence';
export type { AccuracyMetrics } from '../ensemble/metrics';

export interface HomeValue {
  estimate: number;
  currency: 'USD';
  pricePerM2: number;
  interval: { low: number; high: number; coverage: number };
  confidence: { level: ConfidenceLevel; score: number };
  models: { name: string; estimate: number }[];
  anomaly: {
    districtMedianPricePerM2: number;
    deviationFromDistrictMedian: number;
    mahallaMedianPricePerM2: number | null;
    deviationFromMahallaMedian: number | null;
    modelSpread: number;
    flags: string[];
  };
  /** The market level the estimate is at: the valuation date, how old the data behind it is, and what that did to the interval. */
  marketLevel: MarketLevel;
  modelVersion: string;
}

/** Where the market index put this valuation (see models/residential/market-index.ts). */
export interface MarketLevel {
  /** 'YYYY-MM-DD': the request's valuation_date, or today. */
  valuationDate: string;
  /** 'YYYY-MM': the newest listing month the model was trained on. */
  newestDataPeriod: string;
  /** Whole months from the newest data to the valuation date (0 within the data). */
  dataAgeMonths: number;
  /** The index's price level at the valuation date relative to the newest data (1 = the same; 1.04 = 4% above). */
  indexRatio: number;
  /** How much wider (relative, 0.05 = 5%) the interval is for the months past the newest data. */
  intervalWidening: number;
}

/** The published market index of one district and segment (the `marketIndex` query). */
export interface MarketIndexSeries {
  district: string;
  zone: string;
  market: Market | null;
  method: string;
  newestPeriod: string;
  driftPerMonth: number;
  volatilityPerMonth: number;
  /** One point per listing month with data, oldest first: level relative to the newest month (1.0), with a 95% band. */
  points: { period: string; index: number; low: number; high: number; rows: number }[];
}

/** The running model set: what the subgraph needs, whatever version is loaded. */
export interface ResidentialRuntime {
  readonly version: string;
  /** Values many requests with one ONNX call per model. Output order = input order. */
  value(requests: readonly HomeRequest[]): Promise<HomeValue[]>;
  summary(): ResidentialModelSummary;
  /** The market index behind the version, for one district (code) and segment (null = the market's mix). */
  marketIndex(district: DistrictId, market: Market | null): MarketIndexSeries;
}


/** What the service says about the model version it runs (the `residentialModel` query). */
export interface ResidentialModelSummary {
  version: string;
  trainedAt: string;
  dataSnapshot: string;
  evaluation: string;
  metrics: AccuracyMetrics;
  districts: { district: string; metrics: AccuracyMetrics; accuracyClass: string }[];
  featureImportance: { feature: string; importance: number }[];
  members: { name: string; algorithm: string; weight: number }[];
  intervalCoverage: number;
  /** The version's market reference figures (training listings by district code and by mahalla id), as its manifest keeps them. */
  market: MarketReference;
}
