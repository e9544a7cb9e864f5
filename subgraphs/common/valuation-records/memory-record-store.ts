/**
 * Records in this process's memory: the tests' store, and the index the file store keeps of its log.
 * Per organisation, ids in order (appends nearly always land at the end: ids are time-ordered).
 */
import { idWindow, inWindow } from './record-ids';
import type { RecordQuery, ValuationRecord, ValuationRecordStore } from './types';

export class MemoryRecordStore implements ValuationRecordStore {
  private readonly byOrg = new Map<string, { ids: string[]; records: Map<string, ValuationRecord> }>();

  async append(org: string, records: readonly ValuationRecord[]): Promise<void> {
    this.add(org, records);
  }

  /** Adds without I/O (the file store's replay and appends). */
  add(org: string, records: readonly ValuationRecord[]): void {
    let series = this.byOrg.get(org);
    if (!series) this.byOrg.set(org, (series = { ids: [], records: new Map() }));
    for (const record of records) {
      if (series.records.has(record.id)) continue;
      series.records.set(record.id, record);
      const ids = series.ids;
      if (ids.length === 0 || ids[ids.length - 1] < record.id) ids.push(record.id);
      else ids.splice(lowerBound(ids, record.id), 0, record.id);
    }
  }

  async get(org: string, id: string): Promise<ValuationRecord | null> {
    return this.byOrg.get(org)?.records.get(id) ?? null;
  }

  async list(org: string, query: RecordQuery = {}): Promise<ValuationRecord[]> {
    const series = this.byOrg.get(org);
    if (!series) return [];
    const limit = query.limit ?? Infinity;
    const window = idWindow(query);
    const out: ValuationRecord[] = [];
    for (let i = lowerBound(series.ids, window.high) + (window.highInclusive ? 1 : 0) - 1; i >= 0 && out.length < limit; i--) {
      const id = series.ids[i];
      if (id < window.low) break;
      if (inWindow(id, window)) out.push(series.records.get(id)!);
    }
    return out;
  }

  async ids(org: string, query: Pick<RecordQuery, 'since' | 'until'> = {}): Promise<string[]> {
    return (await this.list(org, query)).map((r) => r.id);
  }

  async prune(today: string): Promise<number> {
    return this.dropExpired(today).length;
  }

  /** Drops what expired before `today`; returns what was dropped, by organisation (the file store rewrites its log from what is left). */
  dropExpired(today: string): { org: string; id: string }[] {
    const dropped: { org: string; id: string }[] = [];
    for (const [org, series] of this.byOrg) {
      const kept = series.ids.filter((id) => {
        const record = series.records.get(id)!;
        if (record.keepUntil >= today) return true;
        series.records.delete(id);
        dropped.push({ org, id });
        return false;
      });
      if (kept.length === 0) this.byOrg.delete(org);
      else series.ids = kept;
    }
    return dropped;
  }

  /** Every organisation's records, for the file store's compaction. */
  *entries(): Generator<[string, ValuationRecord]> {
    for (const [org, series] of this.byOrg) for (const id of series.ids) yield [org, series.records.get(id)!];
  }

  async close(): Promise<void> {}
}

/** The first index whose id is ≥ `id` (ids sorted ascending). */
function lowerBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
