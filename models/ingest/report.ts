/** The ingestion report: what came in, what went out, and why every other row was dropped. */
import type { DistrictId } from '../vocabulary';
import type { PriceFence } from './outliers';
import type { PersonalDataCounts } from './pii';
import type { DataSnapshot } from './snapshot';
import type { Correction, DropReason } from './reasons';
import type { ListingSource } from './record';

/** One file's bookkeeping; the vehicle pipeline fills it with its own sources and reason codes. */
export interface LedgerReport<S extends string, D extends string, C extends string> {
  source: S;
  path: string;
  period: string;
  rowsIn: number;
  rowsOut: number;
  dropped: Partial<Record<D, number>>;
  corrections: Partial<Record<C, number>>; // among the rows kept
  personalData: PersonalDataCounts;
}

export type SourceReport = LedgerReport<ListingSource, DropReason, Correction>;

export interface CrossSourceMergeCount {
  dropped: ListingSource;
  keptIn: ListingSource;
  count: number;
}

export interface IngestReport {
  snapshot: DataSnapshot;
  sources: SourceReport[];
  totals: { rowsIn: number; rowsOut: number; dropped: Partial<Record<DropReason, number>> };
  crossSourceMerges: CrossSourceMergeCount[];
  fallbackDistricts: Partial<Record<ListingSource, DistrictId>>;
  priceFences: PriceFence[];
  recordsByDistrict: Record<DistrictId, number>;
  recordsBySourceAndDistrict: Record<ListingSource, Record<DistrictId, number>>;
  elapsedMs: number;
}

function increment<K extends string>(counts: Partial<Record<K, number>>, key: K, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

/** Tallies per source while the pipeline runs (the vehicle pipeline brings its own reason codes). */
export class SourceLedger<D extends string = DropReason, C extends string = Correction> {
  readonly dropped: Partial<Record<D, number>> = {};
  readonly corrections: Partial<Record<C, number>> = {};

  drop(reason: D, count = 1): void {
    if (count > 0) increment(this.dropped, reason, count);
  }

  correct(correction: C): void {
    increment(this.corrections, correction);
  }
}

export function sumDropped<D extends string = DropReason>(reports: readonly { dropped: Partial<Record<D, number>> }[]): Partial<Record<D, number>> {
  const totals: Partial<Record<D, number>> = {};
  for (const report of reports) {
    for (const [reason, count] of Object.entries(report.dropped) as [D, number][]) increment(totals, reason, count);
  }
  return totals;
}
