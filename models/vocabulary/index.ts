/**
 * Name normalisation: the public surface of the vocabulary module. Russian, Uzbek (Latin and
 * Cyrillic) and machine-translated English names and labels → the canonical codes of ./codes.
 */
export * from './codes';
export type { DistrictMatch, MahallaMatch } from './types';
export type { Mahalla } from './mahalla-index';
export { normaliseText } from './translit';
export { matchDistrict, suggestDistricts, districtInAddress } from './districts';
export { matchMahalla, mahallasOf } from './mahallas';
export { mahallaInAddress } from './address';
export { matchRenovation, matchBuildingType, matchBathroom, parseYesNo } from './attributes';
