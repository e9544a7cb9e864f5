/**
 * Geometry the geocoder needs on the district polygons of ../districts.ts (which reads them and
 * answers which district holds a point): how far a point lies outside a district, the nearest point
 * inside it (just past its boundary, or on a 200 m grid), and the centre a district-precision answer gets.
 */
import type { Position } from 'geojson';
import { districtHolds, type DistrictShape } from '../districts';
import { distanceM, type LatLon } from './geo';

const METRES_PER_DEGREE_LAT = 110_574;
const METRES_PER_DEGREE_LON_AT_EQUATOR = 111_320;

/** The plane tangent at a point, in metres east and north of it (exact enough within a city). */
interface TangentPlane {
  x(lon: number): number;
  y(lat: number): number;
  lon(x: number): number;
  lat(y: number): number;
}

function tangentPlaneAt(point: LatLon): TangentPlane {
  const kx = METRES_PER_DEGREE_LON_AT_EQUATOR * Math.cos((point.lat * Math.PI) / 180);
  return {
    x: (lon) => (lon - point.lon) * kx,
    y: (lat) => (lat - point.lat) * METRES_PER_DEGREE_LAT,
    lon: (x) => point.lon + x / kx,
    lat: (y) => point.lat + y / METRES_PER_DEGREE_LAT,
  };
}

/** The point of one boundary segment nearest the origin of the tangent plane, and the segment's unit normal. */
interface SegmentFoot {
  x: number;
  y: number;
  distanceM: number;
  normal: readonly [number, number];
}

function* segmentFeet(polygon: DistrictShape, plane: TangentPlane): Generator<SegmentFoot> {
  for (const rings of polygon.shape.coordinates) {
    for (const ring of rings) {
      for (let i = 1; i < ring.length; i++) {
        const [a, b]: Position[] = [ring[i - 1], ring[i]];
        const ax = plane.x(a[0]);
        const ay = plane.y(a[1]);
        const dx = plane.x(b[0]) - ax;
        const dy = plane.y(b[1]) - ay;
        const length = Math.hypot(dx, dy);
        if (length === 0) continue;
        const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)));
        const [x, y] = [ax + t * dx, ay + t * dy];
        yield { x, y, distanceM: Math.hypot(x, y), normal: [-dy / length, dx / length] };
      }
    }
  }
}

/** How far the point lies outside the district: 0 inside it, else metres to its boundary. */
export function distanceOutsideM(polygon: DistrictShape, point: LatLon): number {
  if (districtHolds(polygon, point.lat, point.lon)) return 0;
  let nearest = Infinity;
  for (const foot of segmentFeet(polygon, tangentPlaneAt(point))) nearest = Math.min(nearest, foot.distanceM);
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

/** How far inside the boundary a point moved into a district lands: clear of the 0.1 m rounding of the artifact's polygons. */
const MOVED_INSIDE_MARGIN_M = 10;

/**
 * The point itself when the district holds it, else the nearest point that lies 10 m inside the
 * district from some stretch of its boundary (the foot of the point on that stretch, stepped 10 m
 * across it); the nearest point of a 200 m grid inside the district if no stretch gives one.
 */
export function movedInside(polygon: DistrictShape, point: LatLon): LatLon {
  if (districtHolds(polygon, point.lat, point.lon)) return point;
  const plane = tangentPlaneAt(point);
  let best: LatLon | null = null;
  let bestDistance = Infinity;
  for (const { x, y, normal: [nx, ny] } of segmentFeet(polygon, plane)) {
    for (const side of [1, -1]) {
      const [cx, cy] = [x + side * nx * MOVED_INSIDE_MARGIN_M, y + side * ny * MOVED_INSIDE_MARGIN_M];
      const distance = Math.hypot(cx, cy);
      if (distance >= bestDistance) continue;
      const candidate = { lat: plane.lat(cy), lon: plane.lon(cx) };
      if (districtHolds(polygon, candidate.lat, candidate.lon)) {
        best = candidate;
        bestDistance = distance;
      }
    }
  }
  return best ?? nearestPointInside(polygon, point);
}

/**
 * The district's centre: its centroid, or, where the polygon bends round it (Sergeli's does), the
 * nearest point inside it, so that a district-precision answer lies in its district.
 */
export function centreOf(polygon: DistrictShape): LatLon {
  return nearestPointInside(polygon, centroidOf(polygon.shape));
}
