/**
 * What a home valuation is, on every door: the flat or house model's answer in USD (models/residential
 * and models/house make it), where it is anchored, and what was valued. Pure types; the REST form is
 * ./home-rest.ts, the GraphQL one subgraphs/residential/types.ts.
 */
import type { MemberEstimate, StatedConfidence } from './ensemble-contract';
import type { MarketLevel, MarketMixture } from './home-contract';

export const PROPERTY_TYPES = ['apartment', 'house'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export interface ResolvedLocation {
  district: string;
  mahalla: string | null;
  mahallaId: string | null;
  /** Where the valuation is anchored: 'mahalla' when the mahalla was recognised, else 'district'. */
  matched: 'mahalla' | 'district';
}

export interface HomeValue {
  /** 'apartment' (the flat model) or 'house' (the house model, models/house). */
  propertyType: PropertyType;
  estimate: number;
  currency: 'USD';
  pricePerM2: number;
  /** Houses: the plot alone, per sotka: the land's part of the estimate (estimate × landShare ÷ plot), not the whole house's; null for a flat or a house valued without its plot. Not comparable with anomaly.districtMedianPricePerSotka (whole houses per sotka of plot). */
  landPricePerSotka: number | null;
  interval: { low: number; high: number; coverage: number };
  /** The forecast standard deviation of the log error its interval implies (models/ensemble/fsd.ts). */
  fsd: number;
  confidence: StatedConfidence;
  models: MemberEstimate[];
  anomaly: {
    districtMedianPricePerM2: number;
    deviationFromDistrictMedian: number;
    mahallaMedianPricePerM2: number | null;
    deviationFromMahallaMedian: number | null;
    /** Houses: the district's median asking price of a whole house (house and plot) per sotka of its plot, among the training houses; null for a flat. */
    districtMedianPricePerSotka: number | null;
    /** Houses: this house's estimate per sotka of its plot relative to districtMedianPricePerSotka (like for like), e.g. 0.05 = 5% above; null for a flat, without a plot, or without the district median. */
    deviationFromDistrictMedianPerSotka: number | null;
    /** Houses: the share of the estimate the plot accounts for (the estimate's elasticity to the plot area, 0–1); null for a flat or without a plot. */
    landShare: number | null;
    modelSpread: number;
    flags: string[];
  };
  /** The market level the estimate is at: the valuation date, how old the data behind it is, and what that did to the interval. */
  marketLevel: MarketLevel;
  /** A flat sent without its market (new build or resale): how it was valued as each (./market-mixture.ts); null otherwise. */
  marketMixture: MarketMixture | null;
  modelVersion: string;
}
