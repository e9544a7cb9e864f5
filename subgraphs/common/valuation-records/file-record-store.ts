/**
 * Records in files, for a single process without Redis or PostgreSQL (issue 34, item 3: no store
 * keeps an index of every record in process memory). In its directory:
 *
 *   log.<gen>.ndjson         the records being written: append-only, one `{"o":org,"r":record}` a line;
 *   months/YYYY-MM/<seq>.dat the sealed records of a month made (the time the id carries), in runs
 *   months/YYYY-MM/<seq>.idx   sorted by organisation then id, with a fixed-width index (./record-runs.ts);
 *   manifest.json            the live runs (month, level, count, id and keep-until bounds) and how far
 *                            the logs are sealed, replaced whole (written aside, fsynced, renamed).
 *
 * An append resolves once its lines are written to the current log and fsynced; appends made in
 * the same turn of the event loop, and those arriving while a write is on its way, go out together
 * in one write (group commit: the fsync's CPU, a journal commit, is paid per write, not per append).
 * Only the current log's records are indexed in memory (org → id → where the line lies), and the
 * log is bounded: past 16 MiB or 16,384 records a new one is started and the full one sealed in
 * the background (its records sorted, whatever order they came in, into a run per month), then
 * deleted. A torn last line (the process died mid-write) is cut off when a log is read back at
 * opening; its valuation was never answered.
 *
 * Runs are merged so that few stay: eight of one level of a month make one of the next, and a month
 * over (a day past its end, by the newest record) is merged into one run. A read by id looks in the
 * runs of the id's month whose id bounds hold it (usually one): a binary search of its index through
 * a bounded cache of index pages, then one read of the line. A page of an organisation's records
 * asks the runs newest first for its window's range of that organisation's entries (two searches
 * and one read of the lines each), stopping once no older run can hold anything newer than the
 * page's last. A review sample of a period walks the same ranges of the runs' indexes a chunk at a
 * time, and the logs' indexes, never the lines (sample()). Retention drops a run whole once its last
 * keep-until day is past, else rewrites it without what expired (records kept in the current log:
 * the log is sealed first).
 *
 * What stays in memory: the current log's index (at most 16,384 records; and a full one's while it
 * is sealed), each run's manifest entry and a pair of file handles once it is read (one run for each
 * month over, fewer than eight of each level for a month not yet over: a few dozen for two years
 * kept), the page cache (1,024 pages of 4 KiB), and the buffers of a seal (the log read whole, 16 MiB)
 * or a merge (256 KiB a source) in progress. None of it grows with the records kept.
 *
 * Files of an interrupted seal or merge, not in the manifest, are deleted at opening; a log the
 * manifest counts as sealed too. The old layout (`records.ndjson`, one log of everything) is moved
 * into runs at opening, a chunk at a time (the manifest remembers how far, so an interrupted move
 * resumes), then renamed aside as `records.ndjson.migrated`.
 *
 * Reads hold the runs they started with: a run merged away or dropped is closed and deleted once
 * no read that could see it is on its way. One process writes a directory at a time.
 */
import { mkdirSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fsyncPath } from '../fsync-path';
import { idWindow, isDay, isRecordId, monthOf, recordIdTime, type IdWindow } from './record-ids';
import { RecordIndex } from './record-index';
import { SampleDraw } from './record-sample';
import { compareEntries, ENTRY_BYTES, entryId, entryKeep, newEntry, orgKey, PageCache, readAt, RunReader, RunWriter, type RunCursor, type RunMeta } from './record-runs';
import type { RecordQuery, RecordSample, ValuationRecord, ValuationRecordStore } from './types';

const LEGACY_LOG = 'records.ndjson';
const MANIFEST = 'manifest.json';
const MONTHS = 'months';
const LOG_NAME = /^log\.(\d+)\.ndjson$/;
const NEWLINE = 0x0a;
/** The level of a run holding all of a month that is over. */
const SEALED_LEVEL = 1000;
/** A log's records rank after every run's (of two copies of an id, the first written is kept). */
const LOG_RANK = 2 ** 40;
const DAY_MS = 86_400_000;
/** A sample reads a run's entries of the period this many at a time (512 KiB). */
const SAMPLE_CHUNK = 8192;

export interface FileRecordStoreOptions {
  /** The current log is sealed into runs past this many bytes. @default 16 MiB */
  logMaxBytes?: number;
  /** … or this many records. @default 16384 */
  logMaxRecords?: number;
  /** Runs of one level of a month merged into one of the next. @default 8 */
  fanIn?: number;
  /** Index pages (4 KiB) cached. @default 1024 */
  cachePages?: number;
  /** A month is over, and merged into one run, once a record this long past its end is made. @default one day */
  monthGraceMs?: number;
}

/** What the store holds in memory (for tests and the bench). */
export interface FileRecordStoreMemory {
  /** Records indexed in memory: those of the current log and of one being sealed. */
  logRecords: number;
  /** Runs in the manifest (a few per month). */
  runs: number;
  cachedPages: number;
}

/** Where a record's line lies in a log. */
interface LineAt {
  offset: number;
  length: number;
  keepUntil: string;
}

interface Pending {
  /** The records' lines, one after another, each ending in a newline. */
  bytes: Buffer;
  /** Each line's length in bytes, newline included. */
  lengths: number[];
  org: string;
  records: readonly ValuationRecord[];
  done: (error?: Error) => void;
}

interface ManifestState {
  nextSeq: number;
  /** Logs up to this generation are in runs. */
  logSealedThrough: number;
  /** How far `records.ndjson` is moved into runs, while it is. */
  legacyOffset: number | null;
}

/** A log and its records' index. */
class Log {
  readonly index = new RecordIndex<LineAt>();
  count = 0;
  minId = '';
  maxId = '';
  minKeep = '';

  constructor(
    readonly gen: number,
    readonly path: string,
    readonly handle: FileHandle,
    /** Where the next line goes. */
    public size: number,
  ) {}

  add(org: string, id: string, at: LineAt): void {
    if (!this.index.add(org, id, at)) return;
    this.count++;
    if (this.minId === '' || id < this.minId) this.minId = id;
    if (id > this.maxId) this.maxId = id;
    if (this.minKeep === '' || at.keepUntil < this.minKeep) this.minKeep = at.keepUntil;
  }

  async line(at: LineAt): Promise<Buffer> {
    return readAt(this.handle, at.offset, at.length);
  }
}

/** What a read sees: the runs (by seq) and the logs as they were when it began. */
interface View {
  runs: readonly RunReader[];
  logs: readonly Log[];
}

/** A record a read picked, and where to read it. */
interface Candidate {
  id: string;
  rank: number;
  run?: RunReader;
  entry?: Buffer;
  log?: Log;
  at?: LineAt;
}

class Closing extends Error {}

/** Ids newest first, a chunk at a time: `ids[at…]` is what is left of the chunk, `next()` the next one ([] at the end). */
interface IdSource {
  ids: string[];
  at: number;
  next: () => Promise<string[]>;
}

/** Visits the ids of every source once each (an id in several sources once), newest first. */
async function forEachDistinctNewestFirst(sources: IdSource[], visit: (id: string) => void): Promise<void> {
  let live: IdSource[] = [];
  for (const source of sources) {
    source.ids = await source.next();
    source.at = 0;
    if (source.ids.length > 0) live.push(source);
  }
  let last: string | undefined;
  while (live.length > 0) {
    let top = live[0];
    for (let i = 1; i < live.length; i++) if (live[i].ids[live[i].at] > top.ids[top.at]) top = live[i];
    const id = top.ids[top.at++];
    if (id !== last) visit((last = id));
    if (top.at === top.ids.length) {
      top.ids = await top.next();
      top.at = 0;
      if (top.ids.length === 0) live = live.filter((s) => s !== top);
    }
  }
}

function monthEnd(month: string): number {
  const [year, m] = month.split('-').map(Number);
  return Date.UTC(year, m, 1);
}

const overlaps = (minId: string, maxId: string, w: IdWindow): boolean => maxId >= w.low && (w.highInclusive ? minId <= w.high : minId < w.high);

/** Writes all of `bytes` at the end of a log opened to append (a write of a regular file writes it all but for an error; a short one is continued). */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done);
    if (bytesWritten === 0) throw new Error('valuation records: the log took no bytes');
    done += bytesWritten;
  }
}

/** Where records' lines are encoded before they are copied out whole (grown as a batch needs). */
let scratch = Buffer.allocUnsafeSlow(1 << 20);

/**
 * The records' lines (`{"o":org,"r":record}` and a newline each) as one buffer, and each line's length:
 * each line encoded once, into a scratch buffer, and the whole copied out (a Buffer per line, then
 * their concatenation, encoded and copied each line twice; the copy costs little beside the encoding).
 */
function encodeLines(org: string, records: readonly ValuationRecord[]): { bytes: Buffer; lengths: number[] } {
  const lengths: number[] = new Array(records.length);
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    const json = JSON.stringify({ o: org, r: records[i] });
    // At most 3 bytes of UTF-8 per UTF-16 unit, and the newline.
    if (at + 3 * json.length + 1 > scratch.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * scratch.length, at + 3 * json.length + 1));
      scratch.copy(grown, 0, 0, at);
      scratch = grown;
    }
    const length = scratch.write(json, at) + 1;
    scratch[at + length - 1] = NEWLINE;
    lengths[i] = length;
    at += length;
  }
  return { bytes: Buffer.from(scratch.subarray(0, at)), lengths };
}

function parseLine(line: Buffer): { o: string; r: ValuationRecord } {
  return JSON.parse(line.toString('utf8')) as { o: string; r: ValuationRecord };
}

/** A line of a log read back (this process's or the old layout's): its organisation and record, or null when it holds none. */
function readRecordLine(line: Buffer): { o: string; r: ValuationRecord } | null {
  try {
    const found = parseLine(line);
    return typeof found.o === 'string' && isRecordId(found.r?.id) && isDay(found.r.keepUntil) ? found : null;
  } catch {
    return null;
  }
}

/** Records grouped by the month their ids were made, each with its run index entry: what a seal writes as runs. */
class MonthBatches {
  readonly byMonth = new Map<string, { entry: Buffer; line: Buffer }[]>();
  private readonly keys = new Map<string, Buffer>();

  add(org: string, id: string, keepUntil: string, line: Buffer): void {
    let key = this.keys.get(org);
    if (!key) this.keys.set(org, (key = orgKey(org)));
    const month = monthOf(recordIdTime(id));
    let items = this.byMonth.get(month);
    if (!items) this.byMonth.set(month, (items = []));
    items.push({ entry: newEntry(key, id, keepUntil), line });
  }
}

/** Two lists newest first merged, an id once (the lower rank's), up to `limit`. */
function mergeNewestFirst(a: Candidate[], b: Candidate[], limit: number): Candidate[] {
  const out: Candidate[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.id > y.id)) out.push(a[i++]);
    else if (x === undefined || y.id > x.id) out.push(b[j++]);
    else {
      out.push(x.rank <= y.rank ? x : y);
      i++;
      j++;
    }
  }
  return out;
}

export class FileRecordStore implements ValuationRecordStore {
  private pending: Pending[] = [];
  private writing: Promise<void> | null = null;
  private rotationWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private active!: Log;
  /** Full logs, oldest first, until sealed. */
  private frozen: Log[] = [];
  private runs: RunReader[] = [];
  private state: ManifestState = { nextSeq: 1, logSealedThrough: 0, legacyOffset: null };
  /** Seals, merges and pruning, one at a time. */
  private chain: Promise<unknown> = Promise.resolve();
  private closing = false;
  private view: View = { runs: [], logs: [] };
  /** Counts the views; reads on their way by the view they began with; what to free once none can see it. */
  private snapshot = 0;
  private readonly readers = new Map<number, number>();
  private retired: { until: number; free: () => Promise<void> }[] = [];
  private readonly freeing = new Set<Promise<void>>();
  private readonly cache: PageCache;
  private readonly logMaxBytes: number;
  private readonly logMaxRecords: number;
  private readonly fanIn: number;
  private readonly monthGraceMs: number;

  private constructor(
    private readonly directory: string,
    private readonly log: (message: string) => void,
    options: FileRecordStoreOptions,
  ) {
    this.logMaxBytes = options.logMaxBytes ?? 16 * 2 ** 20;
    this.logMaxRecords = options.logMaxRecords ?? 16_384;
    this.fanIn = Math.max(2, options.fanIn ?? 8);
    this.monthGraceMs = options.monthGraceMs ?? DAY_MS;
    this.cache = new PageCache(options.cachePages ?? 1024);
  }

  static async open(directory: string, log: (message: string) => void = () => undefined, options: FileRecordStoreOptions = {}): Promise<FileRecordStore> {
    mkdirSync(directory, { recursive: true });
    const store = new FileRecordStore(directory, log, options);
    try {
      await store.start();
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
    return store;
  }

  private async start(): Promise<void> {
    const saved = await readFile(join(this.directory, MANIFEST), 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : Promise.reject(error)));
    const manifest = saved === null ? null : (JSON.parse(saved) as ManifestState & { runs: RunMeta[] });
    if (manifest) this.state = { nextSeq: manifest.nextSeq, logSealedThrough: manifest.logSealedThrough, legacyOffset: manifest.legacyOffset };
    for (const meta of manifest?.runs ?? []) {
      const base = this.runBase(meta.month, meta.seq);
      const [idx, dat] = await Promise.all([stat(`${base}.idx`), stat(`${base}.dat`)]).catch(() => [null, null]);
      if (!idx || !dat || idx.size !== meta.count * ENTRY_BYTES || dat.size !== meta.bytes) throw new Error(`valuation records: ${base}.idx/.dat missing or not as ${MANIFEST} says`);
      this.runs.push(new RunReader(meta, base, this.cache));
    }
    await this.removeOrphans();

    const names = await readdir(this.directory);
    const gens = names.flatMap((name) => LOG_NAME.exec(name)?.[1] ?? []).map(Number).sort((a, b) => a - b);
    for (const gen of gens.filter((g) => g <= this.state.logSealedThrough)) await unlink(this.logPath(gen));
    const logs: Log[] = [];
    for (const gen of gens.filter((g) => g > this.state.logSealedThrough)) logs.push(await this.loadLog(gen));
    const last = logs.pop();
    this.frozen = logs;
    this.active = last ?? (await this.newLog(Math.max(this.state.logSealedThrough, ...gens) + 1));
    this.setView();

    if (names.includes(LEGACY_LOG)) await this.migrate();
    else if (this.state.legacyOffset !== null) await this.saveManifest(this.runs, { legacyOffset: null });
    // Logs left full by the last process (it stopped before or while sealing them).
    await this.sealFrozen(null);
    this.background(() => this.compact());
  }

  private runBase(month: string, seq: number): string {
    return join(this.directory, MONTHS, month, String(seq).padStart(8, '0'));
  }

  private logPath(gen: number): string {
    return join(this.directory, `log.${gen}.ndjson`);
  }

  /** Deletes the files of runs not in the manifest (an interrupted seal or merge left them) and empty month folders. */
  private async removeOrphans(): Promise<void> {
    const live = new Set(this.runs.flatMap((r) => [`${r.base}.idx`, `${r.base}.dat`]));
    const months = join(this.directory, MONTHS);
    let removed = 0;
    for (const month of await readdir(months).catch(() => [] as string[])) {
      const folder = join(months, month);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (live.has(join(folder, name))) continue;
        await unlink(join(folder, name));
        removed++;
      }
      await rmdir(folder).catch(() => undefined);
    }
    await unlink(join(this.directory, `${MANIFEST}.tmp`)).catch(() => undefined);
    if (removed > 0) this.log(`valuation records: removed ${removed} files of an interrupted seal or merge`);
  }

  private async newLog(gen: number): Promise<Log> {
    const path = this.logPath(gen);
    const handle = await open(path, 'a+');
    try {
      await fsyncPath(this.directory);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new Log(gen, path, handle, 0);
  }

  /** A log read back: its records indexed, a torn last line cut off. */
  private async loadLog(gen: number): Promise<Log> {
    const path = this.logPath(gen);
    const handle = await open(path, 'a+');
    try {
      const bytes = await readAt(handle, 0, (await handle.stat()).size);
      const log = new Log(gen, path, handle, 0);
      let start = 0;
      let unreadable = 0;
      for (let end = bytes.indexOf(NEWLINE); end >= 0; start = end + 1, end = bytes.indexOf(NEWLINE, start)) {
        if (end === start) continue;
        const found = readRecordLine(bytes.subarray(start, end));
        if (found) log.add(found.o, found.r.id, { offset: start, length: end - start, keepUntil: found.r.keepUntil });
        else unreadable++;
      }
      if (unreadable > 0) this.log(`valuation records: ${unreadable} unreadable lines of ${basename(path)} left out`);
      // Whatever follows the last newline is a torn write.
      const torn = bytes.length - start;
      if (torn > 0) {
        this.log(`valuation records: dropped a torn last line of ${basename(path)} (${torn} bytes)`);
        await handle.truncate(start);
        await handle.sync();
      }
      log.size = start;
      return log;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Writes the manifest with these runs (and changes of state), replacing it whole. */
  private async saveManifest(runs: readonly RunReader[], changes: Partial<ManifestState> = {}): Promise<void> {
    const state = { ...this.state, ...changes };
    const path = join(this.directory, MANIFEST);
    const handle = await open(`${path}.tmp`, 'w');
    try {
      await handle.writeFile(JSON.stringify({ format: 1, ...state, runs: runs.map((r) => r.meta) }));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(`${path}.tmp`, path);
    await fsyncPath(this.directory);
    this.state = state;
  }

  private setView(): void {
    this.view = { runs: [...this.runs].sort((a, b) => a.meta.seq - b.meta.seq), logs: [...this.frozen, this.active] };
    this.snapshot++;
  }

  /** Frees these once no read on its way can see them (they are out of the current view). */
  private retire(frees: (() => Promise<void>)[]): void {
    for (const free of frees) this.retired.push({ until: this.snapshot - 1, free });
    this.sweep(false);
  }

  private sweep(all: boolean): void {
    if (this.retired.length === 0) return;
    let oldest = Infinity;
    if (!all) for (const at of this.readers.keys()) oldest = Math.min(oldest, at);
    const ready = this.retired.filter((r) => r.until < oldest);
    if (ready.length === 0) return;
    this.retired = this.retired.filter((r) => r.until >= oldest);
    for (const r of ready) {
      const freeing = r.free().catch((error: Error) => this.log(`valuation records: could not remove a file (${error.message})`));
      this.freeing.add(freeing);
      void freeing.then(() => this.freeing.delete(freeing));
    }
  }

  private async reading<T>(read: (view: View) => Promise<T>): Promise<T> {
    const at = this.snapshot;
    this.readers.set(at, (this.readers.get(at) ?? 0) + 1);
    try {
      return await read(this.view);
    } finally {
      const left = this.readers.get(at)! - 1;
      if (left === 0) this.readers.delete(at);
      else this.readers.set(at, left);
      this.sweep(false);
    }
  }

  /** Runs out of the view: their files deleted, and their month's folder once empty, when no read can see them. */
  private retireRuns(runs: readonly RunReader[]): void {
    this.retire(
      runs.map((r) => async () => {
        await r.remove();
        await rmdir(join(this.directory, MONTHS, r.meta.month)).catch(() => undefined);
      }),
    );
  }

  /** Runs `task` after the seals, merges and prunes before it. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private background(task: () => Promise<unknown>): void {
    if (this.closing) return;
    this.exclusive(task).catch((error: Error) => error instanceof Closing || this.log(`valuation records: ${error.message}`));
  }

  // ── Writing ────────────────────────────────────────────────────────────────────────────────────

  append(org: string, records: readonly ValuationRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    // A batch's records share their keep-until day: checked once.
    let checkedDay: string | null = null;
    for (const r of records) {
      if (!isRecordId(r.id)) return Promise.reject(new Error(`not a valuation record id: ${JSON.stringify(r.id)}`));
      if (r.keepUntil !== checkedDay && !isDay((checkedDay = r.keepUntil))) return Promise.reject(new Error(`not a keep-until day: ${JSON.stringify(r.keepUntil)}`));
    }
    const { bytes, lengths } = encodeLines(org, records);
    return new Promise((resolve, reject) => {
      this.pending.push({ bytes, lengths, org, records, done: (error) => (error ? reject(error) : resolve()) });
      // Not at once: the appends of this turn of the event loop (the valuations of one joined model run) go out in one write and fsync.
      this.writing ??= new Promise<void>((next) => setImmediate(next)).then(() => this.drain());
    });
  }

  private logFull(): boolean {
    return this.active.size >= this.logMaxBytes || this.active.count >= this.logMaxRecords;
  }

  /** Writes what is pending, one write and fsync for all of it, until nothing is; starts a new log when the current one is full. */
  private async drain(): Promise<void> {
    while (this.pending.length > 0 || this.rotationWaiters.length > 0) {
      if (this.rotationWaiters.length > 0 || (this.logFull() && !this.closing)) {
        const waiters = this.rotationWaiters;
        this.rotationWaiters = [];
        try {
          await this.rotate();
          for (const w of waiters) w.resolve();
        } catch (error) {
          this.log(`valuation records: could not start a new log (${(error as Error).message})`);
          for (const w of waiters) w.reject(error as Error);
        }
      }
      if (this.pending.length === 0) continue;
      const batch = this.pending;
      this.pending = [];
      const log = this.active;
      try {
        await writeAll(log.handle, batch.length === 1 ? batch[0].bytes : Buffer.concat(batch.map((p) => p.bytes)));
        await log.handle.datasync();
        for (const p of batch) {
          p.records.forEach((record, i) => {
            const length = p.lengths[i];
            log.add(p.org, record.id, { offset: log.size, length: length - 1, keepUntil: record.keepUntil });
            log.size += length;
          });
          p.done();
        }
      } catch (error) {
        // Nothing of a failed write may stay ahead of the next one.
        await log.handle.truncate(log.size).catch(() => undefined);
        for (const p of batch) p.done(error as Error);
      }
    }
    this.writing = null;
  }

  /** Starts a new log (between two writes); the full one is sealed in the background. */
  private async rotate(): Promise<void> {
    const next = await this.newLog(this.active.gen + 1);
    this.frozen.push(this.active);
    this.active = next;
    this.setView();
    this.background(async () => {
      await this.sealFrozen(null);
      await this.compact();
    });
  }

  /** A new log now (between two writes). */
  private rotateNow(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.rotationWaiters.push({ resolve, reject });
      this.writing ??= this.drain();
    });
  }

  // ── Sealing, merging, pruning ──────────────────────────────────────────────────────────────────

  /** Seals the full logs, oldest first (leaving out what is kept until before `dropBefore`); returns how many were left out. */
  private async sealFrozen(dropBefore: string | null): Promise<number> {
    let dropped = 0;
    while (this.frozen.length > 0) {
      if (this.closing && dropBefore === null) throw new Closing();
      dropped += await this.seal(this.frozen[0], dropBefore);
    }
    return dropped;
  }

  private async seal(log: Log, dropBefore: string | null): Promise<number> {
    const bytes = await readAt(log.handle, 0, log.size);
    const batches = new MonthBatches();
    let dropped = 0;
    for (const [org, id, at] of log.index.entries()) {
      if (dropBefore !== null && at.keepUntil < dropBefore) dropped++;
      else batches.add(org, id, at.keepUntil, bytes.subarray(at.offset, at.offset + at.length));
    }
    await this.addRuns(batches, { logSealedThrough: log.gen });
    this.frozen = this.frozen.filter((l) => l !== log);
    this.setView();
    this.retire([
      async () => {
        await log.handle.close();
        await unlink(log.path);
      },
    ]);
    return dropped;
  }

  /**
   * Writes a level-0 run per month of `batches`, each sorted by organisation and id (an id given
   * twice: the first), and puts them in the manifest with `changes` (the runs removed should that
   * fail). The view is the caller's to renew.
   */
  private async addRuns(batches: MonthBatches, changes: Partial<ManifestState>): Promise<void> {
    const made = await this.writeRuns(batches);
    const runs = [...this.runs, ...made];
    try {
      await this.saveManifest(runs, changes);
    } catch (error) {
      await Promise.all(made.map((r) => r.remove()));
      throw error;
    }
    this.runs = runs;
  }

  private async writeRuns({ byMonth }: MonthBatches): Promise<RunReader[]> {
    const made: RunReader[] = [];
    try {
      for (const month of [...byMonth.keys()].sort()) {
        const items = byMonth.get(month)!.sort((a, b) => compareEntries(a.entry, b.entry));
        const seq = this.state.nextSeq++;
        await this.ensureMonth(month);
        const writer = await RunWriter.create(this.runBase(month, seq));
        try {
          for (const { entry, line } of items) {
            const added = writer.add(entry, line);
            if (typeof added !== 'boolean') await added;
          }
          made.push(new RunReader({ seq, month, level: 0, ...(await writer.finish()) }, writer.base, this.cache));
        } catch (error) {
          await writer.abort();
          throw error;
        }
        await fsyncPath(join(this.directory, MONTHS, month));
      }
    } catch (error) {
      await Promise.all(made.map((r) => r.remove()));
      throw error;
    }
    return made;
  }

  private async ensureMonth(month: string): Promise<void> {
    const made = await mkdir(join(this.directory, MONTHS, month), { recursive: true });
    if (made === undefined) return;
    await fsyncPath(join(this.directory, MONTHS));
    await fsyncPath(this.directory);
  }

  /** Merges runs while some month has `fanIn` runs of a level, or is over with more than one run. */
  private async compact(): Promise<void> {
    for (let pick = this.pickMerge(); pick; pick = this.pickMerge()) {
      if (this.closing) throw new Closing();
      await this.merge(pick.runs, pick.level, null);
    }
  }

  private pickMerge(): { runs: RunReader[]; level: number } | null {
    let newest = 0;
    for (const r of this.runs) newest = Math.max(newest, recordIdTime(r.meta.maxId));
    for (const l of [...this.frozen, this.active]) if (l.count > 0) newest = Math.max(newest, recordIdTime(l.maxId));
    // A record from a clock far ahead must not make the current month look over (and merged whole at every seal).
    newest = Math.min(newest, Date.now());
    const byMonth = new Map<string, RunReader[]>();
    for (const r of this.runs) byMonth.set(r.meta.month, [...(byMonth.get(r.meta.month) ?? []), r]);
    for (const month of [...byMonth.keys()].sort()) {
      const runs = byMonth.get(month)!;
      if (runs.length >= 2 && monthEnd(month) + this.monthGraceMs <= newest) return { runs, level: SEALED_LEVEL };
      const byLevel = new Map<number, RunReader[]>();
      for (const r of runs) if (r.meta.level < SEALED_LEVEL) byLevel.set(r.meta.level, [...(byLevel.get(r.meta.level) ?? []), r]);
      for (const level of [...byLevel.keys()].sort((a, b) => a - b)) if (byLevel.get(level)!.length >= this.fanIn) return { runs: byLevel.get(level)!, level: level + 1 };
    }
    return null;
  }

  /** Merges runs of one month into one (of `level`), leaving out what is kept until before `dropBefore`; returns how many were left out. */
  private async merge(sources: RunReader[], level: number, dropBefore: string | null): Promise<number> {
    const ordered = [...sources].sort((a, b) => a.meta.seq - b.meta.seq);
    const month = ordered[0].meta.month;
    const seq = this.state.nextSeq++;
    const writer = await RunWriter.create(this.runBase(month, seq));
    let dropped = 0;
    let made: RunReader | null = null;
    try {
      const cursors: RunCursor[] = [];
      for (const source of ordered) {
        const cursor = source.cursor();
        if (await cursor.next()) cursors.push(cursor);
      }
      for (let n = 0; cursors.length > 0; n++) {
        if (this.closing && (n & 1023) === 0) throw new Closing();
        // The smallest entry; of equal ones (an id twice), the oldest run's, which the writer keeps.
        let min = 0;
        for (let i = 1; i < cursors.length; i++) if (compareEntries(cursors[i].entry, cursors[min].entry) < 0) min = i;
        const cursor = cursors[min];
        if (dropBefore !== null && entryKeep(cursor.entry) < dropBefore) dropped++;
        else await writer.add(cursor.entry, cursor.line);
        if (!(await cursor.next())) cursors.splice(min, 1);
      }
      const stats = await writer.finish();
      made = new RunReader({ seq, month, level, ...stats }, writer.base, this.cache);
      await fsyncPath(join(this.directory, MONTHS, month));
    } catch (error) {
      await writer.abort();
      throw error;
    }
    const kept = made.meta.count > 0 ? [made] : [];
    const runs = [...this.runs.filter((r) => !sources.includes(r)), ...kept];
    try {
      await this.saveManifest(runs);
    } catch (error) {
      await made.remove();
      throw error;
    }
    if (kept.length === 0) await made.remove();
    this.runs = runs;
    this.setView();
    this.retireRuns(sources);
    return dropped;
  }

  /**
   * Drops every record kept until before `today`: a run whose last keep-until day is past goes whole,
   * one holding some expired records is rewritten without them; the logs holding expired records are
   * sealed without them first.
   */
  async prune(today: string): Promise<number> {
    if (!isDay(today)) throw new RangeError(`not a date: ${today}`);
    return this.exclusive(async () => {
      if (this.active.count > 0 && this.active.minKeep < today) await this.rotateNow();
      let dropped = await this.sealFrozen(today);
      const whole = this.runs.filter((r) => r.meta.maxKeep < today);
      if (whole.length > 0) {
        const runs = this.runs.filter((r) => !whole.includes(r));
        await this.saveManifest(runs);
        this.runs = runs;
        this.setView();
        this.retireRuns(whole);
        for (const r of whole) dropped += r.meta.count;
      }
      for (const run of this.runs.filter((r) => r.meta.minKeep < today)) dropped += await this.merge([run], run.meta.level, today);
      // The files dropped are gone when it resolves (unless a read on its way still sees them).
      await Promise.all(this.freeing);
      return dropped;
    });
  }

  // ── Reading ────────────────────────────────────────────────────────────────────────────────────

  async get(org: string, id: string): Promise<ValuationRecord | null> {
    if (!isRecordId(id)) return null;
    return this.reading(async (view) => {
      const key = orgKey(org);
      for (const run of view.runs) {
        if (id < run.meta.minId || id > run.meta.maxId) continue;
        const entry = await run.find(key, id);
        if (!entry) continue;
        const found = parseLine((await run.lines([entry]))[0]);
        if (found.o === org) return found.r;
      }
      for (const log of view.logs) {
        const at = log.index.get(org, id);
        if (at) return parseLine(await log.line(at)).r;
      }
      return null;
    });
  }

  async list(org: string, query: RecordQuery = {}): Promise<ValuationRecord[]> {
    const limit = query.limit ?? Infinity;
    if (!(limit > 0)) return [];
    return this.reading(async (view) => this.read(org, await this.pick(view, org, query, limit)));
  }

  /**
   * The period's ids walked newest first, from the runs' indexes (a chunk of entries at a time) and
   * the logs' in-memory indexes, merged so that an id held twice counts once; each is hashed and the
   * n smallest keys kept (./record-sample.ts). No record's line is read, and what is held at a time
   * is a chunk of each source and the n drawn.
   */
  async sample(org: string, period: Pick<RecordQuery, 'since' | 'until'>, n: number, seed: string): Promise<RecordSample> {
    const window = idWindow({ since: period.since, until: period.until });
    return this.reading(async (view) => {
      const key = orgKey(org);
      const sources: IdSource[] = [];
      for (const run of view.runs) {
        if (!overlaps(run.meta.minId, run.meta.maxId, window)) continue;
        let high = window.high;
        let highInclusive = window.highInclusive;
        let more = true;
        sources.push({
          ids: [],
          at: 0,
          next: async () => {
            if (!more) return [];
            const entries = await run.range(key, window.low, high, highInclusive, SAMPLE_CHUNK);
            more = entries.length === SAMPLE_CHUNK;
            const ids = entries.map(entryId);
            if (ids.length > 0) [high, highInclusive] = [ids[ids.length - 1], false];
            return ids;
          },
        });
      }
      for (const log of view.logs) {
        if (log.count === 0 || !overlaps(log.minId, log.maxId, window)) continue;
        let read = false;
        sources.push({ ids: [], at: 0, next: async () => (read ? [] : ((read = true), log.index.ids(org, { since: period.since, until: period.until }))) });
      }
      const draw = new SampleDraw(seed, n);
      let population = 0;
      await forEachDistinctNewestFirst(sources, (id) => {
        population++;
        draw.offer(id);
      });
      return { population, ids: draw.ids() };
    });
  }

  /** The query's records, newest first: the runs and logs asked newest first, each for its range, until none older can hold a newer one than the last kept. */
  private async pick(view: View, org: string, query: RecordQuery, limit: number): Promise<Candidate[]> {
    const window = idWindow(query);
    const key = orgKey(org);
    const sources: { maxId: string; range: () => Promise<Candidate[]> }[] = [];
    for (const run of view.runs) {
      if (!overlaps(run.meta.minId, run.meta.maxId, window)) continue;
      sources.push({
        maxId: run.meta.maxId,
        range: async () => (await run.range(key, window.low, window.high, window.highInclusive, limit)).map((entry) => ({ id: entryId(entry), rank: run.meta.seq, run, entry })),
      });
    }
    for (const log of view.logs) {
      if (log.count === 0 || !overlaps(log.minId, log.maxId, window)) continue;
      sources.push({
        maxId: log.maxId,
        range: async () =>
          log.index.ids(org, { since: query.since, until: query.until, before: query.before, limit }).map((id) => ({ id, rank: LOG_RANK + log.gen, log, at: log.index.get(org, id)! })),
      });
    }
    sources.sort((a, b) => (a.maxId < b.maxId ? 1 : a.maxId > b.maxId ? -1 : 0));
    let picked: Candidate[] = [];
    for (const source of sources) {
      if (picked.length >= limit && source.maxId < picked[picked.length - 1].id) break;
      picked = mergeNewestFirst(picked, await source.range(), limit);
    }
    return picked;
  }

  /** The picked records, read (a run's at once, lines next to each other together). */
  private async read(org: string, picked: Candidate[]): Promise<ValuationRecord[]> {
    const lines: (Buffer | undefined)[] = new Array(picked.length);
    const byRun = new Map<RunReader, number[]>();
    const reads: Promise<void>[] = [];
    picked.forEach((c, i) => {
      if (c.run) byRun.set(c.run, [...(byRun.get(c.run) ?? []), i]);
      else reads.push(c.log!.line(c.at!).then((line) => void (lines[i] = line)));
    });
    for (const [run, at] of byRun) reads.push(run.lines(at.map((i) => picked[i].entry!)).then((read) => at.forEach((i, j) => (lines[i] = read[j]))));
    await Promise.all(reads);
    const out: ValuationRecord[] = [];
    for (const line of lines) {
      const found = parseLine(line!);
      if (found.o === org) out.push(found.r);
    }
    return out;
  }

  // ── The old layout ─────────────────────────────────────────────────────────────────────────────

  /** Moves `records.ndjson` into runs a log's worth at a time (resuming where the manifest says), then renames it aside. */
  private async migrate(): Promise<void> {
    const path = join(this.directory, LEGACY_LOG);
    const handle = await open(path, 'r');
    let offset = this.state.legacyOffset ?? 0;
    let moved = 0;
    let unreadable = 0;
    try {
      const { size } = await handle.stat();
      this.log(`valuation records: moving ${LEGACY_LOG} (${(size / 2 ** 20).toFixed(1)} MiB${offset > 0 ? `, from byte ${offset}` : ''}) into monthly runs`);
      while (offset < size) {
        let chunk = await readAt(handle, offset, Math.min(this.logMaxBytes, size - offset));
        let last = chunk.lastIndexOf(NEWLINE);
        // A line longer than a chunk: read on to its end.
        while (last < 0 && offset + chunk.length < size) {
          chunk = Buffer.concat([chunk, await readAt(handle, offset + chunk.length, Math.min(this.logMaxBytes, size - offset - chunk.length))]);
          last = chunk.lastIndexOf(NEWLINE);
        }
        if (last < 0) break;
        const batches = new MonthBatches();
        for (let start = 0, end = chunk.indexOf(NEWLINE); end >= 0 && end <= last; start = end + 1, end = chunk.indexOf(NEWLINE, start)) {
          if (end === start) continue;
          const line = chunk.subarray(start, end);
          const found = readRecordLine(line);
          if (!found) {
            unreadable++;
            continue;
          }
          batches.add(found.o, found.r.id, found.r.keepUntil, line);
          moved++;
        }
        await this.addRuns(batches, { legacyOffset: offset + last + 1 });
        offset += last + 1;
        this.setView();
        await this.compact();
      }
      if (size > offset) this.log(`valuation records: dropped a torn last line of ${LEGACY_LOG} (${size - offset} bytes)`);
    } finally {
      await handle.close();
    }
    let aside = `${path}.migrated`;
    for (let n = 1; await stat(aside).then(() => true, () => false); n++) aside = `${path}.migrated.${n}`;
    await rename(path, aside);
    await fsyncPath(this.directory);
    await this.saveManifest(this.runs, { legacyOffset: null });
    this.log(
      `valuation records: ${moved} records of ${LEGACY_LOG} are in monthly runs${unreadable > 0 ? ` (${unreadable} unreadable lines left out)` : ''}; ` +
        `the old log is kept as ${basename(aside)} and can be deleted`,
    );
  }

  // ── The rest ───────────────────────────────────────────────────────────────────────────────────

  /** What is held in memory now (tests, bench). */
  memory(): FileRecordStoreMemory {
    return { logRecords: [...this.frozen, this.active].reduce((n, l) => n + (l?.count ?? 0), 0), runs: this.runs.length, cachedPages: this.cache.size };
  }

  /** Resolves once the writes, seals and merges begun so far are done (tests, bench). */
  async settled(): Promise<void> {
    await this.writing;
    for (let chain = this.chain; ; chain = this.chain) {
      await chain;
      if (chain === this.chain) break;
    }
    await Promise.all(this.freeing);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.writing;
    await this.chain;
    this.sweep(true);
    await Promise.all(this.freeing);
    await Promise.all([...this.frozen, this.active].filter((l) => l !== undefined).map((l) => l.handle.close().catch(() => undefined)));
    await Promise.all(this.runs.map((r) => r.close()));
  }
}
