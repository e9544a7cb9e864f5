/**
 * The 12 district polygons, the one place that reads them: parsed from the OpenStreetMap boundaries
 * (data/geo/tashkent_districts.geojson) for the location artifact and the geocoder, and the
 * point-in-polygon lookup that both names a point's district and decides whether it is in the city.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { MultiPolygon } from 'geojson';
import { DATA_DIR } from '../paths';
import { DISTRICT_IDS, matchDistrict, type DistrictId } from '../vocabulary';
import { roundCoordinate, type DistrictPolygon } from './artifact';

/** The boundary file, relative to the data folder. */
export const DISTRICTS_FILE = 'geo/tashkent_districts.geojson';
/** The name properties a boundary feature may carry: the shipped file's English, Russian, Uzbek; an OSM export's name:en, name. */
const NAME_PROPERTIES = ['ADM2_EN', 'ADM2_RU', 'ADM2_UZ', 'name:en', 'name'] as const;

interface BoundaryFeature {
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates?: number[][][] | number[][][][]; geometries?: BoundaryFeature['geometry'][] };
}

/** A district's shape, with the bounding box that spares most points the exact test. */
export interface DistrictShape {
  id: DistrictId;
  shape: MultiPolygon;
  bounds: { minLat: number; maxLat: number; minLon: number; maxLon: number };
}

/** A district as the boundary file gives it: its shape at full precision and its names. */
export interface DistrictBoundary extends DistrictShape {
  /** As the file writes them (English first in the shipped file). */
  names: string[];
}

/** Polygon, MultiPolygon, or a GeometryCollection of them (as the OSM boundary export has) → MultiPolygon coordinates. */
function multiPolygonOf(geometry: BoundaryFeature['geometry']): number[][][][] {
  switch (geometry.type) {
    case 'Polygon': return [geometry.coordinates as number[][][]];
    case 'MultiPolygon': return geometry.coordinates as number[][][][];
    case 'GeometryCollection': return (geometry.geometries ?? []).flatMap(multiPolygonOf);
    default: return [];
  }
}

/** The shape with the bounding box of its outer rings. */
export function districtShape(id: DistrictId, shape: MultiPolygon): DistrictShape {
  const outer = shape.coordinates.flatMap((polygon) => polygon[0] ?? []);
  const lons = outer.map((p) => p[0]);
  const lats = outer.map((p) => p[1]);
  return { id, shape, bounds: { minLat: Math.min(...lats), maxLat: Math.max(...lats), minLon: Math.min(...lons), maxLon: Math.max(...lons) } };
}

/**
 * The districts of a boundary GeoJSON in the file's order, named through the vocabulary (English,
 * Russian or Uzbek name). Throws on a feature naming no Tashkent district, or two naming one.
 */
export function districtBoundariesFromGeoJson(collection: { features: BoundaryFeature[] }): DistrictBoundary[] {
  const districts = collection.features.map((feature): DistrictBoundary => {
    const names = NAME_PROPERTIES.map((key) => feature.properties[key]).filter((v): v is string => typeof v === 'string');
    const id = names.map((name) => matchDistrict(name)?.id).find((match) => match !== undefined);
    if (id === undefined) throw new Error(`district polygon not named as a Tashkent district: ${names.join(' / ')}`);
    return { ...districtShape(id, { type: 'MultiPolygon', coordinates: multiPolygonOf(feature.geometry) }), names };
  });
  const ids = districts.map((d) => d.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) throw new Error(`district polygons repeat ${repeated.join(', ')}`);
  return districts;
}

/** The 12 districts of data/geo/tashkent_districts.geojson; throws when one has no polygon. */
export function loadDistrictBoundaries(dataDir: string = DATA_DIR): DistrictBoundary[] {
  const districts = districtBoundariesFromGeoJson(JSON.parse(readFileSync(join(dataDir, DISTRICTS_FILE), 'utf8')));
  const missing = DISTRICT_IDS.filter((id) => !districts.some((d) => d.id === id));
  if (missing.length > 0) throw new Error(`${DISTRICTS_FILE}: no polygon for ${missing.join(', ')}`);
  return districts;
}

/** The district polygons of a boundary GeoJSON as the artifact stores them: rounded, flattened rings, by id. */
export function districtPolygonsFromGeoJson(collection: { features: BoundaryFeature[] }): DistrictPolygon[] {
  return districtBoundariesFromGeoJson(collection)
    .map(({ id, names, shape }): DistrictPolygon => ({
      id,
      name: names[0],
      polygons: shape.coordinates.map((polygon) => polygon.map((ring) => ring.flatMap(([lon, lat]) => [roundCoordinate(lon), roundCoordinate(lat)]))),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1)); // ids are unique
}

/** Whether the district holds the point: a bounding-box test first, the exact test only when it passes. */
export function districtHolds(district: DistrictShape, lat: number, lon: number): boolean {
  const { minLat, maxLat, minLon, maxLon } = district.bounds;
  if (lon < minLon || lon > maxLon || lat < minLat || lat > maxLat) return false;
  return booleanPointInPolygon([lon, lat], district.shape);
}

/** The first district holding the point, null outside every polygon (outside the city, or in a gap of the boundary data). */
export function districtAt(districts: readonly DistrictShape[], lat: number, lon: number): DistrictId | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  for (const district of districts) if (districtHolds(district, lat, lon)) return district.id;
  return null;
}

function unflatten(ring: readonly number[]): number[][] {
  const positions: number[][] = [];
  for (let i = 0; i + 1 < ring.length; i += 2) positions.push([ring[i], ring[i + 1]]);
  return positions;
}

/** Which of the artifact's district polygons holds a point. */
export class DistrictLocator {
  private readonly districts: DistrictShape[];

  constructor(districts: readonly DistrictPolygon[]) {
    this.districts = districts.map(({ id, polygons }) => districtShape(id, { type: 'MultiPolygon', coordinates: polygons.map((polygon) => polygon.map(unflatten)) }));
  }

  /** The district at a point, null outside every polygon (outside the city, or in a gap of the boundary data). */
  districtOf(lat: number, lon: number): DistrictId | null {
    return districtAt(this.districts, lat, lon);
  }
}
