/**
 * De-duplication: exact repeats within a file, and the same flat in several scrapes.
 *
 * Across sources the same flat reappears with small differences (a re-measured area, a price cut),
 * so a match is: same property type, district, rooms, floor and floors; area within 2%; price within
 * 5%; scrapes at most 18 months apart; and no contradiction in mahalla, building type or renovation
 * where both records know them. Of a matched group the most complete record is kept, then the most
 * recent, then the earlier source in SOURCE_FILES, then the earlier row: deterministic.
 */
import type { Candidate, Split } from './candidate';
import type { ListingRecord, ListingSource } from './record';
import { SOURCE_FILES } from './sources';

export const CROSS_SOURCE_MATCH = {
  areaTolerance: 0.02,
  priceTolerance: 0.05,
  maxPeriodGapMonths: 18,
} as const;

/** Everything but the row number: two rows of one file with this key equal are one listing. */
function contentKey(record: ListingRecord): string {
  const { sourceRow: _row, ...content } = record;
  return JSON.stringify(content);
}

/** Keeps the first of each set of identical records within a source (rows that differ only in dropped text collapse too). */
export function dropExactDuplicates<T extends Candidate>(candidates: readonly T[]): Split<T> {
  const seen = new Set<string>();
  const split: Split<T> = { kept: [], dropped: [] };
  for (const candidate of candidates) {
    const key = contentKey(candidate.record);
    (seen.has(key) ? split.dropped : split.kept).push(candidate);
    seen.add(key);
  }
  return split;
}

const OPTIONAL_FIELDS = [
  'mahallaId', 'rooms', 'floor', 'totalFloors', 'landAreaSotka', 'renovation', 'buildingType',
  'furniture', 'bathroom', 'market', 'seller', 'amenities', 'lat',
] as const satisfies readonly (keyof ListingRecord)[];

export function completeness(record: ListingRecord): number {
  return OPTIONAL_FIELDS.filter((field) => record[field] !== null).length;
}

const SOURCE_ORDER = new Map(SOURCE_FILES.map((file, index) => [file.source, index]));

/** Most complete, then most recent, then source order, then row. */
function preferenceOrder(a: ListingRecord, b: ListingRecord): number {
  return (
    completeness(b) - completeness(a) ||
    b.period.localeCompare(a.period) ||
    (SOURCE_ORDER.get(a.source) ?? 0) - (SOURCE_ORDER.get(b.source) ?? 0) ||
    a.sourceRow - b.sourceRow
  );
}

function monthIndex(period: string): number {
  const [year, month] = period.split('-').map(Number);
  return year * 12 + month;
}

function relativeGap(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(a, b);
}

function compatible<V>(a: V | null, b: V | null): boolean {
  return a === null || b === null || a === b;
}

/** How far apart two records are, or null when they cannot be the same flat. */
function matchDistance(a: ListingRecord, b: ListingRecord): number | null {
  const areaGap = relativeGap(a.area, b.area);
  const priceGap = relativeGap(a.priceUsd, b.priceUsd);
  const sameFlat =
    areaGap <= CROSS_SOURCE_MATCH.areaTolerance &&
    priceGap <= CROSS_SOURCE_MATCH.priceTolerance &&
    Math.abs(monthIndex(a.period) - monthIndex(b.period)) <= CROSS_SOURCE_MATCH.maxPeriodGapMonths &&
    compatible(a.mahallaId, b.mahallaId) &&
    compatible(a.buildingType, b.buildingType) &&
    compatible(a.renovation, b.renovation);
  return sameFlat ? areaGap + priceGap : null;
}

function blockKey(record: ListingRecord): string {
  return [record.propertyType, record.district, record.rooms, record.floor, record.totalFloors].join('|');
}

interface Cluster<T extends Candidate> {
  kept: T;
  sources: Set<ListingSource>;
}

export interface CrossSourceMerge<T extends Candidate = Candidate> {
  dropped: T;
  keptIn: T;
}

/**
 * Greedy in preference order: each record joins the closest matching kept record, unless that
 * group already holds a record from its source (one file lists a flat once; two similar flats
 * in one file are two flats).
 */
export function mergeAcrossSources<T extends Candidate>(candidates: readonly T[]): { kept: T[]; merges: CrossSourceMerge<T>[] } {
  const ordered = [...candidates].sort((a, b) => preferenceOrder(a.record, b.record));
  const clustersByBlock = new Map<string, Cluster<T>[]>();
  const kept: T[] = [];
  const merges: CrossSourceMerge<T>[] = [];
  for (const candidate of ordered) {
    const key = blockKey(candidate.record);
    const clusters = clustersByBlock.get(key) ?? [];
    let best: { cluster: Cluster<T>; distance: number } | null = null;
    for (const cluster of clusters) {
      if (cluster.sources.has(candidate.record.source)) continue;
      const distance = matchDistance(cluster.kept.record, candidate.record);
      if (distance !== null && (best === null || distance < best.distance)) best = { cluster, distance };
    }
    if (best) {
      best.cluster.sources.add(candidate.record.source);
      merges.push({ dropped: candidate, keptIn: best.cluster.kept });
    } else {
      clusters.push({ kept: candidate, sources: new Set([candidate.record.source]) });
      clustersByBlock.set(key, clusters);
      kept.push(candidate);
    }
  }
  return { kept, merges };
}
