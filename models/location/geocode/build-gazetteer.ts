/**
 * Generates the geocoding gazetteer, models/artifacts/location/gazetteer.json, from the geocoded
 * 2021 olx listings, the mahalla gazetteer of models/vocabulary and the district polygons.
 * Run after the data snapshot changes: tsc, then `node <outDir>/tools/models/location/geocode/build-gazetteer.js`
 * (the command that writes it).
 *
 * 1. Listings whose point is a geocoder fall-back (models/ingest decides which) or lies far outside
 *    the listing's district are left out (./geocoded-listings.ts).
 * 2. Each remaining listing's point counts for every place and mahalla its address names
 *    (./place-evidence.ts); spellings of one place share a key (./place-key.ts).
 * 3. A place's centre is the median of its points after dropping those far from the group
 *    (a listing the geocoder put in the wrong quarter); its spread is their median distance to it.
 * 4. A mahalla's centre is that of the geocoded listings naming it; failing those, that of the
 *    places uybor addresses name with it (./co-named.ts); failing both, it has none. It lies in its
 *    own district's polygon, where the location index scores it: the vocabulary lists every mahalla
 *    under one district, and an answer naming it is in that district. A centre outside (12 of 145
 *    in the 2021 listings, 1 m to 634 m out: the listings' geocoder and the OSM boundary disagree)
 *    is moved just inside the nearest stretch of its district's boundary, and its spread measured
 *    from there, so the confidence says how far its listings are.
 * 5. Districts get their polygon's centroid (moved inside where the polygon bends round it).
 * 6. Every place centre lies in a district polygon: one falling in a gap between polygons is moved
 *    to the nearest point of its district, so that the location index can score any answer. Streets
 *    and quarters may lie in a neighbour's polygon (Chilanzar's quarters from 11 on are in Uchtepa).
 */
import { DISTRICT_IDS, mahallasOf, type DistrictId } from '../../vocabulary';
import { districtAt, loadDistrictBoundaries, type DistrictBoundary } from '../districts';
import { coNamedPoints, loadCoNamedAddresses } from './co-named';
import { centreOf, movedInside, nearestPointInside } from './district-polygons';
import { gazetteerSources } from './gazetteer-file';
import { distanceM, median, robustCentre, roundCoordinate, type LatLon } from './geo';
import { loadGeocodedListings, type GeocodedListing } from './geocoded-listings';
import { OUTLIER_DISTANCE_M } from './outliers';
import { evidenceOf, type PlaceEvidence } from './place-evidence';
import { byCodePoint, placesFrom } from './place-groups';
import type { GazetteerDistrict, GazetteerFile, GazetteerMahalla, GazetteerPlace } from './types';

const GENERATOR = 'models/location/geocode/build-gazetteer.ts';

/** The centre, or the nearest point inside its district when it falls outside every district polygon. */
function insideDistrict(polygons: readonly DistrictBoundary[], district: DistrictId, centre: LatLon): LatLon {
  if (districtAt(polygons, centre.lat, centre.lon) !== null) return { lat: centre.lat, lon: centre.lon };
  const inside = nearestPointInside(polygons.find((p) => p.id === district)!, centre);
  return { lat: roundCoordinate(inside.lat), lon: roundCoordinate(inside.lon) };
}

function districtOf(polygon: DistrictBoundary, points: readonly LatLon[]): GazetteerDistrict {
  const inside = centreOf(polygon);
  const centre = { lat: roundCoordinate(inside.lat), lon: roundCoordinate(inside.lon) };
  return {
    id: polygon.id,
    names: polygon.names,
    ...centre,
    listings: points.length,
    spreadM: points.length === 0 ? 0 : Math.round(median(points.map((p) => distanceM(p, centre)))),
  };
}

export interface GazetteerInput {
  listings: readonly GeocodedListing[];
  /** uybor addresses naming a mahalla and a place (./co-named.ts). */
  coNamedAddresses: readonly string[];
  polygons: readonly DistrictBoundary[];
  sources: GazetteerFile['sources'];
}

export function buildGazetteer({ listings, coNamedAddresses, polygons, sources }: GazetteerInput): GazetteerFile {
  const placeEvidence: PlaceEvidence[] = [];
  const bareNumbers: PlaceEvidence[] = [];
  const mahallaPoints = new Map<string, LatLon[]>();
  const districtPoints = new Map<DistrictId, LatLon[]>(DISTRICT_IDS.map((id) => [id, []]));
  for (const listing of listings) {
    if (listing.point === null) continue;
    districtPoints.get(listing.district)!.push(listing.point);
    const evidence = evidenceOf(listing.address, listing.district, listing.point);
    placeEvidence.push(...evidence.places);
    bareNumbers.push(...evidence.bareQuarterNumbers);
    for (const id of evidence.mahallaIds) {
      const points = mahallaPoints.get(id);
      if (points === undefined) mahallaPoints.set(id, [listing.point]);
      else points.push(listing.point);
    }
  }
  const places = placesFrom(placeEvidence, bareNumbers).map((place) => ({ ...place, ...insideDistrict(polygons, place.district, place) }));

  const coNamed = coNamedPoints(coNamedAddresses, places);
  const mahallaDistrict = new Map(DISTRICT_IDS.flatMap((district) => mahallasOf(district)).map((m) => [m.id, m.district]));
  const mahallas: GazetteerMahalla[] = [...mahallaDistrict.keys()]
    .sort(byCodePoint)
    .map((id) => {
      const polygon = polygons.find((p) => p.id === mahallaDistrict.get(id))!;
      const inItsDistrict = (median: LatLon) => movedInside(polygon, median);
      const geocoded = robustCentre(mahallaPoints.get(id) ?? [], OUTLIER_DISTANCE_M.mahalla, inItsDistrict);
      const centre = geocoded ?? robustCentre(coNamed.get(id) ?? [], OUTLIER_DISTANCE_M.mahalla, inItsDistrict);
      if (centre === null) return { id, source: null, lat: null, lon: null, listings: 0, spreadM: null };
      return { id, source: geocoded !== null ? 'geocoded' : 'co-named', lat: centre.lat, lon: centre.lon, listings: centre.points, spreadM: centre.spreadM };
    });

  const districts = DISTRICT_IDS.map((id) => districtOf(polygons.find((p) => p.id === id)!, districtPoints.get(id)!));
  return {
    generated: `Generated by ${GENERATOR} from the files below; do not edit by hand. Rerun: tsc, then node <outDir>/tools/models/location/geocode/build-gazetteer.js`,
    sources,
    districts,
    places,
    mahallas,
  };
}

/** The shipped gazetteer: every geocoded listing. */
export function buildShippedGazetteer(): GazetteerFile {
  const polygons = loadDistrictBoundaries();
  const geocoded = loadGeocodedListings(polygons);
  const coNamed = loadCoNamedAddresses();
  return buildGazetteer({ listings: geocoded.listings, coNamedAddresses: coNamed.addresses, polygons, sources: gazetteerSources(geocoded, coNamed) });
}
