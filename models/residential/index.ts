/**
 * The residential library's public surface: what the service values flats and houses with (the
 * hot-swapped runtime, request normalisation, the valuation types). Training (./train.ts,
 * tools/models/train-cli.ts) is never reachable from here: serving loads no trainer.
 */
export { ResidentialModelService } from './serving';
export { isHouseRequest } from './request';
export { normaliseHomeInput, resolveDistrict, resolveMarket, type HomeRequest, type ResolvedLocation } from './request';
export { valueHomes } from './value-homes';
export { collectedWeeklySeries, COLLECTED_WEEKLY_RULE } from './collected-weekly';
export type { CollectedWeeklyPoint, CollectedWeeklySeries, HomeValue, MarketIndexSeries, MarketLevel, MarketMixture, MarketMixtureComponent, ResidentialModelSummary, ResidentialRuntime } from './valuation';
export { nearestComparables, comparablesTable, COMPARABLE_WEIGHTS, DEFAULT_COMPARABLES, type ComparableListing, type ComparableRequest } from './comparables';
export { attributionVariants, contributions, typicalFlat, middleFloor, ATTRIBUTION_GROUPS, type AttributionGroup, type Contribution, type TypicalFlat } from './attribution';
export { houseAttributionVariants, houseContributions, HOUSE_ATTRIBUTION_GROUPS, type HouseAttributionGroup, type TypicalHouse } from '../house/attribution';
