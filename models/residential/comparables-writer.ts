/**
 * Training side of the comparables (./comparables.ts): the flats the residential model trains on, as
 * the compact column table serving reads. Written by `npm run comparables` (./comparables-cli.ts) and
 * at the end of `npm run train` for residential (tools/models/residential/train-cli.ts), from the same ingestion as training
 * (trainingRecords: every listing file, price fences on) less the houses. An organisation's
 * observations never enter it: they are that organisation's, and the table answers every client;
 * nor do the collected listings (../ingest/collected-homes.ts): the table is the data snapshot's.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { dataSnapshot, type DataSnapshot, type ListingRecord, type ListingSource } from '../ingest';
import { COLLECTED_SOURCES } from '../ingest/collected-homes';
import { CODED_COLUMNS, COMPARABLES_FORMAT, COMPARABLES_PATH, NUMERIC_COLUMNS, type CodedColumn, type ComparablesFile, type ComparableRow } from './comparables';
import { SOURCE_GROUPS, trainingRecords } from './train';

/** The listing files whose flats are comparables: the training sources less an organisation's observations. */
export const COMPARABLE_SOURCES: readonly string[] = Object.keys(SOURCE_GROUPS).filter((s) => s !== 'observations' && !COLLECTED_SOURCES.includes(s as ListingSource));

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A training flat as the table keeps it (coordinates to 4 decimals, about 10 m; area to 0.01 m²; price to 1 USD). */
export function comparableRow(r: ListingRecord): ComparableRow {
  const point = r.lat !== null && r.lon !== null;
  return {
    source: SOURCE_GROUPS[r.source],
    period: r.period,
    district: r.district,
    mahallaId: r.mahallaId,
    lat: point ? round(r.lat!, 4) : null,
    lon: point ? round(r.lon!, 4) : null,
    area: round(r.area, 2),
    rooms: r.rooms,
    floor: r.floor,
    totalFloors: r.totalFloors,
    market: r.market,
    renovation: r.renovation,
    buildingType: r.buildingType,
    priceUsd: Math.round(r.priceUsd),
  };
}

/** The flats among ingested records that the residential model trains on (its toDataset filter), less observations. */
export function comparableRecords(records: readonly ListingRecord[]): ListingRecord[] {
  return records.filter((r) => r.propertyType === 'apartment' && COMPARABLE_SOURCES.includes(r.source));
}

/** Rows → the file: text columns coded against sorted code lists, so the same rows give the same bytes. */
export function comparablesFile(rows: readonly ComparableRow[], snapshot: DataSnapshot): ComparablesFile {
  const codes = Object.fromEntries(CODED_COLUMNS.map((name) => [name, [...new Set(rows.map((r) => r[name]).filter((v): v is string => v !== null))].sort()])) as Record<CodedColumn, string[]>;
  const lookup = Object.fromEntries(CODED_COLUMNS.map((name) => [name, new Map(codes[name].map((v, i) => [v, i]))])) as Record<CodedColumn, Map<string, number>>;
  const columns = Object.fromEntries([
    ...CODED_COLUMNS.map((name) => [name, rows.map((r) => (r[name] === null ? null : lookup[name].get(r[name] as string)!))]),
    ...NUMERIC_COLUMNS.map((name) => [name, rows.map((r) => r[name])]),
  ]) as ComparablesFile['columns'];
  return {
    format: COMPARABLES_FORMAT,
    description: 'The Tashkent flats the residential model trains on (every listing file after ingestion with price fences), as comparable listings: one array per column, row i across them; text columns are indexes into codes[column], null = unknown.',
    generatedBy: 'npm run comparables (tools/models/residential/comparables-cli.ts), or npm run train for residential',
    dataSnapshot: snapshot,
    rows: rows.length,
    codes,
    columns,
  };
}

/** One line per column, so a diff shows which columns changed. */
export function serialiseComparables(file: ComparablesFile): string {
  const { codes, columns, ...head } = file;
  const block = (obj: Record<string, unknown>) => `{\n${Object.entries(obj).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n }`;
  const headLines = Object.entries(head).map(([k, v]) => ` ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{\n${[...headLines, ` "codes": ${block(codes)}`, ` "columns": ${block(columns)}`].join(',\n')}\n}\n`;
}

/** Ingests the listings as training does and writes the table (atomically); returns its path, rows and bytes. */
export function writeComparables(path = COMPARABLES_PATH): { path: string; rows: number; bytes: number; dataSnapshot: string } {
  const { records } = trainingRecords({});
  const file = comparablesFile(comparableRecords(records).map(comparableRow), dataSnapshot());
  const text = serialiseComparables(file);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
  return { path, rows: file.rows, bytes: Buffer.byteLength(text), dataSnapshot: file.dataSnapshot.id };
}
