import { decodeChunk, encodeChunk } from './chunk-codec';
import { ChunkOutOfOrderError } from './errors';
import { canTransition, isTerminal } from './job-status';
import { toBatchJob, type JobFields } from './job-record';
import {
  chunkCountOf,
  resultsInOrder,
  type EndedJobsConsumer,
  type JobStore,
  type NewBatchJob,
  type RecordOutcome,
  type TransitionResult,
} from './job-store';
import type { BatchJob, BatchJobPage, ItemResult, JobStatus } from './types';

export interface InMemoryJobStoreOptions {
  /** How long a job and its results stay readable after it ends, in ms. */
  retentionMs: number;
  /** Epoch ms for the job's timestamps (a journal replays its own). @default Date.now */
  clock?: () => number;
}

interface StoredJob extends JobFields {
  chunkCount: number;
  /** When items last arrived (creation, then each chunk), epoch ms. */
  lastInputAt: number;
  /** Encoded items of the chunks not recorded yet: compressed, and dropped as each chunk is recorded. */
  readonly inputs: Map<number, Buffer>;
  readonly results: Map<number, Buffer>;
  readonly deliveries: unknown[];
  expiresAt?: number;
}

// Ended-job ids waiting for a consumer; past this many the oldest are dropped (Redis: stream MAXLEN).
const MAX_PENDING_ENDED = 10_000;

/**
 * Jobs in this process only: for running the service without Redis, development and tests.
 * Every method checks and writes with no await in between, which makes each one atomic here.
 */
export class InMemoryJobStore implements JobStore {
  private readonly jobs = new Map<string, StoredJob>();
  /** Job ids per organisation in creation order. */
  private readonly byOrganisation = new Map<string, string[]>();
  private readonly expiryTimers = new Set<NodeJS.Timeout>();
  private readonly ended = new EndedOutbox();

  private readonly now: () => number;

  constructor(private readonly options: InMemoryJobStoreOptions) {
    this.now = options.clock ?? Date.now;
  }

  async create(job: NewBatchJob): Promise<BatchJob> {
    if (this.jobs.has(job.id)) throw new Error(`batch job ${job.id} exists already`);
    const stored: StoredJob = {
      ...job,
      createdAt: this.now(),
      status: 'queued',
      total: 0,
      processed: 0,
      succeeded: 0,
      failed: 0,
      chunkCount: 0,
      sealed: false,
      lastInputAt: this.now(),
      inputs: new Map(),
      results: new Map(),
      deliveries: [],
    };
    this.jobs.set(job.id, stored);
    const ids = this.byOrganisation.get(job.organisation) ?? [];
    ids.push(job.id);
    this.byOrganisation.set(job.organisation, ids);
    return toBatchJob(stored);
  }

  async get(id: string): Promise<BatchJob | undefined> {
    const job = this.live(id);
    return job && toBatchJob(job, [...job.deliveries]);
  }

  async listByOrganisation(organisation: string, offset: number, limit: number): Promise<BatchJobPage> {
    const ids = this.byOrganisation.get(organisation) ?? [];
    const jobs: BatchJob[] = [];
    let skipped = 0;
    for (let i = ids.length - 1; i >= 0; i--) {
      const job = this.live(ids[i]);
      if (!job) continue;
      if (skipped < offset) skipped++;
      else if (jobs.length < limit) jobs.push(toBatchJob(job));
      else return { jobs, nextOffset: offset + limit };
    }
    return { jobs, nextOffset: null };
  }

  async transition(id: string, to: JobStatus, options: { error?: string } = {}): Promise<TransitionResult> {
    const job = this.live(id);
    if (!job || !canTransition(job.status, to)) return { applied: false, current: job?.status };
    const from = job.status;
    if (to === 'running') this.markRunning(job);
    else this.finish(job, to, options.error);
    return { applied: true, from };
  }

  async appendInput(id: string, chunkIndex: number, items: readonly unknown[]): Promise<boolean> {
    const job = this.live(id);
    if (!job || isTerminal(job.status)) return false;
    if (job.sealed || chunkIndex !== job.chunkCount) throw new ChunkOutOfOrderError(id, chunkIndex, job.sealed);
    job.inputs.set(chunkIndex, encodeChunk(items));
    job.chunkCount += 1;
    job.total += items.length;
    job.lastInputAt = this.now();
    return true;
  }

  async seal(id: string): Promise<{ completed: boolean }> {
    const job = this.live(id);
    if (!job || isTerminal(job.status)) return { completed: false };
    job.sealed = true;
    return { completed: this.completeIfAllRecorded(job) };
  }

  async stalledSubmissions(idleMs: number): Promise<string[]> {
    const before = this.now() - idleMs;
    return [...this.jobs.values()]
      .filter((job) => !job.sealed && !isTerminal(job.status) && job.lastInputAt <= before && this.live(job.id))
      .map((job) => job.id);
  }

  async readInput(id: string, chunkIndex: number): Promise<unknown[] | undefined> {
    const blob = this.live(id)?.inputs.get(chunkIndex);
    return blob && decodeChunk(blob);
  }

  async recordChunk(id: string, chunkIndex: number, results: readonly ItemResult[]): Promise<RecordOutcome> {
    const job = this.live(id);
    if (!job || isTerminal(job.status)) return { kind: 'discarded', status: job?.status };
    if (job.results.has(chunkIndex)) return { kind: 'duplicate' };
    if (job.status === 'queued') this.markRunning(job);
    job.results.set(chunkIndex, encodeChunk(results));
    const succeeded = results.filter((result) => result.ok).length;
    job.processed += results.length;
    job.succeeded += succeeded;
    job.failed += results.length - succeeded;
    job.inputs.delete(chunkIndex);
    return { kind: this.completeIfAllRecorded(job) ? 'completed' : 'recorded' };
  }

  streamResults(id: string, fromIndex = 0): AsyncIterable<ItemResult> {
    const job = this.live(id);
    if (!job) return resultsInOrder(0, async () => undefined);
    return resultsInOrder(chunkCountOf(job.total, job.chunkSize), async (chunkIndex) => {
      const blob = this.live(id)?.results.get(chunkIndex);
      return blob && decodeChunk<ItemResult>(blob);
    }, job.chunkSize, fromIndex);
  }

  async appendDelivery(id: string, delivery: unknown): Promise<boolean> {
    const job = this.live(id);
    if (!job) return false;
    // A JSON round trip stores what Redis would: a copy, not the caller's live object.
    job.deliveries.push(JSON.parse(JSON.stringify(delivery)));
    return true;
  }

  consumeEnded(handler: (jobId: string) => Promise<void>): EndedJobsConsumer {
    return this.ended.consume(handler);
  }

  async close(): Promise<void> {
    for (const timer of this.expiryTimers) clearTimeout(timer);
    this.expiryTimers.clear();
    this.ended.close();
  }

  private markRunning(job: StoredJob): void {
    job.status = 'running';
    job.startedAt = this.now();
  }

  private completeIfAllRecorded(job: StoredJob): boolean {
    if (!job.sealed || job.results.size !== job.chunkCount) return false;
    if (job.status === 'queued') this.markRunning(job); // a job of no items
    this.finish(job, 'completed');
    return true;
  }

  private finish(job: StoredJob, status: JobStatus, error?: string): void {
    job.status = status;
    job.completedAt = this.now();
    if (error !== undefined) job.error = error;
    job.inputs.clear();
    job.expiresAt = job.completedAt + this.options.retentionMs;
    const timer = setTimeout(() => {
      this.expiryTimers.delete(timer);
      this.forget(job);
    }, this.options.retentionMs);
    timer.unref();
    this.expiryTimers.add(timer);
    this.ended.push(job.id);
  }

  /** The job unless it has expired; an expired job is forgotten on sight (its timer may lag). */
  private live(id: string): StoredJob | undefined {
    const job = this.jobs.get(id);
    if (job?.expiresAt !== undefined && job.expiresAt <= Date.now()) {
      this.forget(job);
      return undefined;
    }
    return job;
  }

  private forget(job: StoredJob): void {
    if (this.jobs.get(job.id) !== job) return;
    this.jobs.delete(job.id);
    const ids = this.byOrganisation.get(job.organisation);
    const at = ids?.indexOf(job.id) ?? -1;
    if (ids && at >= 0) ids.splice(at, 1);
    if (ids?.length === 0) this.byOrganisation.delete(job.organisation);
  }
}

/**
 * Ended-job ids, each handed to one consumer (round robin), like a Redis consumer group used as an
 * outbox: an id whose handler was still running when its consumer closed goes back in the queue
 * for another consumer, as Redis would hand the pending entry out again.
 */
class EndedOutbox {
  private readonly pending: string[] = [];
  private readonly consumers: Array<{ handler: (jobId: string) => Promise<void>; closed: boolean }> = [];
  private turn = 0;
  private scheduled: NodeJS.Immediate | undefined;

  push(jobId: string): void {
    if (this.pending.length >= MAX_PENDING_ENDED) this.pending.shift();
    this.pending.push(jobId);
    this.schedule();
  }

  consume(handler: (jobId: string) => Promise<void>): EndedJobsConsumer {
    const consumer = { handler, closed: false };
    this.consumers.push(consumer);
    this.schedule();
    return {
      close: async () => {
        consumer.closed = true;
        const at = this.consumers.indexOf(consumer);
        if (at >= 0) this.consumers.splice(at, 1);
      },
    };
  }

  close(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    for (const consumer of this.consumers) consumer.closed = true;
    this.consumers.length = 0;
  }

  // Later, not inside the transition that ended the job: handlers must not run within a store call.
  private schedule(): void {
    this.scheduled ??= setImmediate(() => {
      this.scheduled = undefined;
      while (this.pending.length > 0 && this.consumers.length > 0) {
        const consumer = this.consumers[this.turn++ % this.consumers.length];
        const jobId = this.pending.shift() as string;
        // Consumers report their own failures; a rejection here must not go unhandled.
        void consumer.handler(jobId).catch(() => undefined).then(() => {
          if (consumer.closed) this.push(jobId);
        });
      }
    });
  }
}
