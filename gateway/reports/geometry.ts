/**
 * Geometry of the two drawings, shared by the SVG (html.ts) and the PDF (pdf.ts) so that both
 * place the interval's ends, the estimate, the outline and the point at the same spots:
 * the interval bar on a linear scale, and the district map in a local equirectangular projection
 * (at Tashkent's size, ~20 km, its distortion is far below a pixel; no tiles, no network).
 */
import type { DistrictOutline } from './report-data';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BarGeometry {
  lowX: number;
  highX: number;
  estimateX: number;
}

/**
 * Where the interval's ends and the estimate fall on a horizontal axis from x0 to x0 + width. A
 * quarter of the interval's span is left free at each side so the end labels fit, and the scale
 * takes in the estimate should it lie outside the interval.
 */
export function intervalBar(low: number, high: number, estimate: number, x0: number, width: number): BarGeometry {
  const lo = Math.min(low, high, estimate);
  const hi = Math.max(low, high, estimate);
  const span = hi - lo || Math.max(Math.abs(estimate) * 0.1, 1);
  const min = lo - span / 4;
  const max = hi + span / 4;
  const x = (value: number) => x0 + ((value - min) / (max - min)) * width;
  return { lowX: x(Math.min(low, high)), highX: x(Math.max(low, high)), estimateX: x(estimate) };
}

export type Point = [number, number];

export interface MapGeometry {
  /** Outer rings and holes in page coordinates (y down); draw them with the even-odd rule. */
  rings: Point[][];
  point: Point;
  /** A round distance and its length on the page, for the scale bar. */
  scale: { km: number; length: number };
}

const KM_PER_DEGREE_LAT = 111.32;
/** Points of a ring closer than this (page units) to the last one kept are dropped: they draw nothing. */
const MIN_STEP = 0.6;
const SCALE_STEPS_KM = [0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 20, 50];

/** The outline's polygons as lists of rings, whatever its type; positions that are not numbers are left out. */
function polygonsOf(outline: DistrictOutline | null): Point[][][] {
  if (!outline) return [];
  const polygons = (outline.type === 'Polygon' ? [outline.coordinates] : outline.coordinates) as number[][][][];
  return polygons.map((rings) =>
    rings.map((ring) => ring.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1])).map((p): Point => [p[0], p[1]])).filter((ring) => ring.length >= 3),
  );
}

/**
 * The district outline and the point fitted into `box` with `padding` on every side, north up.
 * Without an outline the point sits in the middle of a frame about 2 km across.
 */
export function projectMap(outline: DistrictOutline | null, lat: number, lon: number, box: Box, padding: number): MapGeometry {
  const polygons = polygonsOf(outline);
  const cosLat = Math.cos((lat * Math.PI) / 180);
  const positions = polygons.flat(2);
  let [minLon, maxLon, minLat, maxLat] = [lon, lon, lat, lat];
  for (const [pLon, pLat] of positions) {
    minLon = Math.min(minLon, pLon); maxLon = Math.max(maxLon, pLon);
    minLat = Math.min(minLat, pLat); maxLat = Math.max(maxLat, pLat);
  }
  const spanX = Math.max((maxLon - minLon) * cosLat, 0.018);
  const spanY = Math.max(maxLat - minLat, 0.018);
  const scale = Math.min((box.width - 2 * padding) / spanX, (box.height - 2 * padding) / spanY);
  const centreLon = (minLon + maxLon) / 2;
  const centreLat = (minLat + maxLat) / 2;
  const project = ([pLon, pLat]: Point): Point => [
    box.x + box.width / 2 + (pLon - centreLon) * cosLat * scale,
    box.y + box.height / 2 - (pLat - centreLat) * scale,
  ];
  const rings = polygons.flat().map((ring) => {
    const kept: Point[] = [];
    for (const position of ring) {
      const p = project(position);
      const last = kept[kept.length - 1];
      if (!last || Math.hypot(p[0] - last[0], p[1] - last[1]) >= MIN_STEP) kept.push(p);
    }
    return kept;
  }).filter((ring) => ring.length >= 3);
  const perKm = scale / KM_PER_DEGREE_LAT;
  const km = [...SCALE_STEPS_KM].reverse().find((step) => step * perKm <= box.width / 4) ?? SCALE_STEPS_KM[0];
  return { rings, point: project([lon, lat]), scale: { km, length: km * perKm } };
}
