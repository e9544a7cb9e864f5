/**
 * The collected homes export (`npm run collect -- --export`, platform/collect/training-export.ts) as
 * a training source: `<collect folder>/exports/collected-homes-<day>.ndjson`, one canonical record a
 * line (./collectors/training-records.ts), sources `uybor_collected` and `olx_collected`, each dated
 * by the month its listing was last seen. `npm run train` reads the newest export of the collect
 * folder when there is one (tools/models/train-cli.ts); without one, training reads the listing files alone,
 * exactly as before.
 *
 * The records were built by the collectors through the ingestion's row cleaning; here each line is
 * checked again against the record's shape (a file edited by hand, or cut short, stops the run
 * before any training) and against cleanRecord's limits.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { valuationHome } from '../paths';
import { DISTRICT_IDS } from '../vocabulary/codes';
import { cleanRecord } from './clean';
import { countByPeriod } from './period-counts';
import type { DropReason } from './reasons';
import type { ListingRecord, ListingSource } from './record';

export const COLLECTED_SOURCES: readonly ListingSource[] = ['uybor_collected', 'olx_collected'];

/** What `npm run train` took from an export: the manifest's record of the source. */
export interface CollectedSourceReport {
  file: string;
  sha256: string;
  lines: number;
  kept: number;
  bySource: Partial<Record<ListingSource, number>>;
  dropped: Partial<Record<DropReason, number>>;
  /** 'YYYY-MM' of the oldest and newest kept. */
  periods: { from: string; to: string } | null;
}

export interface CollectedHomes {
  records: ListingRecord[];
  report: CollectedSourceReport;
}

/** The collect folder as the collector chooses it: COLLECT_DIR, else <VALUATION_HOME>/collect (VALUATION_HOME defaults to .local in the project). */
export function collectDirectoryOf(env: NodeJS.ProcessEnv = process.env): string {
  return env.COLLECT_DIR || join(valuationHome(env), 'collect');
}

/** What the collector exports for training: collected-<kind>-<day>.ndjson in the collect folder's exports/. */
export type CollectedExportKind = 'homes' | 'cars';
const EXPORT_FILES: Record<CollectedExportKind, RegExp> = {
  homes: /^collected-homes-\d{4}-\d{2}-\d{2}\.ndjson$/,
  cars: /^collected-cars-\d{4}-\d{2}-\d{2}\.ndjson$/,
};

/** Whether a file is a collected export of `kind`, by its name. */
export const isCollectedExport = (file: string, kind: CollectedExportKind): boolean => EXPORT_FILES[kind].test(file.split(/[\\/]/).pop() ?? '');

/** The newest collected export of `kind` in a collect folder (its name sorts by its day); null when there is none. */
export function newestCollectedExport(collectDirectory: string, kind: CollectedExportKind): string | null {
  const folder = join(collectDirectory, 'exports');
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return null;
  }
  const exports = names.filter((name) => EXPORT_FILES[kind].test(name)).sort();
  return exports.length ? join(folder, exports[exports.length - 1]) : null;
}

/** The newest collected-homes export of a collect folder; null when there is none. */
export const newestCollectedHomesExport = (collectDirectory: string): string | null => newestCollectedExport(collectDirectory, 'homes');

function checkedRecord(value: unknown, where: string): ListingRecord {
  const r = value as Partial<ListingRecord> | null;
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return fail('not a record');
  if (!COLLECTED_SOURCES.includes(r.source as ListingSource)) fail(`source must be one of ${COLLECTED_SOURCES.join(', ')}`);
  if (typeof r.period !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(r.period)) fail('period must be YYYY-MM');
  if (r.propertyType !== 'apartment' && r.propertyType !== 'house') fail('propertyType must be apartment or house');
  if (!DISTRICT_IDS.includes(r.district as never)) fail('unknown district');
  for (const field of ['priceUsd', 'area'] as const) if (typeof r[field] !== 'number' || !Number.isFinite(r[field]) || r[field]! <= 0) fail(`${field} must be a positive number`);
  return r as ListingRecord;
}

/** Reads an export: its records (renumbered by line), checked; a malformed line throws with its line number. */
export function readCollectedHomes(file: string): CollectedHomes {
  const bytes = readFileSync(file);
  const lines = bytes.toString('utf8').split('\n').filter((line) => line.trim() !== '');
  const records: ListingRecord[] = [];
  const dropped: Partial<Record<DropReason, number>> = {};
  const bySource: Partial<Record<ListingSource, number>> = {};
  lines.forEach((line, i) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new Error(`${file} line ${i + 1}: not JSON`);
    }
    const record = { ...checkedRecord(parsed, `${file} line ${i + 1}`), sourceRow: i + 1 };
    const cleaned = cleanRecord(record);
    if ('drop' in cleaned) {
      dropped[cleaned.drop] = (dropped[cleaned.drop] ?? 0) + 1;
      return;
    }
    records.push(cleaned.record);
    bySource[record.source] = (bySource[record.source] ?? 0) + 1;
  });
  const { first, last } = countByPeriod(records);
  return {
    records,
    report: {
      file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      lines: lines.length,
      kept: records.length,
      bySource,
      dropped,
      periods: first && last ? { from: first, to: last } : null,
    },
  };
}

/** One line for the training log. */
export function describeCollected(report: CollectedSourceReport): string {
  const sources = Object.entries(report.bySource).map(([source, n]) => `${n} ${source}`).join(', ');
  return `collected ${report.file}: ${report.kept} of ${report.lines} homes kept (${sources || 'none'}), last seen ${report.periods?.from ?? '-'} to ${report.periods?.to ?? '-'}`;
}
