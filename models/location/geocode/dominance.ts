/**
 * When one name fits several gazetteer places, the most listed one stands for all of them if the
 * others are the same place (close to it) or negligible next to it; otherwise the name is ambiguous.
 */
import { distanceM, type LatLon } from './geo';

/** Places this close to the most listed one are the same place ("Паркент" on both sides of a district boundary). */
const SAME_PLACE_M = 1500;
/** A place with this many times the listings of another outweighs it wherever it is (one stray listing in another district). */
const DOMINANT_LISTINGS_RATIO = 5;

export function dominantOf<T extends LatLon & { listings: number }>(places: readonly T[]): T | null {
  if (places.length === 0) return null;
  const leader = places.reduce((best, p) => (p.listings > best.listings ? p : best));
  const outweighed = (p: T) => p === leader || distanceM(p, leader) <= SAME_PLACE_M || p.listings * DOMINANT_LISTINGS_RATIO <= leader.listings;
  return places.every(outweighed) ? leader : null;
}
