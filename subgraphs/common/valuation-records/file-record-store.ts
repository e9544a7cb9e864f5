/**
 * Records in an append-only log (`records.ndjson`, one `{ "o": org, "r": record }` a line), with
 * only an index in memory (per organisation: id → where its line lies and until when it is kept,
 * about a tenth of the record): the store of a single process without Redis. A record is read from
 * the log when asked for.
 *
 * An append resolves once its lines are written and fsynced; appends arriving while a write is on
 * its way go out together in the next one (group commit), so a busy service pays one fsync per
 * write, not one per valuation. A torn last line (the process died mid-write) is dropped when the
 * log is read back; its valuation was never answered. Pruning rewrites the log without what
 * expired (written aside, then renamed).
 */
import { mkdirSync } from 'node:fs';
import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { RecordIndex } from './record-index';
import type { RecordQuery, ValuationRecord, ValuationRecordStore } from './types';

const LOG = 'records.ndjson';
const NEWLINE = 0x0a;

/** Where a record's line lies in the log. */
interface LineAt {
  offset: number;
  length: number;
  keepUntil: string;
}

interface Pending {
  lines: Buffer[];
  org: string;
  records: readonly ValuationRecord[];
  done: (error?: Error) => void;
}

export class FileRecordStore implements ValuationRecordStore {
  private pending: Pending[] = [];
  private writing: Promise<void> | null = null;

  private constructor(
    private readonly directory: string,
    private log: FileHandle,
    /** The log's length: where the next line goes. */
    private size: number,
    private readonly index: RecordIndex<LineAt>,
  ) {}

  static async open(directory: string, log: (message: string) => void = () => undefined): Promise<FileRecordStore> {
    mkdirSync(directory, { recursive: true });
    const path = join(directory, LOG);
    const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? Buffer.alloc(0) : Promise.reject(error)));
    const index = new RecordIndex<LineAt>();
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end >= 0; start = end + 1, end = bytes.indexOf(NEWLINE, start)) {
      if (end === start) continue;
      const { o, r } = JSON.parse(bytes.toString('utf8', start, end)) as { o: string; r: ValuationRecord };
      index.add(o, r.id, { offset: start, length: end - start, keepUntil: r.keepUntil });
    }
    // Whatever follows the last newline is a torn write.
    const torn = bytes.length - start;
    if (torn > 0) log(`valuation records: dropped a torn last line of ${LOG} (${torn} bytes)`);
    const store = new FileRecordStore(directory, await open(path, 'a+'), start, index);
    if (torn > 0) await store.compact();
    return store;
  }

  append(org: string, records: readonly ValuationRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const lines = records.map((r) => Buffer.from(`${JSON.stringify({ o: org, r })}\n`));
    return new Promise((resolve, reject) => {
      this.pending.push({ lines, org, records, done: (error) => (error ? reject(error) : resolve()) });
      this.writing ??= this.drain();
    });
  }

  /** Writes what is pending, one write and fsync for all of it, until nothing is. */
  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.log.appendFile(Buffer.concat(batch.flatMap((p) => p.lines)));
        await this.log.datasync();
        for (const p of batch) {
          p.records.forEach((record, i) => {
            const length = p.lines[i].length;
            this.index.add(p.org, record.id, { offset: this.size, length: length - 1, keepUntil: record.keepUntil });
            this.size += length;
          });
          p.done();
        }
      } catch (error) {
        for (const p of batch) p.done(error as Error);
      }
    }
    this.writing = null;
  }

  async get(org: string, id: string): Promise<ValuationRecord | null> {
    const at = this.index.get(org, id);
    return at ? this.read(at) : null;
  }

  async list(org: string, query?: RecordQuery): Promise<ValuationRecord[]> {
    return Promise.all(this.index.ids(org, query).map((id) => this.read(this.index.get(org, id)!)));
  }

  async ids(org: string, query?: Pick<RecordQuery, 'since' | 'until'>): Promise<string[]> {
    return this.index.ids(org, query);
  }

  private async line(at: LineAt): Promise<Buffer> {
    const buffer = Buffer.alloc(at.length);
    await this.log.read(buffer, 0, at.length, at.offset);
    return buffer;
  }

  private async read(at: LineAt): Promise<ValuationRecord> {
    return (JSON.parse((await this.line(at)).toString('utf8')) as { r: ValuationRecord }).r;
  }

  async prune(today: string): Promise<number> {
    await this.writing;
    const dropped = this.index.dropExpired(today);
    if (dropped > 0) await this.compact();
    return dropped;
  }

  /** Rewrites the log from the index: the kept lines copied aside, fsynced, then renamed over it. */
  private async compact(): Promise<void> {
    const path = join(this.directory, LOG);
    const aside = await open(`${path}.compacting`, 'w');
    // The index moves to the new offsets only once the new log is in place.
    const moved: [LineAt, number][] = [];
    let size = 0;
    try {
      for (const [, , at] of this.index.entries()) {
        await aside.write(Buffer.concat([await this.line(at), Buffer.from('\n')]));
        moved.push([at, size]);
        size += at.length + 1;
      }
      await aside.sync();
    } finally {
      await aside.close();
    }
    await this.log.close();
    await rename(`${path}.compacting`, path);
    this.log = await open(path, 'a+');
    for (const [at, offset] of moved) at.offset = offset;
    this.size = size;
  }

  async close(): Promise<void> {
    await this.writing;
    await this.log.close();
  }
}
