/**
 * What the residential runtime returns for one request. Pure types: the subgraph maps them
 * to GraphQL, the valuate CLI writes them as JSON lines.
 */
import type { ConfidenceLevel } from '../ensemble/confidence';
import type { AccuracyMetrics } from '../ensemble/metrics';
import type { MarketReference } from './market';
import type { HomeRequest } from './request';

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
  modelVersion: string;
}

/** The running model set: what the subgraph needs, whatever version is loaded. */
export interface ResidentialRuntime {
  readonly version: string;
  /** Values many requests with one ONNX call per model. Output order = input order. */
  value(requests: readonly HomeRequest[]): Promise<HomeValue[]>;
  summary(): ResidentialModelSummary;
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
