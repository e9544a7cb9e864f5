/**
 * Name normalisation: the public surface of the vocabulary module.
 * INTERFACE ONLY for now: implementation is being written in ./match.ts.
 */
export * from './codes';
import type { BuildingType, Bathroom, DistrictId, Renovation } from './codes';

export interface DistrictMatch {
  id: DistrictId;
  name: string; // English display name
  via: 'exact' | 'alias' | 'fuzzy';
}
export interface MahallaMatch {
  id: string; // stable slug, e.g. "chilanzar/qatortol"
  name: string; // display name (Uzbek Latin)
  district: DistrictId;
  via: 'exact' | 'alias' | 'fuzzy';
}

export declare function normaliseText(s: string): string;
export declare function matchDistrict(text: string): DistrictMatch | null;
export declare function suggestDistricts(text: string, limit?: number): string[];
export declare function matchMahalla(text: string, district?: DistrictId): MahallaMatch | null;
export declare function matchRenovation(text: string): Renovation | null;
export declare function matchBuildingType(text: string): BuildingType | null;
export declare function matchBathroom(text: string): Bathroom | null;
export declare function parseYesNo(value: string | boolean): boolean | null;
