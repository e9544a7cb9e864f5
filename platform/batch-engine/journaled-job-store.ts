/**
 * The embedded mode's jobs on disk (issue 35): the in-memory store, with every change it accepts
 * appended to a journal file (one JSON line each) and replayed at start, so jobs and their results
 * outlive a restart as records and observations do. Replaying at each entry's own time keeps the
 * jobs' timestamps; the journal is rewritten at start without the jobs that have expired.
 *
 * The in-process queue does not survive a restart, so a job still queued or running when the
 * process stopped is failed at start, saying why (its callback hears of it): it does not vanish.
 * With REDIS_URL the Redis store keeps jobs instead, shared by every process.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isTerminal } from './job-status';
import { InMemoryJobStore } from './in-memory-job-store';
import type { EndedJobsConsumer, JobStore, NewBatchJob, RecordOutcome, TransitionResult } from './job-store';
import type { BatchJob, BatchJobPage, ItemResult, JobStatus } from './types';

/** The error of a job the restart cut off. */
export const INTERRUPTED_BY_RESTART = 'interrupted: the service stopped before the job ended, and the embedded mode keeps no queue across a restart; submit it again (with REDIS_URL, jobs resume on any process)';

type Entry =
  | { op: 'create'; at: number; job: NewBatchJob }
  /** A chunk's items; once its job has ended, only how many (`count`): the journal keeps the counts, not the portfolio. */
  | { op: 'append'; at: number; id: string; chunk: number; items?: readonly unknown[]; count?: number }
  | { op: 'seal'; at: number; id: string }
  | { op: 'record'; at: number; id: string; chunk: number; results: readonly ItemResult[] }
  | { op: 'transition'; at: number; id: string; to: JobStatus; error?: string }
  | { op: 'delivery'; at: number; id: string; delivery: unknown };

const jobOf = (entry: Entry): string => (entry.op === 'create' ? entry.job.id : entry.id);

export class JournaledJobStore implements JobStore {
  private readonly inner: InMemoryJobStore;
  /** The time the inner store reads: the instant of the change being made or replayed. */
  private replayingAt: number | undefined;

  private constructor(private readonly file: string, retentionMs: number) {
    this.inner = new InMemoryJobStore({ retentionMs, clock: () => this.replayingAt ?? Date.now() });
  }

  /**
   * Opens (or starts) the journal at `file`: replays it, fails the jobs a restart cut off, and
   * rewrites it with the jobs still readable only, their inputs as counts (every job has ended by
   * then, and an ended job's items are never read again).
   */
  static async open(file: string, options: { retentionMs: number; log?: (message: string) => void }): Promise<JournaledJobStore> {
    const store = new JournaledJobStore(file, options.retentionMs);
    mkdirSync(dirname(file), { recursive: true });
    const entries = existsSync(file) ? readEntries(file, options.log) : [];
    for (const entry of entries) await store.apply(entry);
    const live: string[] = [];
    for (const entry of entries) if (entry.op === 'create' && (await store.inner.get(entry.job.id))) live.push(entry.job.id);
    const interrupted: Entry[] = [];
    for (const id of live) {
      const job = await store.inner.get(id);
      if (!job || isTerminal(job.status)) continue;
      const { at, result } = await store.at(() => store.inner.transition(id, 'failed', { error: INTERRUPTED_BY_RESTART }));
      if (result.applied) interrupted.push({ op: 'transition', at, id, to: 'failed', error: INTERRUPTED_BY_RESTART });
    }
    const kept = new Set(live);
    const compacted = [...entries.filter((entry) => kept.has(jobOf(entry))).map(withoutItems), ...interrupted];
    writeFileSync(`${file}.tmp`, compacted.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    renameSync(`${file}.tmp`, file);
    if (interrupted.length > 0) options.log?.(`${interrupted.length} batch job(s) still running when the service stopped were failed (${file})`);
    return store;
  }

  /** Replays one entry onto the inner store at the entry's time. */
  private async apply(entry: Entry): Promise<void> {
    this.replayingAt = entry.at;
    try {
      switch (entry.op) {
        case 'create': await this.inner.create(entry.job); break;
        case 'append': await this.inner.appendInput(entry.id, entry.chunk, entry.items ?? new Array<null>(entry.count ?? 0).fill(null)); break;
        case 'seal': await this.inner.seal(entry.id); break;
        case 'record': await this.inner.recordChunk(entry.id, entry.chunk, entry.results); break;
        case 'transition': await this.inner.transition(entry.id, entry.to, entry.error === undefined ? {} : { error: entry.error }); break;
        case 'delivery': await this.inner.appendDelivery(entry.id, entry.delivery); break;
      }
    } finally {
      this.replayingAt = undefined;
    }
  }

  private write(entry: Entry): void {
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }

  /** Runs a change of the inner store at one instant, which its journal entry then carries. */
  private async at<T>(change: () => Promise<T>): Promise<{ at: number; result: T }> {
    const at = Date.now();
    this.replayingAt = at;
    try {
      return { at, result: await change() };
    } finally {
      this.replayingAt = undefined;
    }
  }

  async create(job: NewBatchJob): Promise<BatchJob> {
    const { at, result } = await this.at(() => this.inner.create(job));
    this.write({ op: 'create', at, job });
    return result;
  }

  get(id: string): Promise<BatchJob | undefined> {
    return this.inner.get(id);
  }

  listByOrganisation(organisation: string, offset: number, limit: number): Promise<BatchJobPage> {
    return this.inner.listByOrganisation(organisation, offset, limit);
  }

  async transition(id: string, to: JobStatus, options: { error?: string } = {}): Promise<TransitionResult> {
    const { at, result } = await this.at(() => this.inner.transition(id, to, options));
    if (result.applied) this.write({ op: 'transition', at, id, to, ...(options.error !== undefined && { error: options.error }) });
    return result;
  }

  async appendInput(id: string, chunkIndex: number, items: readonly unknown[]): Promise<boolean> {
    const { at, result: accepted } = await this.at(() => this.inner.appendInput(id, chunkIndex, items));
    if (accepted) this.write({ op: 'append', at, id, chunk: chunkIndex, items });
    return accepted;
  }

  async seal(id: string): Promise<{ completed: boolean }> {
    const before = await this.inner.get(id);
    const { at, result } = await this.at(() => this.inner.seal(id));
    if (before && !isTerminal(before.status)) this.write({ op: 'seal', at, id });
    return result;
  }

  stalledSubmissions(idleMs: number): Promise<string[]> {
    return this.inner.stalledSubmissions(idleMs);
  }

  readInput(id: string, chunkIndex: number): Promise<unknown[] | undefined> {
    return this.inner.readInput(id, chunkIndex);
  }

  async recordChunk(id: string, chunkIndex: number, results: readonly ItemResult[]): Promise<RecordOutcome> {
    const { at, result: outcome } = await this.at(() => this.inner.recordChunk(id, chunkIndex, results));
    if (outcome.kind === 'recorded' || outcome.kind === 'completed') this.write({ op: 'record', at, id, chunk: chunkIndex, results });
    return outcome;
  }

  streamResults(id: string, fromIndex?: number): AsyncIterable<ItemResult> {
    return this.inner.streamResults(id, fromIndex);
  }

  async appendDelivery(id: string, delivery: unknown): Promise<boolean> {
    const { at, result: appended } = await this.at(() => this.inner.appendDelivery(id, delivery));
    if (appended) this.write({ op: 'delivery', at, id, delivery });
    return appended;
  }

  consumeEnded(handler: (jobId: string) => Promise<void>): EndedJobsConsumer {
    return this.inner.consumeEnded(handler);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

function withoutItems(entry: Entry): Entry {
  return entry.op === 'append' && entry.items ? { op: 'append', at: entry.at, id: entry.id, chunk: entry.chunk, count: entry.items.length } : entry;
}

/** The journal's entries; a torn last line (a crash mid-write) is dropped, with a word in the log. */
function readEntries(file: string, log?: (message: string) => void): Entry[] {
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
  const entries: Entry[] = [];
  lines.forEach((line, i) => {
    try {
      entries.push(JSON.parse(line) as Entry);
    } catch {
      log?.(`batch job journal ${file}: line ${i + 1} is not JSON (a write cut short) and is skipped`);
    }
  });
  return entries;
}
