/**
 * Vehicle listing ingestion: the avtoelon.uz scrapes of 2020 and 2022 (all makes) and 2023 (Chevrolet)
 * turned into one clean, de-duplicated set of canonical records, with a report of every row dropped and why.
 */
export { ingestVehicles, type VehicleIngestOptions, type VehicleIngestResult } from './pipeline';
export { vehicleDataSnapshot } from './snapshot';
export type { VehicleListingSource, VehicleRecord, VehicleSource } from './record';
export { LISTING_FIELDS } from './record';
export { VEHICLE_SOURCE_FILES, type VehicleSourceFile } from './sources';
export type { VehicleIngestReport, VehicleSourceReport, ModelCount } from './report';
export { FENCE_YEAR_WINDOWS, type VehiclePriceFence } from './outliers';
export { VEHICLE_DROP_REASONS, VEHICLE_CORRECTIONS, type VehicleDropReason, type VehicleCorrection } from './reasons';
export { formatVehicleReport, WELL_COVERED_MODEL } from './report-table';
// The cell parsers, public for the serving side's free-text inputs ("66 000 km", "1.5 (Benzin)").
export { parseMileage, parseEngineCell, splitGluedFuel, isPlaceholderMileage, type EngineCell } from './parse';
export {
  ingestVehicleObservations, observationRecord, OBSERVATION_DROP_REASONS, OBSERVATION_SOURCE,
  type ObservationCorrection, type ObservationDropReason, type VehicleObservationIngest, type VehicleObservationReport,
} from './observations';
