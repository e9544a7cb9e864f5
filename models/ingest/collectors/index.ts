/**
 * Collectors (issue 37): the pure half of collecting listings from uybor.uz, olx.uz and avtoelon.uz.
 * Each adapter turns one site answer into collected listings around the canonical records
 * (../record.ts, ../../vehicle/ingest/record.ts); ./site-collector.ts says how each site is paged.
 * The fetching, the life-cycle store and the scheduler are in platform/collect/.
 */
export * from './collected-listing';
export { totalAskingPrice, uzsPerUsdOn, M2_PER_SOTKA, type PriceBasis } from './asking-price';
export { adaptUyborListing, UYBOR_CATEGORY, type UyborAnswer, type UyborListing } from './uybor';
export { adaptOlxOffer, type OlxAnswer, type OlxOffer, type OlxParam } from './olx';
export { parseAvtoelonDetailPage, parseAvtoelonSearchPage, type AvtoelonDetail, type AvtoelonSearchPage, type VehicleAdaptContext } from './avtoelon';
export type { HomeAdaptContext } from './home-fields';
export * from './site-collector';
export * from './listing-life';
export { linkCrossSiteDuplicates } from './cross-site-links';
export { carTrainingRecordsOf, trainingRecordsOf } from './training-records';
export { weeklyMarketPoints, weekOf, type WeeklyMarketPoint } from './weekly-index';
export { adapterTools, createCollectors, type AdapterTools } from './create-collectors';
