/**
 * The vehicle library's public surface: what the service values cars with (the hot-swapped
 * runtime, request normalisation and vocabulary, the valuation types). Training (./train.ts) is
 * never reachable from here.
 */
export { VEHICLE_DIR } from './manifest';
export { VehicleModelService } from './serving';
export { normaliseVehicleInput, valueVehicles } from './request';
export {
  typicalVehicleOf, vehicleAttributionVariants, vehicleContributions, VEHICLE_ATTRIBUTION_GROUPS,
  type TypicalVehicle, type TypicalVehicleLevel, type TypicalVehicles, type VehicleAttributionGroup, type VehicleContribution,
} from './attribution';
export { VEHICLE_BASES, type VehicleCatalogEntry, type VehicleMarketIndexSeries, type VehicleModelSummary, type VehicleRuntime, type VehicleValue } from './valuation';
export { BODY_TYPES, COLOURS, DRIVES, FUELS, PAINTS, REGION_IDS, TRANSMISSIONS, type BodyType, type Colour, type Drive, type Fuel, type Paint, type RegionId, type Transmission } from './vocabulary';
