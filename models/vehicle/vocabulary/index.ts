/**
 * Vehicle vocabulary: the public surface ingestion and the serving side share. Make and model
 * names, fuel, gearbox, body, drive, colour and region in English, Uzbek (Latin and Cyrillic) and
 * Russian → canonical names and codes.
 */
export * from '../../../schema/vehicle-codes';
export { MAKES, BADGE_FAMILIES, type MakeEntry, type ModelSpelling } from './catalogue';
export {
  resolveMake, resolveModel, resolveVehicle, isResolved, vehicleMakes, modelsOf, badgeFamily,
  type Resolved, type Suggestions, type VehicleName,
} from './resolve';
export { normaliseFuel, normaliseTransmission, normaliseBody, normaliseDrive, normaliseColour } from './attributes';
export { normaliseRegion } from './regions';
export { productionYears, type ProductionYears } from './production-years';
