/**
 * Comparable listings for a flat (issue 19): the training flats nearest to it in features and place,
 * in its district, each with its asking price brought to the valuation date by the market index of
 * the model in service.
 *
 * The table is `models/artifacts/residential/comparables.json`, written by training
 * (./comparables-writer.ts: `npm run comparables`, and `npm run train` for residential). It does not
 * belong to a model version: it is the ingested listings of one data snapshot (its id is in the
 * file), read once, lazily, on the first question. Serving code: it reads the file and imports no
 * trainer.
 *
 * Houses have no comparables here (the house listings are not in the table): the runtime answers []
 * for a house.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from '../paths';
import { periodIndex } from '../ensemble/encoding';
import type { BuildingType, DistrictId, Market, Renovation } from '../vocabulary/codes';
import type { FeatureSource } from './features';
import { logLevelAt, type MarketIndex } from './market-index';
import { distance } from '../location/kdbush-esm';

/** The committed table (version-independent: beside the residential versions, not in one). */
export const COMPARABLES_PATH = join(ARTIFACTS_DIR, 'residential', 'comparables.json');
export const COMPARABLES_FORMAT = 'residential-comparables/1';

/**
 * The file: one array per column, row i across them. Text columns hold an index into `codes[column]`
 * (null = unknown); numbers as listed (area to 0.01 m², price to 1 USD, coordinates to 4 decimals,
 * about 10 m). No free text, no seller, no personal data: only what ingestion keeps and the models read.
 */
export interface ComparablesFile {
  format: typeof COMPARABLES_FORMAT;
  description: string;
  generatedBy: string;
  /** The data snapshot the rows were ingested from (models/ingest dataSnapshot()). */
  dataSnapshot: { id: string; files: { path: string; sha256: string; rows: number }[] };
  rows: number;
  codes: Record<CodedColumn, string[]>;
  columns: Record<CodedColumn, (number | null)[]> & Record<NumericColumn, (number | null)[]>;
}

export const CODED_COLUMNS = ['source', 'period', 'district', 'mahallaId', 'market', 'renovation', 'buildingType'] as const;
export const NUMERIC_COLUMNS = ['lat', 'lon', 'area', 'rooms', 'floor', 'totalFloors', 'priceUsd'] as const;
export type CodedColumn = (typeof CODED_COLUMNS)[number];
export type NumericColumn = (typeof NUMERIC_COLUMNS)[number];

/** What a listing and a request both say about a flat (the features' fields; missing = null). */
type FlatFields = Pick<FeatureSource, 'district' | 'mahallaId' | 'lat' | 'lon' | 'area' | 'rooms' | 'floor' | 'totalFloors' | 'market' | 'renovation' | 'buildingType'>;

/**
 * One training flat as the table keeps it: its point is the listing's own (else null: a mahalla
 * centre is not stored, the serving side looks it up).
 */
export interface ComparableRow extends FlatFields {
  /** The source group (one site's scrape of one season), e.g. 'uybor 2026-07'. */
  source: string;
  /** 'YYYY-MM': when the price was asked. */
  period: string;
  /** The asking price as listed (USD, in its period). */
  priceUsd: number;
}

/** What the comparables are found for: a flat request's fields (models/residential ApartmentRequest has them). */
export interface ComparableRequest extends Omit<FlatFields, 'rooms' | 'floor' | 'totalFloors'> {
  rooms: number;
  floor: number;
  totalFloors: number;
}

/** One comparable, best first: the row less its point. */
export interface ComparableListing extends Omit<ComparableRow, 'lat' | 'lon'> {
  /** The asking price × the market index's change from the listing month to the valuation month (USD, to 100). */
  priceAtValuationDateUsd: number;
  /** Great-circle km between the two points used for place (see comparableScore); null when either has none. */
  distanceKm: number | null;
  /** The distance of comparableScore (lower = closer), to 3 decimals. */
  score: number;
}

/**
 * Weights of the comparable distance, set a priori (not tuned on any data): one unit is about what
 * a 15% difference in area is worth. Unknown on either side counts half of a difference.
 */
export const COMPARABLE_WEIGHTS = {
  /** |ln(area/area′)| is divided by this: 15% larger or smaller costs 1. */
  areaLogScale: 0.15,
  /** Per room of difference (a listing without rooms: half of one room). */
  room: 0.5,
  /** Per floor of difference, counted up to MAX_FLOOR_GAP floors (so at most 0.2). */
  floor: 0.02,
  /** One of the two on the ground floor and the other not (ground floors sell at a discount). */
  groundFloor: 0.2,
  /** × |ln(totalFloors/totalFloors′)|: a 5-storey block against a 9-storey one costs 0.18, against a 16-storey one 0.35. */
  buildingHeight: 0.3,
  /** New build against resale. */
  market: 0.3,
  /** Different renovation levels. */
  renovation: 0.2,
  /** Different building types (panel, brick, monolith, …). */
  buildingType: 0.1,
  /** km between the two points are divided by this: 1.5 km costs 1. */
  placeKm: 1.5,
  /**
   * No two points to measure and not the same known mahalla: as if 1.5 km away (two flats of one
   * district are typically 2–4 km apart), so a listing placed within 1.5 km still ranks ahead of
   * one whose place is unknown.
   */
  placeUnknown: 1,
  /** Per year between the listing month and the valuation month (the index carries the price, not the flat's details). */
  ageYear: 0.1,
} as const;
const MAX_FLOOR_GAP = 10;
export const DEFAULT_COMPARABLES = 5;

/** The table decoded, its rows by district. */
export class ComparablesTable {
  private readonly byDistrict = new Map<DistrictId, ComparableRow[]>();

  constructor(readonly dataSnapshotId: string, readonly rows: readonly ComparableRow[]) {
    for (const row of rows) {
      const list = this.byDistrict.get(row.district);
      if (list) list.push(row);
      else this.byDistrict.set(row.district, [row]);
    }
  }

  static fromFile(file: ComparablesFile): ComparablesTable {
    if (file.format !== COMPARABLES_FORMAT) throw new Error(`comparables table: format ${String(file.format)}, expected ${COMPARABLES_FORMAT}`);
    const { codes, columns } = file;
    for (const name of [...CODED_COLUMNS, ...NUMERIC_COLUMNS]) {
      if (columns[name]?.length !== file.rows) throw new Error(`comparables table: column ${name} has ${columns[name]?.length ?? 0} values, not ${file.rows}`);
    }
    const code = (name: CodedColumn, i: number): string | null => {
      const k = columns[name][i];
      return k === null ? null : codes[name][k];
    };
    const rows: ComparableRow[] = new Array(file.rows);
    for (let i = 0; i < file.rows; i++) {
      rows[i] = {
        source: code('source', i)!,
        period: code('period', i)!,
        district: code('district', i) as DistrictId,
        mahallaId: code('mahallaId', i),
        lat: columns.lat[i],
        lon: columns.lon[i],
        area: columns.area[i]!,
        rooms: columns.rooms[i],
        floor: columns.floor[i],
        totalFloors: columns.totalFloors[i],
        market: code('market', i) as Market | null,
        renovation: code('renovation', i) as Renovation | null,
        buildingType: code('buildingType', i) as BuildingType | null,
        priceUsd: columns.priceUsd[i]!,
      };
    }
    return new ComparablesTable(file.dataSnapshot.id, rows);
  }

  inDistrict(district: DistrictId): readonly ComparableRow[] {
    return this.byDistrict.get(district) ?? [];
  }
}

const loaded = new Map<string, ComparablesTable>();

/** The table at `path` (default: the committed one), read and decoded on first use, then kept. */
export function comparablesTable(path = COMPARABLES_PATH): ComparablesTable {
  let table = loaded.get(path);
  if (!table) {
    table = ComparablesTable.fromFile(JSON.parse(readFileSync(path, 'utf8')) as ComparablesFile);
    loaded.set(path, table);
  }
  return table;
}

export interface ComparablesOptions {
  /** Mahalla centres [lat, lon] (the manifest's FeatureEncoding.mahallaCentres): the point of a flat without its own. */
  mahallaCentres?: Readonly<Record<string, readonly [number, number]>>;
  /** Default: the committed table (comparablesTable()). */
  table?: ComparablesTable;
}

type Point = readonly [number, number];

/** A flat's point: its own coordinates, else its mahalla's centre, else none. */
function pointOf(flat: { lat: number | null; lon: number | null; mahallaId: string | null }, centres: ComparablesOptions['mahallaCentres']): Point | null {
  if (flat.lat !== null && flat.lon !== null) return [flat.lat, flat.lon];
  return (flat.mahallaId && centres?.[flat.mahallaId]) || null;
}

/** Great-circle distance in km between two [lat, lon] points: the location index's own (geokdbush). */
export function greatCircleKm(a: Point, b: Point): number {
  return distance(a[1], a[0], b[1], b[0]);
}

/** w when both are known and differ, w/2 when either is unknown, 0 when equal. */
function mismatch<T>(a: T | null, b: T | null, w: number): number {
  if (a === null || b === null) return w / 2;
  return a === b ? 0 : w;
}

/**
 * The comparable distance between a request and a training flat (lower = closer), with the weights
 * of COMPARABLE_WEIGHTS (W):
 *
 *   |ln(area/area′)| / 0.15
 *   + 0.5 · |rooms − rooms′|                                  (rooms unknown: 0.25)
 *   + 0.02 · min(|floor − floor′|, 10) + 0.2 · [exactly one on the ground floor]
 *   + 0.3 · |ln(totalFloors/totalFloors′)|
 *   + 0.3 · [market differs] + 0.2 · [renovation differs] + 0.1 · [building type differs]   (unknown: half)
 *   + place: great-circle km / 1.5 when both have a point (own coordinates, else the mahalla's centre),
 *            else 0 in the same (known) mahalla and 1 otherwise
 *   + 0.1 · years between the listing month and the valuation month.
 *
 * Floor and building terms skip what the listing does not say. Candidates are the district's only.
 */
export function comparableScore(request: ComparableRequest, row: ComparableRow, requestPoint: Point | null, valuationMonth: number, centres?: ComparablesOptions['mahallaCentres']): { score: number; distanceKm: number | null } {
  const W = COMPARABLE_WEIGHTS;
  let score = Math.abs(Math.log(request.area / row.area)) / W.areaLogScale;
  score += row.rooms === null ? W.room / 2 : W.room * Math.abs(request.rooms - row.rooms);
  if (row.floor !== null) {
    score += W.floor * Math.min(Math.abs(request.floor - row.floor), MAX_FLOOR_GAP);
    if ((request.floor === 1) !== (row.floor === 1)) score += W.groundFloor;
  }
  if (row.totalFloors !== null && row.totalFloors > 0) score += W.buildingHeight * Math.abs(Math.log(request.totalFloors / row.totalFloors));
  score += mismatch(request.market, row.market, W.market);
  score += mismatch(request.renovation, row.renovation, W.renovation);
  score += mismatch(request.buildingType, row.buildingType, W.buildingType);
  const rowPoint = pointOf(row, centres);
  let distanceKm: number | null = null;
  if (requestPoint && rowPoint) {
    distanceKm = greatCircleKm(requestPoint, rowPoint);
    score += distanceKm / W.placeKm;
  } else {
    score += request.mahallaId !== null && request.mahallaId === row.mahallaId ? 0 : W.placeUnknown;
  }
  score += (W.ageYear * Math.abs(valuationMonth - periodIndex(row.period))) / 12;
  return { score, distanceKm };
}

/** The listing's asking price brought from its month to the valuation month by the index (its district's zone, its segment). */
export function priceAtValuationDate(index: MarketIndex, row: Pick<ComparableRow, 'district' | 'market' | 'period' | 'priceUsd'>, valuationPeriod: string): number {
  return row.priceUsd * Math.exp(logLevelAt(index, row.district, row.market, valuationPeriod) - logLevelAt(index, row.district, row.market, row.period));
}

/**
 * The `n` training flats of the request's district nearest by comparableScore, best first (ties in
 * table order: deterministic), each with its price brought to `valuationDate` ('YYYY-MM-DD') by `index`.
 */
export function nearestComparables(request: ComparableRequest, valuationDate: string, index: MarketIndex, n = DEFAULT_COMPARABLES, options: ComparablesOptions = {}): ComparableListing[] {
  if (n <= 0) return [];
  const table = options.table ?? comparablesTable();
  const centres = options.mahallaCentres;
  const valuationPeriod = valuationDate.slice(0, 7);
  const valuationMonth = periodIndex(valuationPeriod);
  const requestPoint = pointOf(request, centres);
  // The best n so far, kept sorted (n is small: an insertion per better candidate).
  const best: { row: ComparableRow; score: number; distanceKm: number | null }[] = [];
  for (const row of table.inDistrict(request.district)) {
    const { score, distanceKm } = comparableScore(request, row, requestPoint, valuationMonth, centres);
    if (best.length === n && score >= best[n - 1].score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].score > score) at--;
    best.splice(at, 0, { row, score, distanceKm });
    if (best.length > n) best.pop();
  }
  // The listing's own point stays in the table: the answer says how far, not where.
  return best.map(({ row: { lat: _lat, lon: _lon, ...listing }, score, distanceKm }) => ({
    ...listing,
    priceAtValuationDateUsd: Math.round(priceAtValuationDate(index, listing, valuationPeriod) / 100) * 100,
    distanceKm: distanceKm === null ? null : Math.round(distanceKm * 100) / 100,
    score: Math.round(score * 1000) / 1000,
  }));
}
