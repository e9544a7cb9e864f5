/**
 * The REST form of the home valuation (docs/ARCHITECTURE.md, "The REST contract"): from a legacy body to the
 * GraphQL input, and from a valuation to the fixed snake_case reply. Used by the gateway's REST
 * routes and by `npm run valuate`, so a file of API requests is read exactly as the API reads them.
 */
import type { Currency, ExchangeRate } from './currency-contract';
import type { HomeValue, ResolvedLocation } from './home-value';
import { HOME_FIELDS, type MarketLevel, type MarketMixture, type MarketMixtureComponent } from './home-contract';
import { compileRestBodyParser, type RestBodyParser } from './rest-validation';

/**
 * A valuation as the graph returns it (HomeValuation): the runtime's value plus where and when, in
 * the currency asked for (exchangeRate: the rate it was converted at; null or absent in USD).
 */
export type HomeValuationView = Omit<HomeValue, 'currency'> & {
  currency: Currency;
  exchangeRate?: ExchangeRate | null;
  location: ResolvedLocation;
  valuedAt: string;
  warnings: string[];
  marketAdjustment?: MarketAdjustmentView | null;
  valuationId?: string | null;
};

/** How an organisation's own observed prices moved a valuation (issue 18; subgraphs/common/observation-recording.ts). */
export interface MarketAdjustmentView {
  baseEstimate: number;
  baseLow: number;
  baseHigh: number;
  factor: number;
  group: string | null;
  level: string | null;
  observations: number;
  effectiveObservations: number;
  shrinkage: number;
  intervalMethod: string;
  intervalGroup: string | null;
  intervalObservations: number;
  asOf: string;
  /** Absent in records made before issue 31. */
  observationsUsed?: number;
  effectiveObservationsUsed?: number;
}

/** Checks a REST body (personal data, types, ranges) and maps it to the GraphQL input; throws ApiError. */
export const parseHomeRestBody: RestBodyParser = compileRestBodyParser(HOME_FIELDS);

/** The fixed REST reply for one valuation. */
export function toHomeRestResponse(v: HomeValuationView, restWarnings: readonly string[] = []) {
  return {
    property_type: v.propertyType,
    estimate: v.estimate,
    currency: v.currency,
    ...exchangeRateRest(v.exchangeRate),
    price_per_m2: v.pricePerM2,
    land_price_per_sotka: v.landPricePerSotka,
    interval: v.interval,
    fsd: v.fsd ?? null,
    confidence: v.confidence,
    models: v.models,
    anomaly: {
      district_median_price_per_m2: v.anomaly.districtMedianPricePerM2,
      deviation_from_district_median: v.anomaly.deviationFromDistrictMedian,
      mahalla_median_price_per_m2: v.anomaly.mahallaMedianPricePerM2,
      deviation_from_mahalla_median: v.anomaly.deviationFromMahallaMedian,
      district_median_price_per_sotka: v.anomaly.districtMedianPricePerSotka,
      deviation_from_district_median_per_sotka: v.anomaly.deviationFromDistrictMedianPerSotka ?? null,
      land_share: v.anomaly.landShare,
      model_spread: v.anomaly.modelSpread,
      flags: v.anomaly.flags,
    },
    location: { district: v.location.district, mahalla: v.location.mahalla, mahalla_id: v.location.mahallaId, matched: v.location.matched },
    market_level: toMarketLevelRest(v.marketLevel),
    market_adjustment: toMarketAdjustmentRest(v.marketAdjustment),
    market_mixture: toMarketMixtureRest(v.marketMixture),
    valuation_id: v.valuationId ?? null,
    model_version: v.modelVersion,
    valued_at: v.valuedAt,
    warnings: [...restWarnings, ...v.warnings],
  };
}

/** The GraphQL selection of a valuation's exchangeRate, as every door asks for it (REST, MCP, batch). */
export const EXCHANGE_RATE_SELECTION = 'exchangeRate { usdToUzs date source }';

/** The reply's exchange_rate (homes and vehicles alike): only in a reply in UZS, so that one in USD is what it was before currencies. */
export function exchangeRateRest(rate: ExchangeRate | null | undefined): { exchange_rate?: { usd_to_uzs: number; date: string; source: string } } {
  return rate ? { exchange_rate: { usd_to_uzs: rate.usdToUzs, date: rate.date, source: rate.source } } : {};
}

/** The GraphQL selection of a valuation's marketAdjustment, as every door asks for it (REST, batch). */
export const MARKET_ADJUSTMENT_SELECTION = 'marketAdjustment { baseEstimate baseLow baseHigh factor group level observations effectiveObservations shrinkage intervalMethod intervalGroup intervalObservations asOf observationsUsed effectiveObservationsUsed }';

/** The reply's market_adjustment (homes and vehicles alike): null while the organisation has recorded no observations of the kind. */
export function toMarketAdjustmentRest(a: MarketAdjustmentView | null | undefined) {
  if (!a) return null;
  return {
    base_estimate: a.baseEstimate,
    base_interval: { low: a.baseLow, high: a.baseHigh },
    factor: a.factor,
    group: a.group,
    level: a.level,
    observations: a.observations,
    effective_observations: a.effectiveObservations,
    shrinkage: a.shrinkage,
    interval_method: a.intervalMethod,
    interval_group: a.intervalGroup,
    interval_observations: a.intervalObservations,
    as_of: a.asOf,
    observations_used: a.observationsUsed ?? null,
    effective_observations_used: a.effectiveObservationsUsed ?? null,
  };
}

/** The GraphQL selection of a valuation's marketMixture, as every door asks for it (REST, MCP, batch). */
export const MARKET_MIXTURE_SELECTION = 'marketMixture { newBuildProbability newBuild { estimate low high } resale { estimate low high } }';

/**
 * The reply's market_mixture (homes): a flat sent without its market, valued as a new build and as
 * resale. null when the market was given, for houses, and in records made before it was answered.
 */
export function toMarketMixtureRest(m: MarketMixture | null | undefined) {
  if (!m) return null;
  const value = ({ estimate, low, high }: MarketMixtureComponent) => ({ estimate, low, high });
  return { new_build_probability: m.newBuildProbability, new_build: value(m.newBuild), resale: value(m.resale) };
}

/** The reply's market_level (homes and vehicles alike). */
export function toMarketLevelRest(m: MarketLevel) {
  return {
    valuation_date: m.valuationDate,
    newest_data_period: m.newestDataPeriod,
    data_age_months: m.dataAgeMonths,
    data_age_days: m.dataAgeDays,
    index_ratio: m.indexRatio,
    interval_widening: m.intervalWidening,
  };
}
