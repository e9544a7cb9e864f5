/**
 * Records in an append-only log (`records.ndjson`, one `{ "o": org, "r": record }` a line) with the
 * index in memory: the store of a single process without Redis. An append resolves once its lines
 * are written and fsynced; appends arriving while a write is on its way go out together in the next
 * one (group commit), so a busy service pays one fsync per write, not one per valuation. A torn
 * last line (the process died mid-write) is dropped when the log is read back; its valuation was
 * never answered. Pruning rewrites the log without what expired (written aside, then renamed).
 */
import { mkdirSync } from 'node:fs';
import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryRecordStore } from './memory-record-store';
import type { RecordQuery, ValuationRecord, ValuationRecordStore } from './types';

const LOG = 'records.ndjson';

interface Pending {
  text: string;
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
    private readonly index: MemoryRecordStore,
  ) {}

  static async open(directory: string, log: (message: string) => void = () => undefined): Promise<FileRecordStore> {
    mkdirSync(directory, { recursive: true });
    const index = new MemoryRecordStore();
    const path = join(directory, LOG);
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '' : Promise.reject(error)));
    const lines = text.split('\n');
    // The last piece is '' after a complete log; anything else there is a torn write.
    const torn = lines.pop();
    if (torn) log(`valuation records: dropped a torn last line of ${LOG} (${torn.length} bytes)`);
    for (const line of lines) {
      if (line === '') continue;
      const { o, r } = JSON.parse(line) as { o: string; r: ValuationRecord };
      index.add(o, [r]);
    }
    const store = new FileRecordStore(directory, await open(path, 'a'), index);
    if (torn) await store.compact();
    return store;
  }

  append(org: string, records: readonly ValuationRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const text = records.map((r) => `${JSON.stringify({ o: org, r })}\n`).join('');
    return new Promise((resolve, reject) => {
      this.pending.push({ text, org, records, done: (error) => (error ? reject(error) : resolve()) });
      this.writing ??= this.drain();
    });
  }

  /** Writes what is pending, one write and fsync for all of it, until nothing is. */
  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.log.appendFile(batch.map((p) => p.text).join(''));
        await this.log.datasync();
        for (const p of batch) {
          this.index.add(p.org, p.records);
          p.done();
        }
      } catch (error) {
        for (const p of batch) p.done(error as Error);
      }
    }
    this.writing = null;
  }

  get(org: string, id: string): Promise<ValuationRecord | null> {
    return this.index.get(org, id);
  }

  list(org: string, query?: RecordQuery): Promise<ValuationRecord[]> {
    return this.index.list(org, query);
  }

  ids(org: string, query?: Pick<RecordQuery, 'since' | 'until'>): Promise<string[]> {
    return this.index.ids(org, query);
  }

  async prune(today: string): Promise<number> {
    await this.writing;
    const dropped = this.index.dropExpired(today);
    if (dropped.length > 0) await this.compact();
    return dropped.length;
  }

  /** Rewrites the log from the index: aside, fsynced, then renamed over it. */
  private async compact(): Promise<void> {
    const path = join(this.directory, LOG);
    const aside = await open(`${path}.compacting`, 'w');
    try {
      let chunk = '';
      for (const [o, r] of this.index.entries()) {
        chunk += `${JSON.stringify({ o, r })}\n`;
        if (chunk.length > 1 << 20) {
          await aside.appendFile(chunk);
          chunk = '';
        }
      }
      await aside.appendFile(chunk);
      await aside.sync();
    } finally {
      await aside.close();
    }
    await this.log.close();
    await rename(`${path}.compacting`, path);
    this.log = await open(path, 'a');
  }

  async close(): Promise<void> {
    await this.writing;
    await this.log.close();
  }
}
