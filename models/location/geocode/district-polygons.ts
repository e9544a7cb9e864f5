/**
 * The 12 district polygons of data/geo/tashkent_districts.geojson (OpenStreetMap): which district
 * a point is in, each district's centroid, and the names the file gives it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { Feature, FeatureCollection, GeometryCollection, MultiPolygon, Position } from 'geojson';
import { DATA_DIR } from '../../paths';
import { DISTRICT_IDS, matchDistrict, type DistrictId } from '../../vocabulary';
import { distanceM, type LatLon } from './geo';

export const DISTRICTS_FILE = 'geo/tashkent_districts.geojson';
/** The file's name columns: English, Russian, Uzbek. */
const NAME_PROPERTIES = ['ADM2_EN', 'ADM2_RU', 'ADM2_UZ'] as const;

export interface DistrictPolygon {
  id: DistrictId;
  names: string[]; // as the file writes them
  shape: MultiPolygon;
  bounds: { minLat: number; maxLat: number; minLon: number; maxLon: number };
}

type DistrictFeature = Feature<GeometryCollection | MultiPolygon, Record<(typeof NAME_PROPERTIES)[number], string>>;

/** Each feature is a GeometryCollection of MultiPolygons; turf wants one MultiPolygon. */
function multiPolygonOf(geometry: GeometryCollection | MultiPolygon): MultiPolygon {
  if (geometry.type === 'MultiPolygon') return geometry;
  const coordinates: Position[][][] = [];
  for (const part of geometry.geometries) {
    if (part.type === 'MultiPolygon') coordinates.push(...part.coordinates);
    else if (part.type === 'Polygon') coordinates.push(part.coordinates);
  }
  return { type: 'MultiPolygon', coordinates };
}

function boundsOf(shape: MultiPolygon): DistrictPolygon['bounds'] {
  const ring = shape.coordinates.flatMap((polygon) => polygon[0]);
  const lats = ring.map(([, lat]) => lat);
  const lons = ring.map(([lon]) => lon);
  return { minLat: Math.min(...lats), maxLat: Math.max(...lats), minLon: Math.min(...lons), maxLon: Math.max(...lons) };
}

export function loadDistrictPolygons(dataDir: string = DATA_DIR): DistrictPolygon[] {
  const file = JSON.parse(readFileSync(join(dataDir, DISTRICTS_FILE), 'utf8')) as FeatureCollection;
  const polygons = (file.features as DistrictFeature[]).map((feature) => {
    const names = NAME_PROPERTIES.map((p) => feature.properties[p]);
    const id = matchDistrict(feature.properties.ADM2_EN)?.id;
    if (id === undefined) throw new Error(`${DISTRICTS_FILE}: no district matches "${names[0]}"`);
    const shape = multiPolygonOf(feature.geometry);
    return { id, names, shape, bounds: boundsOf(shape) };
  });
  const missing = DISTRICT_IDS.filter((id) => !polygons.some((p) => p.id === id));
  if (missing.length > 0) throw new Error(`${DISTRICTS_FILE}: no polygon for ${missing.join(', ')}`);
  return polygons;
}

/** The district whose polygon holds the point; null outside the city (or in a gap between polygons). */
export function districtAt(polygons: readonly DistrictPolygon[], point: LatLon): DistrictId | null {
  for (const { id, shape, bounds } of polygons) {
    if (point.lat < bounds.minLat || point.lat > bounds.maxLat || point.lon < bounds.minLon || point.lon > bounds.maxLon) continue;
    if (booleanPointInPolygon([point.lon, point.lat], shape)) return id;
  }
  return null;
}

const METRES_PER_DEGREE_LAT = 110_574;
const METRES_PER_DEGREE_LON_AT_EQUATOR = 111_320;

/** Metres from the point to the segment a–b, in a plane tangent at the point (exact enough within a city). */
function segmentDistanceM(point: LatLon, a: Position, b: Position): number {
  const kx = METRES_PER_DEGREE_LON_AT_EQUATOR * Math.cos((point.lat * Math.PI) / 180);
  const ax = (a[0] - point.lon) * kx;
  const ay = (a[1] - point.lat) * METRES_PER_DEGREE_LAT;
  const dx = (b[0] - point.lon) * kx - ax;
  const dy = (b[1] - point.lat) * METRES_PER_DEGREE_LAT - ay;
  const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

/** How far the point lies outside the district: 0 inside it, else metres to its boundary. */
export function distanceOutsideM(polygon: DistrictPolygon, point: LatLon): number {
  if (booleanPointInPolygon([point.lon, point.lat], polygon.shape)) return 0;
  let nearest = Infinity;
  for (const rings of polygon.shape.coordinates) {
    for (const ring of rings) for (let i = 1; i < ring.length; i++) nearest = Math.min(nearest, segmentDistanceM(point, ring[i - 1], ring[i]));
  }
  return nearest;
}

/** Area-weighted centroid of the outer rings (planar in degrees: the error is negligible at a district's size). */
function centroidOf(shape: MultiPolygon): LatLon {
  let area = 0;
  let lon = 0;
  let lat = 0;
  for (const [ring] of shape.coordinates) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const cross = ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
      area += cross;
      lon += (ring[j][0] + ring[i][0]) * cross;
      lat += (ring[j][1] + ring[i][1]) * cross;
    }
  }
  return { lat: lat / (3 * area), lon: lon / (3 * area) };
}

/** Grid step, in degrees (about 200 m), for finding a point inside a district near a given one. */
const INSIDE_SEARCH_STEP = 0.002;

/** The point itself when the district holds it, else the nearest point of a 200 m grid inside the district. */
export function nearestPointInside(polygon: DistrictPolygon, point: LatLon): LatLon {
  if (districtAt([polygon], point) !== null) return point;
  let best = point;
  let bestDistance = Infinity;
  const { minLat, maxLat, minLon, maxLon } = polygon.bounds;
  for (let lat = minLat; lat <= maxLat; lat += INSIDE_SEARCH_STEP) {
    for (let lon = minLon; lon <= maxLon; lon += INSIDE_SEARCH_STEP) {
      const d = distanceM(point, { lat, lon });
      if (d < bestDistance && districtAt([polygon], { lat, lon }) !== null) {
        best = { lat, lon };
        bestDistance = d;
      }
    }
  }
  return best;
}

/**
 * The district's centre: its centroid, or, where the polygon bends round it (Sergeli's does), the
 * nearest point inside it, so that a district-precision answer lies in its district.
 */
export function centreOf(polygon: DistrictPolygon): LatLon {
  return nearestPointInside(polygon, centroidOf(polygon.shape));
}
