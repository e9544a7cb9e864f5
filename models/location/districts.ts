/**
 * The 12 district polygons: read from the OpenStreetMap boundaries for the artifact, and at run time
 * the point-in-polygon lookup that both names a point's district and decides whether it is in the city.
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { MultiPolygon } from 'geojson';
import { matchDistrict, type DistrictId } from '../vocabulary';
import { roundCoordinate, type DistrictPolygon } from './artifact';

interface BoundaryFeature {
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates?: number[][][] | number[][][][]; geometries?: BoundaryFeature['geometry'][] };
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

/** The district polygons of a boundary GeoJSON, named through the vocabulary (English, Russian or Uzbek name). */
export function districtPolygonsFromGeoJson(collection: { features: BoundaryFeature[] }): DistrictPolygon[] {
  const districts = collection.features.map((feature): DistrictPolygon => {
    const names = ['ADM2_EN', 'ADM2_RU', 'ADM2_UZ', 'name:en', 'name'].map((key) => feature.properties[key]).filter((v): v is string => typeof v === 'string');
    const id = names.map((name) => matchDistrict(name)?.id).find((match) => match !== undefined);
    if (id === undefined) throw new Error(`district polygon not named as a Tashkent district: ${names.join(' / ')}`);
    const polygons = multiPolygonOf(feature.geometry).map((polygon) => polygon.map((ring) => ring.flatMap(([lon, lat]) => [roundCoordinate(lon), roundCoordinate(lat)])));
    return { id, name: names[0], polygons };
  });
  const ids = districts.map((d) => d.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) throw new Error(`district polygons repeat ${repeated.join(', ')}`);
  return districts.sort((a, b) => (a.id < b.id ? -1 : 1)); // ids are unique
}

interface LocatablePolygon {
  id: DistrictId;
  geometry: MultiPolygon;
  minLon: number; minLat: number; maxLon: number; maxLat: number;
}

function unflatten(ring: readonly number[]): number[][] {
  const positions: number[][] = [];
  for (let i = 0; i + 1 < ring.length; i += 2) positions.push([ring[i], ring[i + 1]]);
  return positions;
}

/** Which district polygon holds a point: a bounding-box test first, the exact test for the few that pass. */
export class DistrictLocator {
  private readonly polygons: LocatablePolygon[];

  constructor(districts: readonly DistrictPolygon[]) {
    this.polygons = districts.map(({ id, polygons }) => {
      const coordinates = polygons.map((polygon) => polygon.map(unflatten));
      const outer = coordinates.flatMap((polygon) => polygon[0] ?? []);
      const lons = outer.map((p) => p[0]);
      const lats = outer.map((p) => p[1]);
      return {
        id,
        geometry: { type: 'MultiPolygon', coordinates },
        minLon: Math.min(...lons), maxLon: Math.max(...lons), minLat: Math.min(...lats), maxLat: Math.max(...lats),
      };
    });
  }

  /** The district at a point, null outside every polygon (outside the city, or in a gap of the boundary data). */
  districtOf(lat: number, lon: number): DistrictId | null {
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
    for (const polygon of this.polygons) {
      if (lon < polygon.minLon || lon > polygon.maxLon || lat < polygon.minLat || lat > polygon.maxLat) continue;
      if (booleanPointInPolygon([lon, lat], polygon.geometry)) return polygon.id;
    }
    return null;
  }
}
