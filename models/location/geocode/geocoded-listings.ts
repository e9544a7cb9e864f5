/**
 * The geocoded 2021 olx listings (data/listings/olx_apartments_2021_geocoded.csv): address,
 * district and a point. Its geocoder fell back to one point for many unrelated places; ingestion
 * already knows those points (models/ingest/geocode.ts), and its verdict is reused here. It also
 * matched some names to a namesake across town ("Дамарик" in Yakkasaray placed 10 km away, in
 * Almazar): a point far outside the district its listing names is not trusted either.
 */
// The ingestion modules themselves, not its index: ingestion geocodes listings with this geocoder.
import { loadCsv } from '../../ingest/csv';
import { Olx2021Geocodes } from '../../ingest/geocode';
import { OLX_2021_GEOCODED_PATH } from '../../ingest/sources';
import { matchDistrict, normaliseText, type DistrictId } from '../../vocabulary';
import type { DistrictShape } from '../districts';
import { distanceOutsideM } from './district-polygons';
import type { LatLon } from './geo';

/**
 * Points up to this far outside the named district are kept: district labels and OSM boundaries
 * disagree near the edges (half of the points outside their district are within 520 m of it), and
 * some quarters are listed under a neighbour too (Chilanzar-13, in Uchtepa, also under Chilanzar).
 */
const MAX_OUTSIDE_DISTRICT_M = 1000;

export interface GeocodedListing {
  address: string;
  /** normaliseText of the address: the unit of the hold-out split. */
  addressKey: string;
  district: DistrictId;
  /** Null when the point is a fall-back shared by unrelated places, contradicted by a copy, or far outside the district. */
  point: LatLon | null;
}

export interface GeocodedFile {
  path: string;
  sha256: string;
  listings: GeocodedListing[];
}

export function loadGeocodedListings(polygons: readonly DistrictShape[]): GeocodedFile {
  const { path, sha256, rows } = loadCsv(OLX_2021_GEOCODED_PATH);
  const geocodes = Olx2021Geocodes.fromRows(rows);
  const listings: GeocodedListing[] = [];
  for (const row of rows) {
    const district = matchDistrict(row['district'])?.id;
    if (district === undefined) continue;
    // The ingestion looks rows up by the 2021 file's "location" column; here the address is that text.
    const geocode = geocodes.lookup({ ...row, location: row['address'] });
    const joined = geocode.status === 'joined' ? { lat: geocode.lat, lon: geocode.lon } : null;
    const polygon = polygons.find((p) => p.id === district)!;
    const point = joined !== null && distanceOutsideM(polygon, joined) <= MAX_OUTSIDE_DISTRICT_M ? joined : null;
    listings.push({ address: row['address'], addressKey: normaliseText(row['address']), district, point });
  }
  return { path: `data/${path}`, sha256, listings };
}
