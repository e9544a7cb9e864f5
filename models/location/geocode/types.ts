/** Shapes of the gazetteer artifact and of a geocoding answer. */
import type { DistrictId } from '../../vocabulary';
import type { SideStreet } from './place-words';

/** How precisely a point places an address, most precise first. */
export const PRECISIONS = ['street', 'quarter', 'mahalla', 'district'] as const;
export type Precision = (typeof PRECISIONS)[number];

/** A street (or a point-like place: a residential complex, a square) or a massif quarter, as the listings place it. */
export interface GazetteerPlace {
  district: DistrictId;
  kind: 'street' | 'quarter';
  key: string; // matching key of the name (./place-key.ts)
  side?: SideStreet;
  number?: string; // quarter designation or side-street number
  name: string; // the spelling the listings use most
  aliases?: string[]; // keys of other names ("Фидокор (Чехова)" → Чехова)
  lat: number;
  lon: number;
  listings: number; // listings behind the centre, outliers excluded
  spreadM: number; // median distance of those listings to the centre
}

/**
 * A mahalla of the vocabulary's gazetteer. Its centre comes from geocoded listings naming it, else
 * from the gazetteer places that uybor addresses name with it ('co-named'); null when neither exists.
 */
export interface GazetteerMahalla {
  id: string;
  source: 'geocoded' | 'co-named' | null;
  lat: number | null;
  lon: number | null;
  listings: number; // listings, or co-named addresses, behind the centre
  spreadM: number | null;
}

export interface GazetteerDistrict {
  id: DistrictId;
  names: string[]; // English, Russian, Uzbek, as the polygon file writes them
  lat: number; // polygon centroid, or the nearest point inside when the centroid falls outside
  lon: number;
  listings: number; // geocoded listings in the district
  spreadM: number; // their median distance to the centroid
}

export interface GazetteerFile {
  generated: string;
  sources: { file: string; sha256: string }[];
  districts: GazetteerDistrict[];
  places: GazetteerPlace[];
  mahallas: GazetteerMahalla[];
}

export interface MatchedElements {
  district: DistrictId;
  quarter?: string;
  street?: string;
  mahalla?: string;
}

/** Another element the address could mean, or one it also names, less precise than the answer. */
export interface GeocodeCandidate {
  precision: Precision;
  name: string;
  district: DistrictId;
  lat: number;
  lon: number;
  confidence: number;
}

export interface GeocodeResult {
  lat: number;
  lon: number;
  precision: Precision;
  /** 0–1: the element's listing count and spread, and how exactly the address matched it. */
  confidence: number;
  matched: MatchedElements;
  candidates?: GeocodeCandidate[];
}
