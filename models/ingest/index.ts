/**
 * Listing ingestion for the residential models: eight files from uybor.uz and olx.uz (./sources.ts) turned into one
 * clean, de-duplicated set of canonical records, with a report of every row dropped and why.
 */
export { ingestListings, type IngestOptions, type IngestResult } from './pipeline';
export { dataSnapshot, type DataSnapshot } from './snapshot';
export type { ListingRecord, ListingSource } from './record';
export type { IngestReport, SourceReport, CrossSourceMergeCount } from './report';
export type { PriceFence, PriceEra } from './outliers';
export { DROP_REASONS, CORRECTIONS, type DropReason, type Correction } from './reasons';

// The raw 2021 olx geocodes, public for the geocoder's gazetteer (models/location/geocode): it reads
// the same file with the same CSV reader, and trusts a point only when ingestion's verdict on
// fall-back geocodes does.
export { loadCsv } from './csv';
export { OLX_2021_GEOCODED_PATH } from './sources';
// The listing files, for a training run that leaves some out (TrainOptions.excludeSources).
export { SOURCE_FILES } from './sources';
export { Olx2021Geocodes } from './geocode';
