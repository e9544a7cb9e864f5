/**
 * Reading point layers: GeoJSON (as overpass-turbo exports it), OpenStreetMap Overpass JSON, and CSV
 * files of named points (the metro stations, the hand-collected landmarks, the OSM transit stops) → one list of points.
 * OpenStreetMap PBF extracts stream asynchronously and are read by ./osm-pbf.ts with the same
 * classification and the same point per area; loadLayer returns such a layer when given it as `preloaded`.
 *
 * Areas become one point, the centre of their bounding box: that is what Overpass's `out center`
 * gives for ways and relations, so the same place loads to the same point from either format.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'csv-parse/sync';
import { CSV_CATEGORY_COLUMNS, type Category } from './categories';
import { categoryOfTags, categoryOfValue, type Tags } from './classify';

export interface LayerPoint {
  lon: number;
  lat: number;
  category: Category;
  name?: string;
  /** The id of the layer the point came from. */
  source: string;
}

export interface LayerOptions {
  /** Recorded as every point's `source`. */
  id: string;
  /** Every feature is this category (a CSV without a Category column, such as the metro stations). */
  category?: Category;
  /** Classify only into these categories: what the layer is an export of. Other features are skipped. */
  keep?: readonly Category[];
  /** The layer already read (an OSM PBF, read asynchronously by readOsmPbf in ./osm-pbf.ts): loadLayer returns it as it is. */
  preloaded?: LoadedLayer;
}

export type LayerFormat = 'geojson' | 'overpass-json' | 'csv' | 'osm-pbf';

export interface LoadedLayer {
  format: LayerFormat;
  points: LayerPoint[];
  /** Features read (Overpass elements without tags are geometry of other elements, not features). */
  features: number;
  /** Features without a scored category or without a location. */
  skipped: number;
  /** The licence the file itself states (OpenStreetMap exports name ODbL), or null. */
  statedLicence: string | null;
  /** When the data was extracted, as the file states it (Overpass base timestamp), or null. */
  dataTimestamp: string | null;
}

export class UnsupportedLayerFormatError extends Error {
  constructor(file: string, reason: string) {
    super(`${basename(file)}: ${reason}`);
    this.name = 'UnsupportedLayerFormatError';
  }
}

export type Position = readonly [number, number];

/** The centre of the bounding box of some positions; null when there are none. */
export function boxCentre(positions: Iterable<Position>): Position | null {
  let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
  for (const [lon, lat] of positions) {
    minLon = Math.min(minLon, lon); maxLon = Math.max(maxLon, lon);
    minLat = Math.min(minLat, lat); maxLat = Math.max(maxLat, lat);
  }
  return minLon === Infinity ? null : [(minLon + maxLon) / 2, (minLat + maxLat) / 2];
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function* geoJsonPositions(coordinates: unknown): Generator<Position> {
  if (!Array.isArray(coordinates)) return;
  if (isFiniteNumber(coordinates[0]) && isFiniteNumber(coordinates[1])) {
    yield [coordinates[0], coordinates[1]];
    return;
  }
  for (const inner of coordinates) yield* geoJsonPositions(inner);
}

interface GeoJsonGeometry { type?: string; coordinates?: unknown; geometries?: GeoJsonGeometry[] }

function* geometryPositions(geometry: GeoJsonGeometry): Generator<Position> {
  if (geometry.type === 'GeometryCollection') {
    for (const part of geometry.geometries ?? []) yield* geometryPositions(part);
  } else {
    yield* geoJsonPositions(geometry.coordinates);
  }
}

export function featureName(tags: Tags): string | undefined {
  for (const key of ['name', 'name:en', 'name:uz', 'name:ru']) {
    const value = tags[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** Collects points, counting what could not be placed or classified. */
export class PointCollector {
  readonly points: LayerPoint[] = [];
  features = 0;
  skipped = 0;

  constructor(private readonly options: LayerOptions) {}

  add(position: Position | null, category: Category | null, name: string | undefined): void {
    this.features++;
    if (position === null || category === null) {
      this.skipped++;
      return;
    }
    const [lon, lat] = position;
    this.points.push({ lon, lat, category, ...(name === undefined ? {} : { name }), source: this.options.id });
  }

  finish(format: LayerFormat, statedLicence: string | null, dataTimestamp: string | null): LoadedLayer {
    return { format, points: this.points, features: this.features, skipped: this.skipped, statedLicence, dataTimestamp };
  }

  categoryOf(tags: Tags): Category | null {
    const { category, keep } = this.options;
    if (category !== undefined) return keep === undefined || keep.includes(category) ? category : null;
    return categoryOfTags(tags, keep);
  }
}

function statedLicence(copyright: unknown): string | null {
  return typeof copyright === 'string' && /ODbL/i.test(copyright) ? 'ODbL (OpenStreetMap contributors)' : null;
}

interface GeoJsonCollection { type: 'FeatureCollection'; features: { properties?: Tags | null; geometry?: GeoJsonGeometry | null }[]; copyright?: unknown; timestamp?: unknown }

export function parseGeoJson(collection: GeoJsonCollection, options: LayerOptions): LoadedLayer {
  const collector = new PointCollector(options);
  for (const feature of collection.features) {
    const tags = feature.properties ?? {};
    const position = feature.geometry ? boxCentre(geometryPositions(feature.geometry)) : null;
    collector.add(position, collector.categoryOf(tags), featureName(tags));
  }
  const timestamp = typeof collection.timestamp === 'string' ? collection.timestamp : null;
  return collector.finish('geojson', statedLicence(collection.copyright), timestamp);
}

interface OverpassLatLon { lat: number; lon: number }
interface OverpassElement {
  type: 'node' | 'way' | 'relation';
  lat?: number; lon?: number;
  center?: OverpassLatLon;
  bounds?: { minlat: number; minlon: number; maxlat: number; maxlon: number };
  geometry?: (OverpassLatLon | null)[];
  tags?: Tags;
}
interface OverpassResult { elements: OverpassElement[]; osm3s?: { copyright?: unknown; timestamp_osm_base?: unknown } }

/** A node's own position; a way's or relation's `out center`, else its `out bb` or `out geom` box centre. */
function elementPosition(element: OverpassElement): Position | null {
  if (isFiniteNumber(element.lat) && isFiniteNumber(element.lon)) return [element.lon, element.lat];
  if (element.center) return [element.center.lon, element.center.lat];
  if (element.bounds) {
    const { minlat, minlon, maxlat, maxlon } = element.bounds;
    return [(minlon + maxlon) / 2, (minlat + maxlat) / 2];
  }
  const vertices = (element.geometry ?? []).filter((v): v is OverpassLatLon => v !== null);
  return boxCentre(vertices.map((v): Position => [v.lon, v.lat]));
}

export function parseOverpassJson(result: OverpassResult, options: LayerOptions): LoadedLayer {
  const collector = new PointCollector(options);
  for (const element of result.elements) {
    if (element.tags === undefined) continue; // member nodes of ways returned by recursion
    collector.add(elementPosition(element), collector.categoryOf(element.tags), featureName(element.tags));
  }
  const timestamp = result.osm3s?.timestamp_osm_base;
  return collector.finish('overpass-json', statedLicence(result.osm3s?.copyright), typeof timestamp === 'string' ? timestamp : null);
}

/** The first column whose header is one of the names, ignoring case. */
function column(headers: readonly string[], names: readonly string[]): string | undefined {
  return headers.find((header) => names.includes(header.trim().toLowerCase()));
}

/**
 * CSV with name, latitude and longitude columns, and a category column (Category, or type as in the
 * transit stops; values through ./categories.ts CSV_CATEGORY_COLUMNS) unless `options.category` is given.
 */
export function parseCsvPoints(text: string | Buffer, options: LayerOptions, file = 'CSV'): LoadedLayer {
  const rows = parse(text, { columns: true, bom: true, skip_empty_lines: true, skip_records_with_empty_values: true }) as Record<string, string>[];
  const headers = Object.keys(rows[0] ?? {});
  const latColumn = column(headers, ['latitude', 'lat']);
  const lonColumn = column(headers, ['longitude', 'lon', 'lng']);
  const nameColumn = column(headers, ['name']);
  const categoryColumn = CSV_CATEGORY_COLUMNS.flatMap(({ column: name, values }) => {
    const header = column(headers, [name]);
    return header === undefined ? [] : [{ header, values }];
  })[0];
  if (latColumn === undefined || lonColumn === undefined) {
    throw new UnsupportedLayerFormatError(file, 'a point CSV needs latitude and longitude columns');
  }
  if (categoryColumn === undefined && options.category === undefined) {
    throw new UnsupportedLayerFormatError(file, 'no Category column or type column: say which category every row is');
  }
  const collector = new PointCollector(options);
  for (const row of rows) {
    const lat = Number(row[latColumn]);
    const lon = Number(row[lonColumn]);
    const placed = row[latColumn].trim() !== '' && row[lonColumn].trim() !== '' && Number.isFinite(lat) && Number.isFinite(lon);
    const category = options.category !== undefined
      ? collector.categoryOf({})
      : categoryOfValue(categoryColumn!.values, row[categoryColumn!.header], options.keep);
    const name = nameColumn === undefined ? '' : row[nameColumn].trim();
    collector.add(placed ? [lon, lat] : null, category, name === '' ? undefined : name);
  }
  return collector.finish('csv', null, null);
}

/** Reads a layer file, telling the format from its name and content; a layer already read (`options.preloaded`, an OSM PBF) is returned as it is. */
export function loadLayer(file: string, options: LayerOptions): LoadedLayer {
  if (options.preloaded !== undefined) return options.preloaded;
  const name = basename(file).toLowerCase();
  if (name.endsWith('.pbf')) {
    throw new UnsupportedLayerFormatError(file, 'OpenStreetMap PBF needs a protocol-buffer OSM parser, which streams the file asynchronously: '
      + 'read it with readOsmPbf() (models/location/osm-pbf.ts), as the import command does, and pass the result as `preloaded`');
  }
  if (name.endsWith('.osm') || name.endsWith('.xml')) {
    throw new UnsupportedLayerFormatError(file, 'OSM XML is not read; ask Overpass for JSON ([out:json]) instead');
  }
  const bytes = readFileSync(file);
  if (name.endsWith('.csv')) return parseCsvPoints(bytes, options, file);
  const json = JSON.parse(bytes.toString('utf8')) as { type?: unknown; elements?: unknown };
  if (json.type === 'FeatureCollection' && Array.isArray((json as GeoJsonCollection).features)) {
    return parseGeoJson(json as GeoJsonCollection, options);
  }
  if (Array.isArray(json.elements)) return parseOverpassJson(json as OverpassResult, options);
  throw new UnsupportedLayerFormatError(file, 'neither a GeoJSON FeatureCollection nor an Overpass JSON result ({ elements: [...] })');
}
