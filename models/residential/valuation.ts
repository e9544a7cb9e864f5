/**
 * What the residential runtime returns for one request. Pure types: the subgraph maps them
 * to GraphQL, the valuate CLI writes them as JSON lines.
 */
import type { AccuracyMetrics } from '../ensemble/metrics';
import type { MarketReference } from './market';
import type { HomeRequest } from './request';
import type { ComparableListing } from './comparables';
import type { DistrictId, Market } from '../vocabulary/codes';
import type { HouseModelSummary, InsufficientHouseDataError } from '../house/valuation';
import type { TypicalHouse } from '../house/attribution';

export type { ConfidenceLevel } from '../ensemble/confidence';
export type { AccuracyMetrics } from '../ensemble/metrics';

// What a home valuation is, on every door: schema/home-value.ts.
import type { HomeValue } from '../../schema/home-value';
export type { HomeValue } from '../../schema/home-value';

// The reply's market level and mixture are contracts of every door: schema/home-contract.ts.
export type { MarketLevel, MarketMixture, MarketMixtureComponent } from '../../schema/home-contract';

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
  /**
   * Each city point's own offset from the market level every point read together implies (mostly
   * one site's scrape per month), as a ratio (0.03 = 3% above), with a 95% band; [] for versions
   * before 2026.11.24, which did not model them.
   */
  scrapeOffsets: { period: string; offset: number; low: number; high: number }[];
  /** Each source's own offset as leave one source out measured it (ratio). */
  sourceOffsets: { source: string; offset: number }[];
  /** The newest month's level read from every point (1.0 = the newest point), its 95% band, and whether serving holds it past the data; null before 2026.11.24. */
  newestReading: { index: number; low: number; high: number; applied: boolean; method: string } | null;
}

/** One week of collected flats (./collected-weekly.ts): city-wide, from the collector's export. */
export interface CollectedWeeklyPoint {
  /** The Monday starting the week and the Sunday ending it, 'YYYY-MM-DD' (UTC). */
  week: string;
  weekEnd: string;
  frequency: 'weekly';
  source: 'collected listings';
  /** Flats on the market that week (a linked cross-site duplicate counted once). */
  listings: number;
  /** Their median asking USD per m²; null without any. */
  medianUsdPerM2: number | null;
  /** Flats on the market in this week and the one before. */
  repeatListings: number;
  /** Median ratio of their asking prices, this week's end to the previous week's (1 = unchanged); null without any. */
  repeatChange: number | null;
}

/** The collected weekly points after the index's newest month, and whether valuations use them (they do not: ./collected-weekly.ts). */
export interface CollectedWeeklySeries {
  /** The export's day, 'YYYY-MM-DD'. */
  exportedOn: string;
  appliedToValuations: boolean;
  rule: string;
  points: CollectedWeeklyPoint[];
}

/** The running model set: what the subgraph needs, whatever version is loaded. */
export interface ResidentialRuntime {
  readonly version: string;
  /**
   * Values many requests (flats and houses) with one ONNX call per model kind. Output order = input
   * order; a house where the model has too little data gets the refusal in its place.
   */
  value(requests: readonly HomeRequest[]): Promise<(HomeValue | InsufficientHouseDataError)[]>;
  summary(): ResidentialModelSummary;
  /** The market index behind the version, for one district (code) and segment (null = the market's mix). */
  marketIndex(district: DistrictId, market: Market | null): MarketIndexSeries;
  /**
   * The `n` (default 5) training flats of a flat's district nearest to it in features and place,
   * best first, their prices brought to its valuation date (else today) by the market index of the
   * version in service (./comparables.ts). A house: [] (house comparables are not in scope).
   */
  comparables(request: HomeRequest, n?: number): ComparableListing[];
  /** The house model in service's typical house of a district (a house's "what drives the estimate" compares with it); null without one. */
  typicalHouse(district: DistrictId): TypicalHouse | null;
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
  /** The house model in service (models/house), or null when none is promoted (houses are then refused). */
  houses: HouseModelSummary | null;
}
