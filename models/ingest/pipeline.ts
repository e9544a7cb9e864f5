/**
 * The ingestion run: read each listing file, adapt and clean its rows, de-duplicate within the file,
 * drop the fall-back copies, merge the same flat across files, then filter prices.
 * Every row read is either in the output or counted under exactly one drop reason.
 */
import { DISTRICT_IDS, type DistrictId } from '../vocabulary';
import { createAdapter, isDrop, type SourceAdapter } from './adapters';
import type { Candidate } from './candidate';
import { cleanRecord } from './clean';
import { loadCsv, type LoadedFile } from './csv';
import { dropExactDuplicates, mergeAcrossSources, type CrossSourceMerge } from './dedup';
import { detectFallbackDistrict, dropFallbackCopies } from './fallback-district';
import { Olx2021Geocodes } from './geocode';
import { createNormaliser } from './normaliser';
import { applyPriceFences, dropDownPayments } from './outliers';
import { countPersonalData } from './pii';
import type { ListingRecord, ListingSource } from './record';
import { SourceLedger, sumDropped, type CrossSourceMergeCount, type IngestReport } from './report';
import { snapshotOf } from './snapshot';
import { OLX_2021_GEOCODED_PATH, SOURCE_FILES, type SourceFile } from './sources';

export interface IngestOptions {
  /** Ingest only these sources (default: all). Cross-source merging then happens among them only. */
  sources?: readonly ListingSource[];
  /**
   * Drop down payments and price outliers (default). An evaluation set is taken as clients would send
   * it, without them: a fence fitted on the test prices would flatter the test.
   */
  priceFences?: boolean;
}

export interface IngestResult {
  records: ListingRecord[];
  report: IngestReport;
}

interface SourceRun {
  file: SourceFile;
  csv: LoadedFile;
  ledger: SourceLedger;
}

/** One file up to the point where files meet: adapt, clean, drop in-file repeats and fall-back copies. */
function ingestFile(run: SourceRun, adapter: SourceAdapter): { candidates: Candidate[]; fallback: DistrictId | null } {
  const { csv, ledger } = run;
  const adapted: Candidate[] = [];
  csv.rows.forEach((row, index) => {
    const result = adapter.adapt(row, index + 1);
    if (isDrop(result)) return ledger.drop(result.drop);
    const cleaned = cleanRecord(result.record);
    if (isDrop(cleaned)) return ledger.drop(cleaned.drop);
    adapted.push({ record: cleaned.record, corrections: [...result.corrections, ...cleaned.corrections] });
  });

  const unique = dropExactDuplicates(adapted);
  ledger.drop('duplicate_in_file', unique.dropped.length);
  const fallback = detectFallbackDistrict(unique.kept);
  if (fallback === null) return { candidates: unique.kept, fallback };
  const resolved = dropFallbackCopies(unique.kept, fallback);
  ledger.drop('fallback_district_copy', resolved.dropped.length);
  return { candidates: resolved.kept, fallback };
}

function countMerges(merges: readonly CrossSourceMerge[]): CrossSourceMergeCount[] {
  const counts = new Map<string, CrossSourceMergeCount>();
  for (const { dropped, keptIn } of merges) {
    const key = `${dropped.record.source}>${keptIn.record.source}`;
    const count = counts.get(key) ?? { dropped: dropped.record.source, keptIn: keptIn.record.source, count: 0 };
    count.count++;
    counts.set(key, count);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.dropped.localeCompare(b.dropped) || a.keptIn.localeCompare(b.keptIn));
}

const zeroPerDistrict = () => Object.fromEntries(DISTRICT_IDS.map((id) => [id, 0])) as Record<DistrictId, number>;

const SOURCE_ORDER = new Map(SOURCE_FILES.map((file, index) => [file.source, index]));

function outputOrder(a: ListingRecord, b: ListingRecord): number {
  return (SOURCE_ORDER.get(a.source) ?? 0) - (SOURCE_ORDER.get(b.source) ?? 0) || a.sourceRow - b.sourceRow;
}

export function ingestListings(options: IngestOptions = {}): IngestResult {
  const started = performance.now();
  const normaliser = createNormaliser();
  const filesRead: LoadedFile[] = [];
  const olx2021Geocodes = () => {
    const geocoded = loadCsv(OLX_2021_GEOCODED_PATH);
    filesRead.push(geocoded);
    return Olx2021Geocodes.fromRows(geocoded.rows);
  };

  const runs = new Map<ListingSource, SourceRun>();
  const fallbackDistricts: IngestReport['fallbackDistricts'] = {};
  const candidates: Candidate[] = [];
  for (const file of SOURCE_FILES.filter((f) => options.sources?.includes(f.source) ?? true)) {
    const run: SourceRun = { file, csv: loadCsv(file.path), ledger: new SourceLedger() };
    filesRead.push(run.csv);
    runs.set(file.source, run);
    const { candidates: fromFile, fallback } = ingestFile(run, createAdapter(file.source, { normaliser, olx2021Geocodes }));
    if (fallback !== null) fallbackDistricts[file.source] = fallback;
    candidates.push(...fromFile);
  }
  const ledgerOf = (candidate: Candidate) => runs.get(candidate.record.source)!.ledger;

  const merged = mergeAcrossSources(candidates);
  merged.merges.forEach(({ dropped }) => ledgerOf(dropped).drop('duplicate_across_sources'));
  const fencing = options.priceFences ?? true;
  const withoutDownPayments = fencing ? dropDownPayments(merged.kept) : { kept: merged.kept, dropped: [] };
  withoutDownPayments.dropped.forEach((c) => ledgerOf(c).drop('down_payment'));
  const fenced = fencing ? applyPriceFences(withoutDownPayments.kept) : { kept: withoutDownPayments.kept, dropped: [], fences: [] };
  fenced.dropped.forEach((c) => ledgerOf(c).drop('price_outlier'));
  const kept = [...fenced.kept].sort((a, b) => outputOrder(a.record, b.record));

  const recordsByDistrict = zeroPerDistrict();
  const recordsBySourceAndDistrict = Object.fromEntries([...runs.keys()].map((source) => [source, zeroPerDistrict()])) as IngestReport['recordsBySourceAndDistrict'];
  const rowsOut = new Map<ListingSource, number>();
  for (const candidate of kept) {
    const { record } = candidate;
    recordsByDistrict[record.district]++;
    recordsBySourceAndDistrict[record.source][record.district]++;
    rowsOut.set(record.source, (rowsOut.get(record.source) ?? 0) + 1);
    candidate.corrections.forEach((correction) => ledgerOf(candidate).correct(correction));
  }

  const sources = [...runs.values()].map(({ file, csv, ledger }) => ({
    source: file.source,
    path: file.path,
    period: file.period,
    rowsIn: csv.rows.length,
    rowsOut: rowsOut.get(file.source) ?? 0,
    dropped: ledger.dropped,
    corrections: ledger.corrections,
    personalData: countPersonalData(csv.rows, file.freeTextColumns),
  }));
  const report: IngestReport = {
    snapshot: snapshotOf(filesRead),
    sources,
    totals: { rowsIn: sources.reduce((sum, s) => sum + s.rowsIn, 0), rowsOut: kept.length, dropped: sumDropped(sources) },
    crossSourceMerges: countMerges(merged.merges),
    fallbackDistricts,
    priceFences: fenced.fences,
    recordsByDistrict,
    recordsBySourceAndDistrict,
    elapsedMs: Math.round(performance.now() - started),
  };
  return { records: kept.map((c) => c.record), report };
}
