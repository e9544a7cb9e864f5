/**
 * Joining coordinates from olx_apartments_2021_geocoded.csv onto the 2021 listings.
 *
 * The geocoded copy rewrote the district ("Yunusobod район") and the number format ("57.0"), so rows
 * are matched on the place text after the district plus rooms, size, floor, floors and price.
 * Its geocoder fell back to one point for many unrelated places (51 different streets share one
 * point, a district centre serves 40): such points, and points outside the city, are withheld.
 */
import type { RawRow } from './csv';
import { parseNumber } from './parse';

export type GeocodeLookup =
  | { status: 'joined'; lat: number; lon: number }
  | { status: 'withheld' } // a geocode exists but is not a location for this listing
  | { status: 'missing' };

/** Spelling variants of one place share a point (up to 9 seen); 10+ different places sharing one is a fall-back. */
const FALLBACK_POINT_MIN_PLACES = 10;

/** The bounding box of the 12 district polygons in data/geo/tashkent_districts.geojson, rounded outwards. */
const CITY_BOUNDS = { minLat: 41.16, maxLat: 41.4, minLon: 69.12, maxLon: 69.48 };

/** The place text after "город Ташкент, <district> район, ". */
function placeText(address: string): string {
  return address.split(',').slice(2).join(',').trim().toLowerCase();
}

function numberKey(text: string): string {
  return String(parseNumber(text) ?? text.trim());
}

function listingKey(address: string, row: RawRow): string {
  return [placeText(address), row['rooms'], numberKey(row['size']), row['level'], row['max_levels'], numberKey(row['price'])].join('|');
}

function insideCity(lat: number, lon: number): boolean {
  return lat >= CITY_BOUNDS.minLat && lat <= CITY_BOUNDS.maxLat && lon >= CITY_BOUNDS.minLon && lon <= CITY_BOUNDS.maxLon;
}

export class Olx2021Geocodes {
  private constructor(private readonly byListing: ReadonlyMap<string, GeocodeLookup>) {}

  static fromRows(geocodedRows: readonly RawRow[]): Olx2021Geocodes {
    const placesAtPoint = new Map<string, Set<string>>();
    for (const row of geocodedRows) {
      const point = `${row['lat']},${row['lng']}`;
      const places = placesAtPoint.get(point) ?? new Set<string>();
      places.add(placeText(row['address']));
      placesAtPoint.set(point, places);
    }
    const byListing = new Map<string, GeocodeLookup>();
    for (const row of geocodedRows) {
      const lat = parseNumber(row['lat']);
      const lon = parseNumber(row['lng']);
      const sharedByPlaces = placesAtPoint.get(`${row['lat']},${row['lng']}`)?.size ?? 0;
      const lookup: GeocodeLookup =
        lat !== null && lon !== null && insideCity(lat, lon) && sharedByPlaces < FALLBACK_POINT_MIN_PLACES
          ? { status: 'joined', lat, lon }
          : { status: 'withheld' };
      const key = listingKey(row['address'], row);
      const earlier = byListing.get(key);
      // The same listing geocoded to two different points: neither can be trusted.
      const agrees = earlier === undefined || JSON.stringify(earlier) === JSON.stringify(lookup);
      byListing.set(key, agrees ? lookup : { status: 'withheld' });
    }
    return new Olx2021Geocodes(byListing);
  }

  lookup(row2021: RawRow): GeocodeLookup {
    return this.byListing.get(listingKey(row2021['location'], row2021)) ?? { status: 'missing' };
  }
}
