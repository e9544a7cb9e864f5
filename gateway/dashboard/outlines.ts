/**
 * The 12 district outlines the dashboard's portfolio map draws under a job's points: built at
 * `npm run build` from the OpenStreetMap boundaries (data/geo/tashkent_districts.geojson, read by
 * models/location/districts.ts) into dist/dashboard/district-outlines.json, a static file of the
 * page (web/vite.config.mts), so the map needs no tiles, no API call and nothing off the origin.
 *
 * Compact: coordinates rounded to 1e-4° (about 10 m, finer than a city-wide map shows), repeated
 * points dropped. Rings are wound the way d3-geo (vega's geoshape) reads them, exterior clockwise
 * in longitude/latitude: the other way round a ring is the whole globe outside the district.
 */
import { DATA_DIR } from '../../models/paths';
import { loadDistrictBoundaries } from '../../models/location/districts';
import { DISTRICT_NAMES, type DistrictId } from '../../models/vocabulary';

/** The file's name in the built page (dist/dashboard/). */
export const DISTRICT_OUTLINES_FILE = 'district-outlines.json';
/** Decimals kept of each coordinate. */
export const OUTLINE_DECIMALS = 4;
export const OUTLINE_ATTRIBUTION = 'District boundaries © OpenStreetMap contributors (ODbL)';

type Position = [lon: number, lat: number];

export interface DistrictOutline {
  type: 'Feature';
  /** name: the English name batch results give as geocode.district (Chilanzar, Mirzo-Ulugbek, …). */
  properties: { id: DistrictId; name: string };
  geometry: { type: 'MultiPolygon'; coordinates: Position[][][] };
}

export interface DistrictOutlines {
  type: 'FeatureCollection';
  attribution: string;
  features: DistrictOutline[];
}

/** Twice the ring's signed area in the lon/lat plane: positive when anticlockwise. */
function signedArea(ring: readonly Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return sum;
}

/** Rounded, without repeated points, closed; null when fewer than 3 distinct points are left. */
function compactRing(ring: readonly number[][]): Position[] | null {
  const scale = 10 ** OUTLINE_DECIMALS;
  const round = (value: number) => Math.round(value * scale) / scale;
  const points: Position[] = [];
  for (const [lon, lat] of ring) {
    const point: Position = [round(lon), round(lat)];
    const last = points[points.length - 1];
    if (!last || last[0] !== point[0] || last[1] !== point[1]) points.push(point);
  }
  const [first, last] = [points[0], points[points.length - 1]];
  if (points.length > 1 && first[0] === last[0] && first[1] === last[1]) points.pop();
  if (points.length < 3) return null;
  points.push([...first]);
  return points;
}

/** Exterior rings clockwise, holes anticlockwise (d3-geo's spherical winding for small polygons). */
function wound(ring: Position[], exterior: boolean): Position[] {
  const clockwise = signedArea(ring) < 0;
  return clockwise === exterior ? ring : ring.reverse();
}

/** The outlines of the 12 districts, by district id. */
export function districtOutlines(dataDir: string = DATA_DIR): DistrictOutlines {
  const features = loadDistrictBoundaries(dataDir)
    .map(({ id, shape }): DistrictOutline => ({
      type: 'Feature',
      properties: { id, name: DISTRICT_NAMES[id] },
      geometry: {
        type: 'MultiPolygon',
        coordinates: shape.coordinates.flatMap((polygon) => {
          const exterior = compactRing(polygon[0] ?? []);
          if (!exterior) return [];
          const holes = polygon.slice(1).map(compactRing).filter((ring): ring is Position[] => ring !== null);
          return [[wound(exterior, true), ...holes.map((hole) => wound(hole, false))]];
        }),
      },
    }))
    .sort((a, b) => (a.properties.id < b.properties.id ? -1 : 1));
  return { type: 'FeatureCollection', attribution: OUTLINE_ATTRIBUTION, features };
}
