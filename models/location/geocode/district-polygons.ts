/**
 * Geometry the geocoder needs on the district polygons of ../districts.ts (which reads them and
 * answers which district holds a point): how far a point lies outside a district, the nearest point
 * inside it, and the centre a district-precision answer gets.
 */
import type { Position } from 'geojson';
import { districtHolds, type DistrictShape } from '../districts';
import { distanceM, type LatLon } from './geo';

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
export function distanceOutsideM(polygon: DistrictShape, point: LatLon): number {
  if (districtHolds(polygon, point.lat, point.lon)) return 0;
  let nearest = Infinity;
  for (const rings of polygon.shape.coordinates) {
    for (const ring of rings) for (let i = 1; i < ring.length; i++) nearest = Math.min(nearest, segmentDistanceM(point, ring[i - 1], ring[i]));
  }
  return nearest;
}

/** Area-weighted centroid of the outer rings (planar in degrees: the error is negligible at a district's size). */
function centroidOf(shape: DistrictShape['shape']): LatLon {
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
export function nearestPointInside(polygon: DistrictShape, point: LatLon): LatLon {
  if (districtHolds(polygon, point.lat, point.lon)) return point;
  let best = point;
  let bestDistance = Infinity;
  const { minLat, maxLat, minLon, maxLon } = polygon.bounds;
  for (let lat = minLat; lat <= maxLat; lat += INSIDE_SEARCH_STEP) {
    for (let lon = minLon; lon <= maxLon; lon += INSIDE_SEARCH_STEP) {
      const d = distanceM(point, { lat, lon });
      if (d < bestDistance && districtHolds(polygon, lat, lon)) {
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
export function centreOf(polygon: DistrictShape): LatLon {
  return nearestPointInside(polygon, centroidOf(polygon.shape));
}
