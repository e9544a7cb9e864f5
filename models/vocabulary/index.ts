/**
 * Name normalisation: the public surface of the vocabulary module. Russian, Uzbek (Latin and
 * Cyrillic) and machine-translated English names and labels → the canonical codes of ./codes.
 */
export * from './codes';
export type { DistrictMatch, MahallaMatch } from './types';
export type { Mahalla } from './mahalla-index';
export { normaliseText } from '../../schema/translit';
export { matchDistrict, suggestDistricts, districtInAddress } from './districts';
export { matchMahalla, mahallasOf } from './mahallas';
export { mahallaInAddress } from './address';
export { matchRenovation, matchBuildingType, matchBathroom, parseYesNo } from './attributes';

// The building blocks the geocoder (models/location/geocode) reads addresses and names places with,
// public so that it reads them exactly as the matchers above do: spelling keys, typo distance, the
// words that only say "district", the mahalla named in one address part, and the names of places
// outside Tashkent.
export { spellingKey } from '../../schema/translit';
export { editDistance } from './fuzzy';
export { DISTRICT_WORDS } from './district-aliases';
export { mahallaNameIn } from './address';
export { OTHER_PLACE_NAMES } from './other-places';
