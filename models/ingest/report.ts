/** The ingestion report: what came in, what went out, and why every other row was dropped. */
import type { DistrictId } from '../vocabulary';
import type { PriceFence } from './outliers';
import type { PersonalDataCounts } from './pii';
import type { DataSnapshot } from './snapshot';
import type { Correction, DropReason } from './reasons';
import type { ListingSource } from './record';

export interface SourceReport {
  source: ListingSource;
  path: string;
  period: string;
  rowsIn: number;
  rowsOut: number;
  dropped: Partial<Record<DropReason, number>>;
  corrections: Partial<Record<Correction, number>>; // among the rows kept
  personalData: PersonalDataCounts;
}

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

/** Tallies per source while the pipeline runs. */
export class SourceLedger {
  readonly dropped: Partial<Record<DropReason, number>> = {};
  readonly corrections: Partial<Record<Correction, number>> = {};

  drop(reason: DropReason, count = 1): void {
    if (count > 0) increment(this.dropped, reason, count);
  }

  correct(correction: Correction): void {
    increment(this.corrections, correction);
  }
}

export function sumDropped(reports: readonly SourceReport[]): Partial<Record<DropReason, number>> {
  const totals: Partial<Record<DropReason, number>> = {};
  for (const report of reports) {
    for (const [reason, count] of Object.entries(report.dropped) as [DropReason, number][]) increment(totals, reason, count);
  }
  return totals;
}
