/**
 * What the uybor and olx adapters share once a listing's fields are read: where it is (the district
 * the site names, else the district polygon under its pin), and the row-level cleaning every listing
 * file goes through (../clean.ts), so a collected record is held to the same limits as a file's row.
 */
import { reverseDistrict } from '../../location/geocode';
import type { DistrictId } from '../../vocabulary';
import { cleanRecord } from '../clean';
import { isDrop } from '../adapters/adapter';
import type { Normaliser } from '../normaliser';
import type { ListingRecord } from '../record';

export interface HomeAdaptContext {
  normaliser: Normaliser;
  /** 'YYYY-MM-DD' the page was fetched: the day of the asking price and of its exchange rate. */
  seenOn: string;
}

/** The district named by the site, else the one under the coordinates; null outside the city's districts. */
export function districtOf(normaliser: Normaliser, names: readonly (string | null | undefined)[], lat: number | null, lon: number | null): DistrictId | null {
  for (const name of names) {
    if (!name) continue;
    const district = normaliser.district(name);
    if (district !== null) return district;
  }
  return lat !== null && lon !== null ? reverseDistrict(lat, lon) : null;
}

/** The record after the ingestion's row cleaning, or the drop reason. */
export function cleanedHome(record: ListingRecord): ListingRecord | { skip: string } {
  const cleaned = cleanRecord(record);
  return isDrop(cleaned) ? { skip: cleaned.drop } : cleaned.record;
}

/** A number from a JSON field that may be a number, a numeric string or absent. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value.replace(/\s/g, '').replace(',', '.'));
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** Rooms as the sites write them: "2", "6+" (the top bucket, counted as 6), "studio" (one room). */
export function roomsOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (text === 'studio' || text === 'студия' || text === 'studiya') return 1;
  const match = /^(\d+)\+?$/.exec(text);
  return match ? Number(match[1]) : null;
}

export function dayOf(iso: unknown): string | null {
  return typeof iso === 'string' && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : null;
}
