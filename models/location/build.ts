/**
 * Building the location artifact from layer files, listing records and the district boundaries.
 * Deterministic: the same inputs give the same bytes (no clock, sorted output), so the committed
 * artifact can be checked by rebuilding it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { ingestListings, type ListingRecord } from '../ingest';
import { PROJECT_ROOT } from '../paths';
import {
  ARTIFACT_FORMAT, COORDINATE_DECIMALS, roundCoordinate,
  type ArtifactPoint, type DistrictLayer, type LayerProvenance, type LayersArtifact, type ListingLayer, type ListingPoint,
} from './artifact';
import { LISTINGS_LAYER, SHIPPED_DISTRICTS, SHIPPED_LAYERS, type LayerSpec } from './catalogue';
import type { Category } from './categories';
import { districtPolygonsFromGeoJson } from './districts';
import { loadLayer } from './layers';

const absolute = (file: string): string => (isAbsolute(file) ? file : join(PROJECT_ROOT, file));

/** The path as recorded in the artifact: relative to the project root when inside it, '/'-separated. */
function recordedPath(file: string): string {
  const path = relative(PROJECT_ROOT, absolute(file));
  return (path.startsWith('..') || isAbsolute(path) ? absolute(file) : path).split(sep).join('/');
}

const sha256Of = (file: string): string => createHash('sha256').update(readFileSync(absolute(file))).digest('hex');

/** Code-unit order: the same on every machine, whatever its locale. */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function comparePoints(a: ArtifactPoint, b: ArtifactPoint): number {
  return compareNumbers(a.slice(0, 3) as number[], b.slice(0, 3) as number[]) || byCodeUnit(a[3] ?? '', b[3] ?? '');
}

/** Every layer's points, rounded and grouped by category; a point repeating one already kept (same category and place) is dropped and counted. */
function layerPoints(specs: readonly LayerSpec[]): { layers: LayerProvenance[]; points: LayersArtifact['points'] } {
  const grouped = new Map<Category, ArtifactPoint[]>();
  const seen = new Set<string>();
  const layers = specs.map((spec, layerIndex): LayerProvenance => {
    const loaded = loadLayer(absolute(spec.file), spec);
    const kept: Partial<Record<Category, number>> = {};
    let duplicates = 0;
    for (const point of loaded.points) {
      const lon = roundCoordinate(point.lon);
      const lat = roundCoordinate(point.lat);
      const key = `${point.category} ${lon} ${lat}`;
      if (seen.has(key)) {
        duplicates++;
        continue;
      }
      seen.add(key);
      const entry: ArtifactPoint = point.name === undefined ? [lon, lat, layerIndex] : [lon, lat, layerIndex, point.name];
      const list = grouped.get(point.category) ?? [];
      list.push(entry);
      grouped.set(point.category, list);
      kept[point.category] = (kept[point.category] ?? 0) + 1;
    }
    return {
      id: spec.id,
      file: recordedPath(spec.file),
      sha256: sha256Of(spec.file),
      format: loaded.format,
      licence: spec.licence ?? loaded.statedLicence ?? 'not stated',
      dataTimestamp: loaded.dataTimestamp,
      features: loaded.features,
      skipped: loaded.skipped,
      duplicates,
      points: Object.fromEntries(Object.entries(kept).sort(([a], [b]) => byCodeUnit(a, b))),
      coverage: spec.coverage,
      ...(spec.completeIn === undefined ? {} : { completeIn: [...spec.completeIn] }),
      note: spec.note,
    };
  });
  const points = Object.fromEntries([...grouped].sort(([a], [b]) => byCodeUnit(a, b)).map(([category, list]) => [category, list.sort(comparePoints)]));
  return { layers, points };
}

type LocatedRecord = Pick<ListingRecord, 'source' | 'lat' | 'lon'>;

/** Listing coordinates only (no prices), counted per rounded point. */
export function listingLayer(records: readonly LocatedRecord[], snapshot: string): ListingLayer {
  const counts = new Map<string, ListingPoint>();
  const perSource: ListingLayer['records'] = {};
  for (const { source, lat, lon } of records) {
    if (lat === null || lon === null) continue;
    const rounded: [number, number] = [roundCoordinate(lon), roundCoordinate(lat)];
    const key = rounded.join(' ');
    const point: ListingPoint = counts.get(key) ?? [...rounded, 0];
    point[2]++;
    counts.set(key, point);
    perSource[source] = (perSource[source] ?? 0) + 1;
  }
  return {
    snapshot,
    records: Object.fromEntries(Object.entries(perSource).sort(([a], [b]) => byCodeUnit(a, b))),
    ...LISTINGS_LAYER,
    points: [...counts.values()].sort(compareNumbers),
  };
}

export function districtLayer(file: string, licence: string): DistrictLayer {
  const collection = JSON.parse(readFileSync(absolute(file), 'utf8'));
  return { file: recordedPath(file), sha256: sha256Of(file), licence, districts: districtPolygonsFromGeoJson(collection) };
}

export interface ArtifactInputs {
  layers: readonly LayerSpec[];
  listings: ListingLayer;
  districts: DistrictLayer;
}

export function buildArtifact(inputs: ArtifactInputs): LayersArtifact {
  return {
    format: ARTIFACT_FORMAT,
    coordinateDecimals: COORDINATE_DECIMALS,
    ...layerPoints(inputs.layers),
    listings: inputs.listings,
    districts: inputs.districts,
  };
}

/** The shipped artifact: the data/geo layers of the catalogue, plus `extraLayers` (imports) after them. */
export function buildShippedArtifact(extraLayers: readonly LayerSpec[] = []): LayersArtifact {
  const { records, report } = ingestListings();
  const replaced = new Set(extraLayers.map((layer) => layer.id));
  return buildArtifact({
    layers: [...SHIPPED_LAYERS.filter((layer) => !replaced.has(layer.id)), ...extraLayers],
    listings: listingLayer(records, report.snapshot.id),
    districts: districtLayer(SHIPPED_DISTRICTS.file, SHIPPED_DISTRICTS.licence),
  });
}
