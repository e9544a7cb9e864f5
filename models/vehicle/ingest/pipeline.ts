/**
 * The vehicle ingestion run: read each listing file (rows repeating an earlier listing id dropped
 * unread), adapt and clean its rows, judge engine sizes against their model's, drop exact repeats
 * within each file, then fence prices.
 * Every row read is either in the output or counted under exactly one drop reason.
 */
import { loadCsv, type LoadedFile, type RawRow } from '../../ingest/csv';
import { countPersonalData } from '../../ingest/pii';
import { SourceLedger, sumDropped } from '../../ingest/report';
import { snapshotOf } from '../../ingest/snapshot';
import { createVehicleAdapter } from './adapters';
import { isDropped, type VehicleCandidate } from './candidate';
import { cleanVehicle } from './clean';
import { dropRepeats, repeatsEarlierId } from './dedup';
import { checkEngineSizes } from './engine';
import { createVehicleLookups, type VehicleLookups } from './lookups';
import { applyVehiclePriceFences } from './outliers';
import type { VehicleCorrection, VehicleDropReason } from './reasons';
import type { VehicleRecord, VehicleSource } from './record';
import type { ModelCount, VehicleIngestReport, VehicleSourceReport } from './report';
import { VEHICLE_SOURCE_FILES, type VehicleSourceFile } from './sources';

export interface VehicleIngestOptions {
  /** Ingest only these sources (default: all). */
  sources?: readonly VehicleSource[];
}

export interface VehicleIngestResult {
  records: VehicleRecord[];
  report: VehicleIngestReport;
}

interface SourceRun {
  file: VehicleSourceFile;
  csv: LoadedFile;
  ledger: SourceLedger<VehicleDropReason, VehicleCorrection>;
}

/** Adapt and clean every row of one file. */
function readFile(run: SourceRun, lookups: VehicleLookups): VehicleCandidate[] {
  const adapter = createVehicleAdapter(run.file.source, lookups);
  const idColumn = run.file.idColumn;
  const repeated = idColumn === undefined ? [] : repeatsEarlierId(run.csv.rows, idColumn);
  const candidates: VehicleCandidate[] = [];
  run.csv.rows.forEach((row, index) => {
    if (repeated[index]) return run.ledger.drop('duplicate_in_file');
    const adapted = adapter.adapt(row, index + 1);
    if (isDropped(adapted)) return run.ledger.drop(adapted.drop);
    const cleaned = cleanVehicle(adapted);
    if (isDropped(cleaned)) return run.ledger.drop(cleaned.drop);
    candidates.push(cleaned);
  });
  return candidates;
}

const SOURCE_ORDER = new Map<VehicleSource, number>(VEHICLE_SOURCE_FILES.map((file, index) => [file.source, index]));

function outputOrder(a: VehicleRecord, b: VehicleRecord): number {
  return (SOURCE_ORDER.get(a.source) ?? 0) - (SOURCE_ORDER.get(b.source) ?? 0) || a.sourceRow - b.sourceRow;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function modelCounts(records: readonly VehicleRecord[]): ModelCount[] {
  const counts = new Map<string, ModelCount>();
  for (const { make, model, source } of records) {
    const key = `${make}\u0000${model}`;
    const count = counts.get(key) ?? { make, model, records: 0, bySource: {} };
    count.records++;
    count.bySource[source] = (count.bySource[source] ?? 0) + 1;
    counts.set(key, count);
  }
  return [...counts.values()].sort((a, b) => b.records - a.records || a.make.localeCompare(b.make) || a.model.localeCompare(b.model));
}

/** The city or district cells of kept records that named no region. */
function unresolvedRegions(run: SourceRun, kept: readonly VehicleRecord[]): Record<string, number> {
  const cells = kept.filter((r) => r.region === null).map((r) => run.csv.rows[r.sourceRow - 1][run.file.regionColumn]);
  return Object.fromEntries([...countBy(cells, (cell) => cell)].sort(([, a], [, b]) => b - a));
}

function sourceReport(run: SourceRun, kept: readonly VehicleCandidate[]): VehicleSourceReport {
  const { file, csv, ledger } = run;
  for (const candidate of kept) candidate.corrections.forEach((correction) => ledger.correct(correction));
  const records = kept.map((c) => c.record);
  return {
    source: file.source,
    path: file.path,
    period: file.period,
    rowsIn: csv.rows.length,
    rowsOut: kept.length,
    dropped: ledger.dropped,
    corrections: ledger.corrections,
    unresolvedRegions: unresolvedRegions(run, records),
    // No column is free text; every one is scanned so that the report shows none carries contacts.
    personalData: countPersonalData(csv.rows, columnsOf(csv.rows)),
  };
}

const columnsOf = (rows: readonly RawRow[]): string[] => (rows.length === 0 ? [] : Object.keys(rows[0]));

export function ingestVehicles(options: VehicleIngestOptions = {}): VehicleIngestResult {
  const started = performance.now();
  const lookups = createVehicleLookups();
  const runs = new Map<VehicleSource, SourceRun>();
  const candidates: VehicleCandidate[] = [];
  for (const file of VEHICLE_SOURCE_FILES.filter((f) => options.sources?.includes(f.source) ?? true)) {
    const run: SourceRun = { file, csv: loadCsv(file.path, { delimiter: file.delimiter }), ledger: new SourceLedger() };
    runs.set(file.source, run);
    candidates.push(...readFile(run, lookups));
  }
  const ledgerOf = (candidate: VehicleCandidate) => runs.get(candidate.record.source)!.ledger;

  // Engine sizes before de-duplication: a restored "8" → 0.8 makes a row equal to its repeats.
  checkEngineSizes(candidates);
  const unique: VehicleCandidate[] = [];
  for (const source of runs.keys()) {
    const split = dropRepeats(candidates.filter((c) => c.record.source === source));
    runs.get(source)!.ledger.drop('duplicate_in_file', split.dropped.length);
    unique.push(...split.kept);
  }
  const fenced = applyVehiclePriceFences(unique);
  fenced.dropped.forEach((c) => ledgerOf(c).drop('price_outlier'));
  const kept = [...fenced.kept].sort((a, b) => outputOrder(a.record, b.record));
  const records = kept.map((c) => c.record);

  const sources = [...runs.values()].map((run) => sourceReport(run, kept.filter((c) => c.record.source === run.file.source)));
  const report: VehicleIngestReport = {
    snapshot: snapshotOf([...runs.values()].map((run) => run.csv)),
    sources,
    totals: { rowsIn: sources.reduce((sum, s) => sum + s.rowsIn, 0), rowsOut: records.length, dropped: sumDropped(sources) },
    priceFences: fenced.fences,
    unfencedRecords: fenced.unfenced,
    recordsByMake: [...countBy(records, (r) => r.make)].map(([make, n]) => ({ make, records: n })).sort((a, b) => b.records - a.records || a.make.localeCompare(b.make)),
    recordsByModel: modelCounts(records),
    elapsedMs: Math.round(performance.now() - started),
  };
  return { records, report };
}
