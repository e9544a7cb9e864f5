/**
 * Per organisation, record ids in order with a value each (the record itself in memory, or where it
 * lies in the file store's unsealed log, which is bounded): the id windows, pages and expiry every
 * in-process store needs. Appends nearly always land at the end (ids are time-ordered).
 */
import { idWindow, inWindow } from './record-ids';
import type { RecordQuery } from './types';

export class RecordIndex<V extends { keepUntil: string }> {
  private readonly byOrg = new Map<string, { ids: string[]; values: Map<string, V> }>();

  /** Adds (an id already held is kept as it was: false). */
  add(org: string, id: string, value: V): boolean {
    let series = this.byOrg.get(org);
    if (!series) this.byOrg.set(org, (series = { ids: [], values: new Map() }));
    if (series.values.has(id)) return false;
    series.values.set(id, value);
    const ids = series.ids;
    if (ids.length === 0 || ids[ids.length - 1] < id) ids.push(id);
    else ids.splice(lowerBound(ids, id), 0, id);
    return true;
  }

  get(org: string, id: string): V | undefined {
    return this.byOrg.get(org)?.values.get(id);
  }

  /** The ids in the query's window, newest first, up to its limit. */
  ids(org: string, query: RecordQuery = {}): string[] {
    const series = this.byOrg.get(org);
    if (!series) return [];
    const limit = query.limit ?? Infinity;
    const window = idWindow(query);
    const out: string[] = [];
    // From the last id not above the window's top (the window test drops one just above it).
    for (let i = lowerBound(series.ids, window.high) + (window.highInclusive ? 1 : 0) - 1; i >= 0 && out.length < limit; i--) {
      const id = series.ids[i];
      if (id < window.low) break;
      if (inWindow(id, window)) out.push(id);
    }
    return out;
  }

  /** Drops every value kept until before `today`; returns how many. */
  dropExpired(today: string): number {
    let dropped = 0;
    for (const [org, series] of this.byOrg) {
      series.ids = series.ids.filter((id) => {
        if (series.values.get(id)!.keepUntil >= today) return true;
        series.values.delete(id);
        dropped++;
        return false;
      });
      if (series.ids.length === 0) this.byOrg.delete(org);
    }
    return dropped;
  }

  /** Every organisation's entries, oldest first within each. */
  *entries(): Generator<[string, string, V]> {
    for (const [org, series] of this.byOrg) for (const id of series.ids) yield [org, id, series.values.get(id)!];
  }
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
