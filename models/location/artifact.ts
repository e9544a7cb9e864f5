/**
 * The committed location artifact (models/artifacts/location/layers.json): every scored point grouped
 * by category, the listing points behind market liquidity, the district polygons, and where each
 * layer came from. Everything the index needs at run time, so serving reads no raw data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListingSource } from '../ingest/record';
import type { DistrictId } from '../vocabulary';
import { ARTIFACTS_DIR } from '../paths';
import type { LayerCoverage } from './catalogue';
import type { Category } from './categories';
import type { LayerFormat } from './layers';

export const ARTIFACT_FORMAT = 'tashkent-location-layers/1';
export const DEFAULT_ARTIFACT_PATH = join(ARTIFACTS_DIR, 'location', 'layers.json');
/** Coordinates are rounded to 1e-6° (about 0.1 m): finer than any source is accurate. */
export const COORDINATE_DECIMALS = 6;

export interface LayerProvenance {
  id: string;
  /** Relative to the project root when inside it. */
  file: string;
  sha256: string;
  format: LayerFormat;
  licence: string;
  /** The extraction time the file states (OpenStreetMap exports), or null. */
  dataTimestamp: string | null;
  features: number;
  /** Features with no scored category or no location. */
  skipped: number;
  /** Features at the same rounded point and category as one already kept (the sources repeat some places). */
  duplicates: number;
  /** Points kept, per category. */
  points: Partial<Record<Category, number>>;
  coverage: LayerCoverage;
  completeIn?: DistrictId[];
  note: string;
}

/** [lon, lat, index of the layer in `layers`, name when the source has one] */
export type ArtifactPoint = [number, number, number] | [number, number, number, string];

/** [lon, lat, listings at that point]: geocodes repeat, so listings are counted per point. */
export type ListingPoint = [number, number, number];

export interface ListingLayer {
  /** The data snapshot the listings were ingested from (data/README.md). */
  snapshot: string;
  /** Listings with coordinates, per ingestion source. */
  records: Partial<Record<ListingSource, number>>;
  licence: string;
  coverage: LayerCoverage;
  note: string;
  points: ListingPoint[];
}

export interface DistrictPolygon {
  id: DistrictId;
  /** As the source names it. */
  name: string;
  /** A GeoJSON MultiPolygon whose rings are flattened to [lon, lat, lon, lat, …]. */
  polygons: number[][][];
}

export interface DistrictLayer {
  file: string;
  sha256: string;
  licence: string;
  districts: DistrictPolygon[];
}

export interface LayersArtifact {
  format: typeof ARTIFACT_FORMAT;
  coordinateDecimals: number;
  layers: LayerProvenance[];
  points: Partial<Record<Category, ArtifactPoint[]>>;
  listings: ListingLayer;
  districts: DistrictLayer;
}

export const roundCoordinate = (value: number): number => Number(value.toFixed(COORDINATE_DECIMALS));

const isPrimitive = (value: unknown): boolean => value === null || typeof value !== 'object';

/** JSON with one line per point, ring or short list, so the file diffs by feature and stays small. */
function compactJson(value: unknown, indent: string): string {
  if (isPrimitive(value)) return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every(isPrimitive)) return JSON.stringify(value);
    return `[\n${value.map((item) => inner + compactJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, v]) => `${inner}${JSON.stringify(key)}: ${compactJson(v, inner)}`).join(',\n')}\n${indent}}`;
}

export function serialiseArtifact(artifact: LayersArtifact): string {
  return `${compactJson(artifact, '')}\n`;
}

export function readArtifact(path: string = DEFAULT_ARTIFACT_PATH): LayersArtifact {
  const artifact = JSON.parse(readFileSync(path, 'utf8')) as LayersArtifact;
  if (artifact.format !== ARTIFACT_FORMAT) {
    throw new Error(`${path}: format ${JSON.stringify(artifact.format)}, expected ${ARTIFACT_FORMAT}: rebuild it with the location import command`);
  }
  return artifact;
}
