/**
 * The vocabulary matchers ingestion uses, memoised: addresses and labels repeat thousands of times
 * across the files, and fuzzy name matching is the expensive part of a run.
 */
import {
  districtInAddress,
  mahallaInAddress,
  matchBathroom,
  matchBuildingType,
  matchDistrict,
  matchMahalla,
  matchRenovation,
  parseYesNo,
  type Bathroom,
  type BuildingType,
  type DistrictId,
  type Renovation,
} from '../vocabulary';
import { isBlank } from './parse';
import { remembered } from '../vocabulary/remembered';

export interface Normaliser {
  /** A district column ("Чиланзарский", "Yakkasarai district"); small typos tolerated. */
  district(text: string): DistrictId | null;
  /** The district part of a full address (no typo guessing inside addresses). */
  districtOfAddress(address: string): DistrictId | null;
  /** The mahalla a full address names, looked up among the district's mahallas only. */
  mahallaOfAddress(address: string, district: DistrictId): string | null;
  /** A mahalla mention ("Makhalinsky gathering of citizens of Qatartal") within the district. */
  mahalla(text: string, district: DistrictId): string | null;
  renovation(text: string): Renovation | null;
  buildingType(text: string): BuildingType | null;
  bathroom(text: string): Bathroom | null;
  yesNo(text: string): boolean | null;
}

/** A lookup remembered for one ingestion (every text it meets: unbounded; ../vocabulary/remembered.ts); a blank text is null without asking. */
export function memoise<T>(lookup: (text: string) => T | null): (text: string) => T | null {
  const known = remembered(lookup, Infinity);
  return (text) => (isBlank(text) ? null : known(text));
}

/** Memoises a lookup within a district under one string key. */
function memoiseInDistrict(lookup: (text: string, district: DistrictId) => string | null) {
  const cached = memoise((key: string) => {
    const separator = key.indexOf('\u0000');
    return lookup(key.slice(separator + 1), key.slice(0, separator) as DistrictId);
  });
  return (text: string, district: DistrictId) => (isBlank(text) ? null : cached(`${district}\u0000${text}`));
}

export function createNormaliser(): Normaliser {
  return {
    district: memoise((text) => matchDistrict(text)?.id ?? null),
    districtOfAddress: memoise((address) => districtInAddress(address)?.id ?? null),
    mahallaOfAddress: memoiseInDistrict((address, district) => {
      const named = mahallaInAddress(address);
      return named === null ? null : matchMahalla(named.mahalla, district)?.id ?? null;
    }),
    mahalla: memoiseInDistrict((text, district) => matchMahalla(text, district)?.id ?? null),
    renovation: memoise(matchRenovation),
    buildingType: memoise(matchBuildingType),
    bathroom: memoise(matchBathroom),
    yesNo: memoise(parseYesNo),
  };
}
