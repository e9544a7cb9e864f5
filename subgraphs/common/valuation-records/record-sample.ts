/**
 * The seeded review sample every record store draws (issue 34, item 3): of the organisation's
 * records in a period, the n whose key SHA-256(seed + ':' + id) (UTF-8) is smallest, ordered by that
 * key. Bottom-n by a hash is a uniform sample without replacement, deterministic for a seed and
 * independent of the order the ids come in or of the store holding them, so that a store can draw
 * it where the ids lie (PostgreSQL in one statement, the others over their id indexes) and only the
 * n ids travel; samples of several stores (the kinds) merge by taking the n smallest keys of theirs.
 *
 * Keys compare as unsigned bytes (Buffer.compare), as PostgreSQL orders bytea, so that the SQL of
 * ./postgres-record-store.ts (`sha256($prefix || convert_to(id, 'UTF8'))`, $prefix = sampleKeyPrefix)
 * and this file agree byte for byte.
 *
 * A sample drawn with a seed before this (a seeded Fisher–Yates over the period's ids sorted) is
 * drawn differently now: the algorithm changed. That is acceptable: the seed is reported with each
 * sample, and from now on the same seed on the same records draws the same sample, whichever store.
 */
import { createHash } from 'node:crypto';

/** The bytes hashed ahead of every id: the seed and ':' in UTF-8. */
export function sampleKeyPrefix(seed: string): Buffer {
  return Buffer.from(`${seed}:`, 'utf8');
}

/** SHA-256(seed + ':' + id), given the seed's prefix (sampleKeyPrefix). */
export function sampleKey(prefix: Buffer, id: string): Buffer {
  return createHash('sha256').update(prefix).update(id, 'utf8').digest();
}

/** Keys as unsigned bytes (PostgreSQL's bytea order); ties (only the same id) by id. */
export function compareSampleKeys(a: { key: Buffer; id: string }, b: { key: Buffer; id: string }): number {
  return Buffer.compare(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Items by their id's sample key, smallest first: a merge of stores' samples (or a whole population) drawn down to n. */
export function smallestBySampleKey<T extends { id: string }>(seed: string, n: number, items: readonly T[]): T[] {
  const prefix = sampleKeyPrefix(seed);
  return items
    .map((item) => ({ item, id: item.id, key: sampleKey(prefix, item.id) }))
    .sort(compareSampleKeys)
    .slice(0, Math.max(0, n))
    .map(({ item }) => item);
}

/**
 * The n smallest keys of the ids offered, in bounded memory (a max-heap of n), for a store that
 * walks its ids in the period: the same id offered twice (a store holding two copies) counts once.
 */
export class SampleDraw {
  private readonly prefix: Buffer;
  /** Max-heap by key: the largest kept at [0]. */
  private readonly heap: { key: Buffer; id: string }[] = [];
  private readonly held = new Set<string>();
  private readonly n: number;

  constructor(seed: string, n: number) {
    this.prefix = sampleKeyPrefix(seed);
    this.n = Math.max(0, Math.floor(n));
  }

  offer(id: string): void {
    if (this.n === 0 || this.held.has(id)) return;
    const entry = { key: sampleKey(this.prefix, id), id };
    const heap = this.heap;
    if (heap.length < this.n) {
      heap.push(entry);
      this.held.add(id);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (compareSampleKeys(heap[parent], heap[i]) >= 0) break;
        [heap[parent], heap[i]] = [heap[i], heap[parent]];
        i = parent;
      }
      return;
    }
    if (compareSampleKeys(entry, heap[0]) >= 0) return;
    this.held.delete(heap[0].id);
    this.held.add(id);
    heap[0] = entry;
    for (let i = 0; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < heap.length && compareSampleKeys(heap[left], heap[largest]) > 0) largest = left;
      if (right < heap.length && compareSampleKeys(heap[right], heap[largest]) > 0) largest = right;
      if (largest === i) break;
      [heap[largest], heap[i]] = [heap[i], heap[largest]];
      i = largest;
    }
  }

  /** The ids kept, smallest key first. */
  ids(): string[] {
    return [...this.heap].sort(compareSampleKeys).map((e) => e.id);
  }
}
