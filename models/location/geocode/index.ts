/**
 * Geocoding of Tashkent addresses: the public surface. Russian, Uzbek (Latin and Cyrillic) and
 * English addresses → a point with its precision (street, quarter, mahalla or district) and a
 * confidence, from the committed gazetteer (models/artifacts/location/gazetteer.json).
 */
import type { DistrictId } from '../../vocabulary';
import { districtAt, loadDistrictBoundaries, type DistrictShape } from '../districts';
import { loadGazetteer } from './gazetteer-file';
import { createGeocoder, type Geocoder } from './geocoder';
import type { GeocodeResult } from './types';

export { UnresolvableAddressError, type UnresolvableReason } from './errors';
export { PRECISIONS, type Precision, type GeocodeResult, type GeocodeCandidate, type MatchedElements } from './types';
export { createGeocoder, type Geocoder } from './geocoder';
// The gazetteer also describes the mahallas and districts the location subgraph serves as entities.
export { loadGazetteer } from './gazetteer-file';
export type { GazetteerFile } from './types';

// Loaded on first use: importing the module costs nothing.
let polygons: readonly DistrictShape[] | undefined;
let shipped: Geocoder | undefined;
const districtPolygons = () => (polygons ??= loadDistrictBoundaries());

/**
 * Places a Tashkent address. Throws UnresolvableAddressError (with a reason and, where something
 * is close, suggestions) for an address outside Tashkent, one naming no known district or place,
 * or one naming a place several districts have far apart.
 */
export function geocode(address: string): GeocodeResult {
  shipped ??= createGeocoder(loadGazetteer(), districtPolygons());
  return shipped.geocode(address);
}

/** The district whose polygon holds the point; null outside the city. */
export function reverseDistrict(lat: number, lon: number): DistrictId | null {
  return districtAt(districtPolygons(), lat, lon);
}
