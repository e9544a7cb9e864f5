/** Distances and robust centres of points on the city's scale. */

export interface LatLon {
  lat: number;
  lon: number;
}

const EARTH_RADIUS_M = 6_371_008.8;
const RADIANS = Math.PI / 180;

/** Great-circle distance in metres. */
export function distanceM(a: LatLon, b: LatLon): number {
  const dLat = (b.lat - a.lat) * RADIANS;
  const dLon = (b.lon - a.lon) * RADIANS;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RADIANS) * Math.cos(b.lat * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Median of a non-empty list (mean of the middle two for an even length). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Coordinates rounded to 6 decimals (about 0.1 m): the artifact's precision, and stable across platforms. */
export const roundCoordinate = (x: number): number => Math.round(x * 1e6) / 1e6;

export interface RobustCentre extends LatLon {
  /** Points kept after dropping those far from the group. */
  points: number;
  /** Median distance of the kept points to the centre, metres. */
  spreadM: number;
}

/**
 * Component-wise median, recomputed without the points farther than `outlierM` from the first one:
 * a listing the geocoder put in the wrong quarter does not move the centre, and does not count.
 * `place` may then move the median where the centre must be (into its district); the spread is
 * measured from where it ends up. Null when no point survives (no majority agrees on a place).
 */
export function robustCentre(points: readonly LatLon[], outlierM: number, place: (median: LatLon) => LatLon = (m) => m): RobustCentre | null {
  if (points.length === 0) return null;
  const first = { lat: median(points.map((p) => p.lat)), lon: median(points.map((p) => p.lon)) };
  const kept = points.filter((p) => distanceM(p, first) <= outlierM);
  if (kept.length === 0) return null;
  const placed = place({ lat: roundCoordinate(median(kept.map((p) => p.lat))), lon: roundCoordinate(median(kept.map((p) => p.lon))) });
  const centre = { lat: roundCoordinate(placed.lat), lon: roundCoordinate(placed.lon) };
  return { ...centre, points: kept.length, spreadM: Math.round(median(kept.map((p) => distanceM(p, centre)))) };
}
