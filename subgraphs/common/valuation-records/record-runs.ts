/**
 * The file store's sealed records (./file-record-store.ts): immutable "runs", each the records of
 * one month (the time their ids carry) in two files:
 *
 *   <seq>.dat  the records' lines (`{"o":org,"r":record}\n`, as in the log), sorted by organisation key then id;
 *   <seq>.idx  one fixed-width 64-byte entry a record, in the same order:
 *                [0,16)  organisation key: the first 16 bytes of SHA-256(org), so that an
 *                        organisation's records lie together whatever its name (nothing of the
 *                        name reaches a file name) and 128 bits leave no collision to find;
 *                [16,42) the id without `val_` (26 ASCII letters: byte order is id order);
 *                [42,48) where the line starts in .dat (48-bit big-endian), [48,52) its length;
 *                [52,62) keep-until day (YYYY-MM-DD), [62,64) zero.
 *
 * A record is found by binary search of the .idx with positioned reads of 4 KiB pages, held in a
 * bounded LRU cache shared by the store (the top of every search is the same few pages); an
 * organisation's window of ids is one contiguous range of entries and of lines, so a page of
 * records is two searches and one read of the lines. Runs are merged (a k-way merge reading each
 * source front to back) but never changed in place: a new run replaces them.
 */
import { createHash } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';

export const ENTRY_BYTES = 64;
const KEY_BYTES = 16;
const ID_AT = 16;
const ID_END = 42;
const OFFSET_AT = 42;
const LENGTH_AT = 48;
const KEEP_AT = 52;
const KEEP_END = 62;
const PAGE_ENTRIES = 64;
const PAGE_BYTES = PAGE_ENTRIES * ENTRY_BYTES;
const ID_PREFIX = 'val_';
const NEWLINE = 0x0a;
/** A read of an organisation's range of entries goes in pieces of this many entries (4 MiB). */
const RANGE_CHUNK = 65_536;
/** Lines next to each other are read together up to this many bytes. */
const COALESCE_BYTES = 1 << 20;

/** What the store's manifest says of a run. */
export interface RunMeta {
  seq: number;
  /** YYYY-MM: the month its records were made. */
  month: string;
  /** 0 when sealed from a log; merging n runs of level l makes one of l + 1 (SEALED_LEVEL for a whole month). */
  level: number;
  count: number;
  minId: string;
  maxId: string;
  minKeep: string;
  maxKeep: string;
  /** The .dat file's length. */
  bytes: number;
}

export type RunStats = Omit<RunMeta, 'seq' | 'month' | 'level'>;

/** An organisation's key in the index (./record-runs.ts header). */
export function orgKey(org: string): Buffer {
  return createHash('sha256').update(org, 'utf8').digest().subarray(0, KEY_BYTES);
}

/** The index's form of an id bound of a window (record-ids.ts): compares with entries as the strings compare with ids. */
export function boundSuffix(bound: string): Buffer {
  if (bound.startsWith(ID_PREFIX)) return Buffer.from(bound.slice(ID_PREFIX.length), 'utf8');
  // Every id starts with `val_`: a bound that does not is below them all or above them all.
  return bound < ID_PREFIX ? Buffer.alloc(0) : Buffer.from([0xff]);
}

/** A new entry (offset and length are the writer's). */
export function newEntry(key: Buffer, id: string, keepUntil: string): Buffer {
  const entry = Buffer.alloc(ENTRY_BYTES);
  key.copy(entry, 0, 0, KEY_BYTES);
  entry.write(id.slice(ID_PREFIX.length), ID_AT, ID_END - ID_AT, 'latin1');
  entry.write(keepUntil, KEEP_AT, KEEP_END - KEEP_AT, 'latin1');
  return entry;
}

export const entryId = (entry: Buffer): string => ID_PREFIX + entry.toString('latin1', ID_AT, ID_END);
export const entryKeep = (entry: Buffer): string => entry.toString('latin1', KEEP_AT, KEEP_END);
const entryOffset = (entry: Buffer): number => entry.readUIntBE(OFFSET_AT, 6);
const entryLength = (entry: Buffer): number => entry.readUInt32BE(LENGTH_AT);

/** Entries in (organisation key, id) order. */
export const compareEntries = (a: Buffer, b: Buffer): number => a.compare(b, 0, ID_END, 0, ID_END);

/** An entry against (key, id bound). */
function compareTo(entry: Buffer, key: Buffer, suffix: Buffer): number {
  const byKey = entry.compare(key, 0, KEY_BYTES, 0, KEY_BYTES);
  return byKey !== 0 ? byKey : entry.compare(suffix, 0, suffix.length, ID_AT, ID_END);
}

/** Reads exactly `length` bytes at `position` (fewer only at the end of the file). */
export async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}

/** Index pages of every run, least recently used dropped first: the only part of the runs held in memory. */
export class PageCache {
  private readonly pages: LRUCache<string, Promise<Buffer>>;

  constructor(maxPages: number) {
    this.pages = new LRUCache({ max: maxPages });
  }

  get size(): number {
    return this.pages.size;
  }

  get(name: string, load: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.pages.get(name);
    if (hit) return hit;
    const loading = load();
    this.pages.set(name, loading);
    // A failed read is not remembered.
    loading.catch(() => this.pages.peek(name) === loading && this.pages.delete(name));
    return loading;
  }
}

/** One run, read by positioned reads; its files are opened when first read. */
export class RunReader {
  private files: Promise<{ idx: FileHandle; dat: FileHandle }> | null = null;

  constructor(
    readonly meta: RunMeta,
    /** The path without `.idx`/`.dat`. */
    readonly base: string,
    private readonly cache: PageCache,
  ) {}

  private handles(): Promise<{ idx: FileHandle; dat: FileHandle }> {
    this.files ??= (async () => {
      const idx = await open(`${this.base}.idx`, 'r');
      try {
        return { idx, dat: await open(`${this.base}.dat`, 'r') };
      } catch (error) {
        await idx.close();
        throw error;
      }
    })().catch((error: Error) => {
      this.files = null;
      throw error;
    });
    return this.files;
  }

  private async entry(i: number): Promise<Buffer> {
    const page = i >> 6;
    const bytes = await this.cache.get(`${this.meta.seq}:${page}`, async () => readAt((await this.handles()).idx, page * PAGE_BYTES, PAGE_BYTES));
    const at = (i & (PAGE_ENTRIES - 1)) * ENTRY_BYTES;
    return bytes.subarray(at, at + ENTRY_BYTES);
  }

  /** The first entry not below (key, bound), or, `after`, above it. */
  private async search(key: Buffer, suffix: Buffer, after: boolean): Promise<number> {
    let lo = 0;
    let hi = this.meta.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareTo(await this.entry(mid), key, suffix);
      if (c < 0 || (after && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The entry of (key, id), or null. */
  async find(key: Buffer, id: string): Promise<Buffer | null> {
    const suffix = boundSuffix(id);
    const i = await this.search(key, suffix, false);
    if (i >= this.meta.count) return null;
    const entry = await this.entry(i);
    return compareTo(entry, key, suffix) === 0 ? Buffer.from(entry) : null;
  }

  /** The organisation's entries with ids in low ≤ id < high (or ≤ high), newest first, at most `limit`. */
  async range(key: Buffer, low: string, high: string, highInclusive: boolean, limit: number): Promise<Buffer[]> {
    const from = await this.search(key, boundSuffix(low), false);
    const to = await this.search(key, boundSuffix(high), highInclusive);
    const start = Math.max(from, to - limit);
    const out: Buffer[] = [];
    const { idx } = await this.handles();
    for (let end = to; end > start; end -= RANGE_CHUNK) {
      const first = Math.max(start, end - RANGE_CHUNK);
      const bytes = await readAt(idx, first * ENTRY_BYTES, (end - first) * ENTRY_BYTES);
      for (let i = end - first - 1; i >= 0; i--) out.push(bytes.subarray(i * ENTRY_BYTES, (i + 1) * ENTRY_BYTES));
    }
    return out;
  }

  /** The lines of these entries (in their order); lines next to each other in .dat are read together. */
  async lines(entries: readonly Buffer[]): Promise<Buffer[]> {
    const { dat } = await this.handles();
    const order = entries.map((_, i) => i).sort((a, b) => entryOffset(entries[a]) - entryOffset(entries[b]));
    const out: Buffer[] = new Array(entries.length);
    const reads: Promise<void>[] = [];
    for (let g = 0; g < order.length; ) {
      const start = entryOffset(entries[order[g]]);
      let end = start + entryLength(entries[order[g]]);
      let h = g + 1;
      for (; h < order.length; h++) {
        const next = entries[order[h]];
        if (entryOffset(next) !== end + 1 || entryOffset(next) + entryLength(next) - start > COALESCE_BYTES) break;
        end = entryOffset(next) + entryLength(next);
      }
      const group = order.slice(g, h);
      reads.push(
        readAt(dat, start, end - start).then((bytes) => {
          for (const i of group) out[i] = bytes.subarray(entryOffset(entries[i]) - start, entryOffset(entries[i]) - start + entryLength(entries[i]));
        }),
      );
      g = h;
    }
    await Promise.all(reads);
    return out;
  }

  /** Every entry and line, front to back (for merging). */
  cursor(): RunCursor {
    return new RunCursor(this.meta.count, () => this.handles());
  }

  async close(): Promise<void> {
    const files = this.files;
    this.files = null;
    if (!files) return;
    const { idx, dat } = await files.catch(() => ({ idx: null, dat: null }));
    await Promise.all([idx?.close(), dat?.close()]);
  }

  /** Closes and deletes the files. */
  async remove(): Promise<void> {
    await this.close();
    await Promise.all([unlink(`${this.base}.idx`), unlink(`${this.base}.dat`)].map((p) => p.catch(() => undefined)));
  }
}

const CURSOR_IDX_BYTES = 1024 * ENTRY_BYTES;
const CURSOR_DAT_BYTES = 256 * 1024;

/** A run read front to back through two small buffers: `entry` and `line` until the next `next()`. */
export class RunCursor {
  entry!: Buffer;
  line!: Buffer;
  private next_ = 0;
  private idx: Buffer = Buffer.alloc(0);
  private idxFirst = 0;
  private dat: Buffer = Buffer.alloc(0);
  private datFirst = 0;

  constructor(
    private readonly count: number,
    private readonly handles: () => Promise<{ idx: FileHandle; dat: FileHandle }>,
  ) {}

  async next(): Promise<boolean> {
    if (this.next_ >= this.count) return false;
    const { idx, dat } = await this.handles();
    let at = (this.next_ - this.idxFirst) * ENTRY_BYTES;
    if (at + ENTRY_BYTES > this.idx.length) {
      this.idxFirst = this.next_;
      this.idx = await readAt(idx, this.next_ * ENTRY_BYTES, Math.min(CURSOR_IDX_BYTES, (this.count - this.next_) * ENTRY_BYTES));
      at = 0;
      if (this.idx.length < ENTRY_BYTES) throw new Error('valuation records: a run index ends early');
    }
    this.entry = this.idx.subarray(at, at + ENTRY_BYTES);
    const offset = entryOffset(this.entry);
    const length = entryLength(this.entry);
    if (offset < this.datFirst || offset + length > this.datFirst + this.dat.length) {
      this.datFirst = offset;
      this.dat = await readAt(dat, offset, Math.max(CURSOR_DAT_BYTES, length));
      if (this.dat.length < length) throw new Error('valuation records: a run ends early');
    }
    this.line = this.dat.subarray(offset - this.datFirst, offset - this.datFirst + length);
    this.next_++;
    return true;
  }
}

/** Writes a run's two files from entries given in order (an entry equal to the one before is left out). */
export class RunWriter {
  private idxBuffer = Buffer.allocUnsafe(1024 * ENTRY_BYTES);
  private idxUsed = 0;
  private datBuffer = Buffer.allocUnsafe(1 << 20);
  private datUsed = 0;
  private bytes = 0;
  private count = 0;
  private last: Buffer | null = null;
  /** The least and greatest id added (without `val_`), once `count` > 0. */
  private readonly minId = Buffer.alloc(ID_END - ID_AT);
  private readonly maxId = Buffer.alloc(ID_END - ID_AT);
  private minKeep = '';
  private maxKeep = '';

  private constructor(
    readonly base: string,
    private readonly idx: FileHandle,
    private readonly dat: FileHandle,
  ) {}

  static async create(base: string): Promise<RunWriter> {
    const idx = await open(`${base}.idx`, 'w');
    try {
      return new RunWriter(base, idx, await open(`${base}.dat`, 'w'));
    } catch (error) {
      await idx.close();
      throw error;
    }
  }

  /**
   * Adds a record; false when its entry equals the last one (the same id twice: the first is kept).
   * A promise only when a buffer had to be written out first: a seal adds thousands of records, most
   * of them to room already there, and an await each cost more than the copying.
   */
  add(entry: Buffer, line: Buffer): boolean | Promise<boolean> {
    if (this.last && compareEntries(this.last, entry) === 0) return false;
    if (this.idxUsed + ENTRY_BYTES > this.idxBuffer.length || this.datUsed + line.length + 1 > this.datBuffer.length) return this.addAfterFlush(entry, line);
    this.put(entry, line);
    return true;
  }

  private async addAfterFlush(entry: Buffer, line: Buffer): Promise<boolean> {
    if (this.idxUsed + ENTRY_BYTES > this.idxBuffer.length) await this.flushIdx();
    if (this.datUsed + line.length + 1 > this.datBuffer.length) {
      await this.flushDat();
      if (line.length + 1 > this.datBuffer.length) this.datBuffer = Buffer.allocUnsafe(line.length + 1);
    }
    this.put(entry, line);
    return true;
  }

  /** Copies the record into the buffers (there is room). */
  private put(entry: Buffer, line: Buffer): void {
    const at = this.idxUsed;
    entry.copy(this.idxBuffer, at, 0, ENTRY_BYTES);
    this.idxBuffer.writeUIntBE(this.bytes, at + OFFSET_AT, 6);
    this.idxBuffer.writeUInt32BE(line.length, at + LENGTH_AT);
    this.idxBuffer.fill(0, at + KEEP_END, at + ENTRY_BYTES);
    this.idxUsed += ENTRY_BYTES;
    this.last = this.idxBuffer.subarray(at, at + ENTRY_BYTES);
    line.copy(this.datBuffer, this.datUsed);
    this.datBuffer[this.datUsed + line.length] = NEWLINE;
    this.datUsed += line.length + 1;
    this.bytes += line.length + 1;
    const first = this.count++ === 0;
    if (first || entry.compare(this.minId, 0, ID_END - ID_AT, ID_AT, ID_END) < 0) entry.copy(this.minId, 0, ID_AT, ID_END);
    if (first || entry.compare(this.maxId, 0, ID_END - ID_AT, ID_AT, ID_END) > 0) entry.copy(this.maxId, 0, ID_AT, ID_END);
    const keep = entryKeep(entry);
    if (this.minKeep === '' || keep < this.minKeep) this.minKeep = keep;
    if (keep > this.maxKeep) this.maxKeep = keep;
  }

  private async flushIdx(): Promise<void> {
    if (this.last) this.last = Buffer.from(this.last);
    await this.idx.write(this.idxBuffer, 0, this.idxUsed);
    this.idxUsed = 0;
  }

  private async flushDat(): Promise<void> {
    await this.dat.write(this.datBuffer, 0, this.datUsed);
    this.datUsed = 0;
  }

  /** Writes what is left, fsyncs both files and closes them. */
  async finish(): Promise<RunStats> {
    await this.flushIdx();
    await this.flushDat();
    await Promise.all([this.idx.sync(), this.dat.sync()]);
    await Promise.all([this.idx.close(), this.dat.close()]);
    return {
      count: this.count,
      minId: this.count > 0 ? ID_PREFIX + this.minId.toString('latin1') : '',
      maxId: this.count > 0 ? ID_PREFIX + this.maxId.toString('latin1') : '',
      minKeep: this.minKeep,
      maxKeep: this.maxKeep,
      bytes: this.bytes,
    };
  }

  /** Closes and deletes what was written. */
  async abort(): Promise<void> {
    await Promise.all([this.idx.close(), this.dat.close()].map((p) => p.catch(() => undefined)));
    await Promise.all([unlink(`${this.base}.idx`), unlink(`${this.base}.dat`)].map((p) => p.catch(() => undefined)));
  }
}
