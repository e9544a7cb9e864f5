/**
 * Observations in this process's memory, kept in files when given a directory: the store for
 * running without Redis (one process per directory; replicas share a Redis instead), and, with no
 * directory, for tests.
 *
 * The files (one per organisation and kind, `<sha256 of the organisation id>.<kind>.ndjson`, 0600
 * in a 0700 directory) are NDJSON, appended to. Each append() call writes, in one write followed by
 * an fsync, one line per record and then the call's commit line:
 *
 *   {"id":"obs_…","kind":"home","observedAt":"2024-05-01",…}      ← one per record
 *   {"commit":2,"organisation":"bank-1","kind":"home","revision":7} ← the call's last line
 *
 * Loading keeps a call only when its commit line is there and counts exactly the records before it,
 * so a call is there in full or not at all: a write torn by a crash (a process killed mid-write)
 * leaves records with no commit, or half a line, at the end of the file; they are dropped as a
 * unit, with a warning, and cut off the file, never fatal. The commit line also carries the
 * organisation (the file name is only its hash: no id can reach another file, or outside the
 * directory, whatever its characters) and the revision, so revisions go on where they were after
 * a restart. prune() and remove() rewrite a file whole (a temporary file renamed over it, then
 * fsynced) as one call holding what is kept.
 *
 * With a directory, memory holds an index, not the records (issue 33, finding 8: at 960 bytes of
 * heap an observation, 100,000 of them cost a process 350 MB): each record's id, day and where its
 * line lies in the file, about 150 bytes. list() reads the lines it returns from the file (in
 * runs of neighbouring lines, from the page cache as a rule). A read opens the file in the same
 * turn as it picks its entries, and a rewrite renames its file and swaps the index in one turn, so
 * a read always reads the file its offsets point into.
 */
import { closeSync, openSync, readSync, renameSync } from 'node:fs';
import { chmod, mkdir, open, readdir, readFile, rename, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkSeries, dayNumber, dayRangeOf, decodeObservation, encodeObservations, newestFirst, type EncodedObservation } from './observation-records';
import type { ObservationKind, ObservationQuery, ObservationStore, StoredObservation } from './types';
import { fsyncPath } from '../fsync-path';

export interface FileObservationStoreOptions {
  /** Where the files are; null keeps the observations in memory only (tests). Created 0700 if missing. */
  directory: string | null;
  /** Where warnings go (torn appends dropped at load). @default console.error, prefixed [observations] */
  log?: (message: string) => void;
}

/** Where a record's line lies in its series' file (the newline not included). */
interface LineSpan {
  readonly at: number;
  readonly length: number;
}

/** A record as a series holds it: its JSON (in memory, no directory) or where its line is in the file. */
type HeldObservation = Pick<EncodedObservation, 'id' | 'day'> & ({ readonly json: string } | LineSpan);

/** One organisation's observations of one kind. */
interface Series {
  readonly org: string;
  readonly kind: ObservationKind;
  /** Newest first once `sorted`; appends add at the end and clear it. */
  entries: HeldObservation[];
  sorted: boolean;
  revision: number;
  /** Its file (undefined in memory), and the file's length up to the end of the last call it holds. */
  readonly file: string | undefined;
  size: number;
  onDisk: boolean;
  /** Set when a failed write could not be cut back off the file: no more appends until a restart. */
  broken?: Error;
  /** Its writes, one at a time: appends, and prune's rewrite of its file. */
  tail: Promise<unknown>;
}

interface CommitLine {
  commit: number;
  organisation: string;
  kind: ObservationKind;
  revision: number;
}

/** Records decoded in one turn of the event loop by list(): about 10 ms of JSON.parse. */
const DECODE_SLICE = 1_000;
/** list() reads neighbouring lines in one read when they lie within this many bytes of each other… */
const MAX_READ_GAP = 16 * 1024;
/** …and one read spans at most this many bytes (a longer line is read alone). */
const MAX_READ_SPAN = 1024 * 1024;

const FILE_NAME = /^([0-9a-f]{64})\.(home|vehicle)\.ndjson$/;
/** What a rewrite (rewriteSeries) leaves behind when the process dies before its rename. */
const LEFTOVER_TEMPORARY = /\.ndjson\.\d+\.[0-9a-f]+\.tmp$/;

export class FileObservationStore implements ObservationStore {
  /** By `<kind>:<organisation>` (kinds hold no colon, so no two pairs share a key). */
  private readonly series = new Map<string, Series>();
  private closed = false;

  private constructor(
    private readonly directory: string | null,
    private readonly log: (message: string) => void,
  ) {}

  /** Opens the store, loading (and repairing: see above) every file in the directory first. */
  static async open(options: FileObservationStoreOptions): Promise<FileObservationStore> {
    const store = new FileObservationStore(options.directory, options.log ?? ((message) => console.error(`[observations] ${message}`)));
    if (options.directory !== null) await store.load(options.directory);
    return store;
  }

  async append(org: string, kind: ObservationKind, records: readonly StoredObservation[]): Promise<number> {
    const encoded = encodeObservations(org, kind, records);
    this.checkOpen();
    if (encoded.length === 0) return this.revision(org, kind);
    const series = this.seriesOf(org, kind);
    return this.serially(series, async () => {
      const revision = series.revision + 1;
      const spans = await this.writeCall(series, encoded, revision);
      encoded.forEach((entry, i) => series.entries.push(spans ? { id: entry.id, day: entry.day, ...spans[i] } : entry));
      series.sorted = false;
      series.revision = revision;
      return revision;
    });
  }

  async list(org: string, kind: ObservationKind, query?: ObservationQuery): Promise<StoredObservation[]> {
    const { fromDay, toDay, offset, limit } = dayRangeOf(org, kind, query);
    const series = this.series.get(keyOf(org, kind));
    if (!series) return [];
    if (!series.sorted) {
      series.entries.sort(newestFirst);
      series.sorted = true;
    }
    const entries = series.entries;
    const picked: HeldObservation[] = [];
    for (let i = firstAtOrBefore(entries, toDay) + offset; i < entries.length && entries[i].day >= fromDay && picked.length < limit; i++) picked.push(entries[i]);
    // Opened in the turn the entries were picked in: a rewrite cannot come between (see the top).
    const texts = series.file === undefined || picked.length === 0 ? picked.map((entry) => (entry as { json: string }).json) : await readLines(series.file, picked as LineSpan[]);
    // A fit reads 20,000: decoded in slices, other requests served between (issue 33, finding 2).
    const found: StoredObservation[] = [];
    for (const text of texts) {
      if (found.length > 0 && found.length % DECODE_SLICE === 0) await nextTurn();
      found.push(decodeObservation(text));
    }
    return found;
  }

  async revision(org: string, kind: ObservationKind): Promise<number> {
    checkSeries(org, kind);
    return this.series.get(keyOf(org, kind))?.revision ?? 0;
  }

  async remove(org: string, kind: ObservationKind, ids: readonly string[]): Promise<string[]> {
    checkSeries(org, kind);
    this.checkOpen();
    const series = this.series.get(keyOf(org, kind));
    if (!series || ids.length === 0) return [];
    const wanted = new Set(ids);
    return this.serially(series, async () => {
      const removed = series.entries.filter((entry) => wanted.has(entry.id)).map((entry) => entry.id);
      if (removed.length > 0) await this.rewriteSeries(series, series.entries.filter((entry) => !wanted.has(entry.id)));
      return removed;
    });
  }

  async count(org: string, kind: ObservationKind): Promise<number> {
    checkSeries(org, kind);
    return this.series.get(keyOf(org, kind))?.entries.length ?? 0;
  }

  async prune(before: string): Promise<number> {
    const beforeDay = dayNumber(before, 'before');
    this.checkOpen();
    let removed = 0;
    for (const series of [...this.series.values()]) {
      removed += await this.serially(series, async () => this.pruneSeries(series, beforeDay));
    }
    return removed;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.series.values()].map((series) => series.tail));
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('the observation store is closed');
  }

  private seriesOf(org: string, kind: ObservationKind): Series {
    const key = keyOf(org, kind);
    let series = this.series.get(key);
    if (!series) {
      const file = this.directory === null ? undefined : join(this.directory, fileNameOf(org, kind));
      series = { org, kind, entries: [], sorted: true, revision: 0, file, size: 0, onDisk: false, tail: Promise.resolve() };
      this.series.set(key, series);
    }
    return series;
  }

  private serially<T>(series: Series, task: () => Promise<T>): Promise<T> {
    const run = series.tail.then(task);
    series.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes one call (its records, then its commit line) in one write and fsyncs it; on failure cuts
   * it back off. Gives where each record's line now lies in the file (undefined in memory).
   */
  private async writeCall(series: Series, encoded: readonly EncodedObservation[], revision: number): Promise<LineSpan[] | undefined> {
    if (series.file === undefined) return undefined;
    if (series.broken) throw new Error(`observations of ${series.kind} for this organisation cannot be appended until a restart: ${series.broken.message}`);
    const { content, spans } = callBytes(series, encoded.map((entry) => Buffer.from(entry.json)), revision, series.size);
    const handle = await open(series.file, 'a', 0o600);
    try {
      await writeAll(handle, content);
      await handle.datasync();
    } catch (error) {
      // Cut the part written back off, so that the next call does not follow half a call.
      await handle.truncate(series.size).catch((cause: Error) => (series.broken = cause));
      throw error;
    } finally {
      await handle.close();
    }
    if (!series.onDisk) {
      await fsyncPath(this.directory as string);
      series.onDisk = true;
    }
    series.size += content.length;
    return spans;
  }

  private async pruneSeries(series: Series, beforeDay: number): Promise<number> {
    const kept = series.entries.filter((entry) => entry.day >= beforeDay);
    const removed = series.entries.length - kept.length;
    if (removed > 0) await this.rewriteSeries(series, kept);
    return removed;
  }

  /** The series becomes `kept`: its file rewritten whole as one call (prune, remove), under a new revision. */
  private async rewriteSeries(series: Series, kept: HeldObservation[]): Promise<void> {
    const revision = series.revision + 1;
    if (series.file === undefined) {
      series.entries = kept;
      series.revision = revision;
      return;
    }
    const lines = await readLines(series.file, kept as LineSpan[], (text) => Buffer.from(text));
    const { content, spans } = callBytes(series, lines, revision, 0);
    const temporary = `${series.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await writeAll(handle, content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The new file and its index in one turn: a read picks its entries and opens the file in one too.
    renameSync(temporary, series.file);
    series.entries = kept.map((entry, i) => ({ id: entry.id, day: entry.day, ...spans[i] }));
    series.sorted = false;
    series.size = content.length;
    series.onDisk = true;
    series.broken = undefined;
    series.revision = revision;
    await fsyncPath(this.directory as string);
  }

  private async load(directory: string): Promise<void> {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    await chmod(directory, 0o700);
    for (const name of (await readdir(directory)).sort()) {
      if (LEFTOVER_TEMPORARY.test(name)) {
        await unlink(join(directory, name));
        this.log(`removed ${name}, a rewrite a crash interrupted (the file it was to replace is intact)`);
        continue;
      }
      const match = FILE_NAME.exec(name);
      if (match) await this.loadFile(directory, name, match[1], match[2] as ObservationKind);
    }
  }

  private async loadFile(directory: string, name: string, hash: string, kind: ObservationKind): Promise<void> {
    const file = join(directory, name);
    const bytes = await readFile(file);
    let series: Series | undefined;
    let pending: HeldObservation[] = [];
    let unreadable = 0;
    let offset = 0;
    /** The end of the last complete call. */
    let good = 0;
    for (let end = bytes.indexOf(0x0a, offset); end >= 0; end = bytes.indexOf(0x0a, offset)) {
      const line = parseLine(bytes.toString('utf8', offset, end), { at: offset, length: end - offset });
      offset = end + 1;
      if (line === undefined) unreadable++;
      else if ('commit' in line) {
        const whole = unreadable === 0 && line.commit === pending.length && line.kind === kind && fileNameOf(line.organisation, kind) === name;
        if (whole) {
          series ??= this.seriesOf(line.organisation, kind);
          for (const entry of pending) series.entries.push(entry);
          series.revision = line.revision;
        } else {
          this.log(`${name}: dropped a call of ${pending.length} records whose lines do not match its commit line (the file was changed by hand?)`);
        }
        pending = [];
        unreadable = 0;
        good = offset;
      } else pending.push(line);
    }
    if (good < bytes.length) {
      this.log(`${name}: dropped a torn append at its end (${pending.length} complete records and ${bytes.length - offset} bytes of a line, with no commit line): a process died while writing it; the file is cut back to its last complete call`);
      await truncate(file, good);
    }
    if (series) {
      series.sorted = false;
      series.size = good;
      series.onDisk = true;
    } else if (good === 0) {
      await unlink(file); // nothing but a torn first call: as if it had never been written
    } else {
      const aside = `${file}.unreadable-${Date.now()}`;
      await rename(file, aside);
      this.log(`${name}: no complete call in it belongs to ${hash}; moved aside to ${aside}`);
    }
  }
}

function keyOf(org: string, kind: ObservationKind): string {
  return `${kind}:${org}`;
}

function fileNameOf(org: string, kind: ObservationKind): string {
  return `${createHash('sha256').update(org, 'utf8').digest('hex')}.${kind}.ndjson`;
}

/**
 * A call as written: a line per record, then its commit line; and where each record's line lies
 * once the call is written at byte `at` of the file.
 */
function callBytes(series: Series, lines: readonly Buffer[], revision: number, at: number): { content: Buffer; spans: LineSpan[] } {
  const commit: CommitLine = { commit: lines.length, organisation: series.org, kind: series.kind, revision };
  const parts: Buffer[] = [];
  const spans: LineSpan[] = [];
  let position = at;
  for (const line of lines) {
    spans.push({ at: position, length: line.length });
    parts.push(line, NEWLINE);
    position += line.length + 1;
  }
  parts.push(Buffer.from(`${JSON.stringify(commit)}\n`));
  return { content: Buffer.concat(parts), spans };
}

const NEWLINE = Buffer.from('\n');

/**
 * The lines at `spans` of `file`, in the order asked, each made into what `as` makes of its text:
 * read in runs of neighbouring lines (sorted by place, at most MAX_READ_SPAN bytes a read), with
 * synchronous reads, DECODE_SLICE lines a turn. A page's lines lie scattered through the file (it
 * is in recording order, a page in observation order), and a read through the thread pool per
 * line made three exports of 100,000 take 183 s instead of 20; from the page cache a pread is a
 * few microseconds.
 */
async function readLines<T = string>(file: string, spans: readonly LineSpan[], as: (text: string) => T = (text) => text as T): Promise<T[]> {
  const fd = openSync(file, 'r');
  try {
    const order = spans.map((_, i) => i).sort((a, b) => spans[a].at - spans[b].at);
    const lines = new Array<T>(spans.length);
    for (let first = 0, sliced = 0; first < order.length; ) {
      if (first - sliced >= DECODE_SLICE) {
        sliced = first;
        await nextTurn();
      }
      const start = spans[order[first]].at;
      let end = start + spans[order[first]].length;
      let last = first + 1;
      for (; last < order.length; last++) {
        const next = spans[order[last]];
        if (next.at - end > MAX_READ_GAP || next.at + next.length - start > MAX_READ_SPAN) break;
        end = Math.max(end, next.at + next.length);
      }
      const buffer = readAt(fd, start, end - start);
      for (let i = first; i < last; i++) {
        const span = spans[order[i]];
        lines[order[i]] = as(buffer.toString('utf8', span.at - start, span.at - start + span.length));
      }
      first = last;
    }
    return lines;
  } finally {
    closeSync(fd);
  }
}

/** `length` bytes of `fd` from `position`; a file shorter than that is a broken index. */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  for (let done = 0; done < length; ) {
    const bytesRead = readSync(fd, buffer, done, length - done, position + done);
    if (bytesRead === 0) throw new Error(`an observation file ends before byte ${position + length}: changed outside the service?`);
    done += bytesRead;
  }
  return buffer;
}

/** A line of a file: a commit line, a record, or undefined when it is neither (unreadable). */
function parseLine(text: string, span: LineSpan): CommitLine | HeldObservation | undefined {
  try {
    const value = JSON.parse(text) as Partial<CommitLine> & Partial<StoredObservation>;
    if (typeof value.commit === 'number' && typeof value.organisation === 'string' && typeof value.revision === 'number') return value as CommitLine;
    if (typeof value.id === 'string') return { id: value.id, day: dayNumber(value.observedAt, 'observedAt'), ...span };
  } catch {
    // unreadable: counted by the caller
  }
  return undefined;
}

/** The first index of `entries` (newest first) observed on or before `toDay`. */
function firstAtOrBefore(entries: readonly HeldObservation[], toDay: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle].day > toDay) low = middle + 1;
    else high = middle;
  }
  return low;
}

async function writeAll(handle: FileHandle, content: Buffer): Promise<void> {
  for (let written = 0; written < content.length; ) {
    written += (await handle.write(content, written, content.length - written)).bytesWritten;
  }
}

