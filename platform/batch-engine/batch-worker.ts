import { ERROR_CATALOGUE } from '../../schema/errors';
import type { BatchBackend } from './batch-backend';
import type { ChunkConsumer, ChunkDelivery } from './chunk-queue';
import { ChunkResultsMismatchError, messageOf } from './errors';
import type { RecordOutcome } from './job-store';
import { isTerminal } from './job-status';
import { ProgressTicker, publishProgress } from './progress-publisher';
import type { ChunkContext, ChunkProcessor, ItemResult } from './types';

export interface BatchWorkerOptions {
  processChunk: ChunkProcessor;
  /** Chunks this worker runs at once. @default 1 */
  concurrency?: number;
  /** How often progress is published for the jobs this worker is busy with. @default 500 (ms): subscribers hear at least once a second */
  progressIntervalMs?: number;
  /** How long close() lets running chunks finish before abandoning them as a crash would. @default 10_000 (10 s) */
  closeGraceMs?: number;
  /** Told after each chunk hand-over is settled: for metrics, and for tests that stop a worker at a chosen moment. */
  onChunkSettled?: (settled: SettledChunk) => void;
  log?: (message: string) => void;
}

/** What became of one hand-over of a chunk: a recording outcome, or `skipped` (nothing left to do). */
export type ChunkOutcome = RecordOutcome['kind'] | 'skipped';

export interface SettledChunk {
  jobId: string;
  chunkIndex: number;
  outcome: ChunkOutcome;
}

const INTERNAL_FAILURE = { code: 'INTERNAL', message: ERROR_CATALOGUE.INTERNAL.message } as const;

/**
 * Takes chunks from the queue and settles each: reads its items, calls the processor once for
 * the whole chunk, and records the results in one exactly-once step, which completes the job when
 * it was the last chunk. Moves a job from queued to running on its first chunk and publishes its
 * progress while busy with it. A processor that throws is retried by the queue; on the last
 * attempt (or when earlier runs kept killing their worker) the chunk's items are recorded as
 * INTERNAL failures instead, so that the job still completes.
 */
export class BatchWorker {
  private readonly ticker: ProgressTicker;
  private readonly log: (message: string) => void;
  private consumer: ChunkConsumer | undefined;

  private constructor(
    private readonly backend: BatchBackend,
    private readonly options: BatchWorkerOptions,
  ) {
    this.log = options.log ?? ((message) => console.error(`[batch] ${message}`));
    this.ticker = new ProgressTicker(backend.store, backend.bus, options.progressIntervalMs ?? 500, this.log);
  }

  /** Starts a worker on `backend`; resolves once it is taking chunks. */
  static async start(backend: BatchBackend, options: BatchWorkerOptions): Promise<BatchWorker> {
    const worker = new BatchWorker(backend, options);
    worker.consumer = await backend.queue.consume((delivery) => worker.handle(delivery), {
      concurrency: options.concurrency ?? 1,
    });
    return worker;
  }

  /**
   * Stops taking chunks and lets the running ones finish and be recorded, for up to closeGraceMs;
   * a chunk still running after that is left to another worker, as after a crash.
   */
  async close(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = undefined;
    await consumer?.close(this.options.closeGraceMs ?? 10_000);
    this.ticker.close();
  }

  private async handle(delivery: ChunkDelivery): Promise<void> {
    const outcome = await this.settle(delivery);
    this.options.onChunkSettled?.({ ...delivery.task, outcome });
  }

  private async settle(delivery: ChunkDelivery): Promise<ChunkOutcome> {
    const { store, bus } = this.backend;
    const { jobId, chunkIndex } = delivery.task;
    const job = await store.get(jobId);
    // Ended (this is how a cancelled job's pending chunks are skipped) or expired.
    if (!job || isTerminal(job.status)) return 'skipped';
    const items = await store.readInput(jobId, chunkIndex);
    // Recorded already: a worker died after recording the chunk, before the queue heard of it.
    if (!items) return 'skipped';
    if (job.status === 'queued' && (await store.transition(jobId, 'running')).applied) {
      await publishProgress(store, bus, jobId, this.log);
    }
    this.ticker.busyWith(jobId);
    try {
      const context: ChunkContext = {
        jobId,
        organisation: job.organisation,
        chunkIndex,
        firstIndex: chunkIndex * job.chunkSize,
        attempt: delivery.attempt,
      };
      let results: readonly ItemResult[];
      if (delivery.exhausted) {
        this.log(`chunk ${chunkIndex} of batch job ${jobId} kept stopping its workers; its items are recorded as INTERNAL`);
        results = internalFailures(context.firstIndex, items.length);
      } else {
        results = await this.process(items, context, delivery.lastAttempt);
      }
      const recorded = await store.recordChunk(jobId, chunkIndex, results);
      // Only the call that recorded the last chunk sees `completed`, so the final event goes out once.
      if (recorded.kind === 'completed') await publishProgress(store, bus, jobId, this.log);
      return recorded.kind;
    } finally {
      this.ticker.doneWith(jobId);
    }
  }

  private async process(items: readonly unknown[], context: ChunkContext, lastAttempt: boolean): Promise<readonly ItemResult[]> {
    const where = `chunk ${context.chunkIndex} of batch job ${context.jobId}`;
    try {
      return withReferences(checkedResults(await this.options.processChunk(items, context), items.length, context.firstIndex), items);
    } catch (error) {
      if (!lastAttempt) {
        this.log(`${where} failed on attempt ${context.attempt} and will be retried: ${messageOf(error)}`);
        throw error;
      }
      this.log(`${where} failed on its last attempt; its ${items.length} items are recorded as INTERNAL: ${messageOf(error)}`);
      return withReferences(internalFailures(context.firstIndex, items.length), items);
    }
  }
}

/** Each result with its item's `reference`, where the item has one (a string). */
function withReferences(results: readonly ItemResult[], items: readonly unknown[]): readonly ItemResult[] {
  return results.map((result, position) => {
    const reference = (items[position] as { reference?: unknown } | null)?.reference;
    return typeof reference === 'string' ? { ...result, reference } : result;
  });
}

/** The processor's results if they keep its contract: one per item, in order, each with its index. */
function checkedResults(results: readonly ItemResult[], itemCount: number, firstIndex: number): readonly ItemResult[] {
  if (!Array.isArray(results) || results.length !== itemCount) {
    throw new ChunkResultsMismatchError(`the processor returned ${Array.isArray(results) ? results.length : 'no'} results for ${itemCount} items`);
  }
  results.forEach((result, position) => {
    if (result?.index !== firstIndex + position || typeof result.ok !== 'boolean') {
      throw new ChunkResultsMismatchError(`result ${position} of the chunk should have index ${firstIndex + position} and a boolean ok`);
    }
  });
  return results;
}

function internalFailures(firstIndex: number, count: number): ItemResult[] {
  return Array.from({ length: count }, (_, position) => ({ index: firstIndex + position, ok: false, error: INTERNAL_FAILURE }));
}
