import type { BatchJob, BatchJobPage, ItemResult, JobStatus } from './types';

export interface NewBatchJob {
  id: string;
  organisation: string;
  chunkSize: number;
  callbackUrl?: string;
  type?: string;
  fileName?: string;
}

export type TransitionResult =
  | { applied: true; from: JobStatus }
  /** Refused: `current` is the status that made the move illegal, undefined when there is no such job. */
  | { applied: false; current: JobStatus | undefined };

/** What recording a chunk did. Only `recorded` and `completed` changed any counter. */
export type RecordOutcome =
  | { kind: 'recorded' }
  /** Recorded, and it was the last chunk: this call completed the job, and no other call will. */
  | { kind: 'completed' }
  /** The chunk had been recorded before (a retry after a crash): nothing was written or counted. */
  | { kind: 'duplicate' }
  /** The job has ended (cancelled, say) or expired: the results were dropped. */
  | { kind: 'discarded'; status: JobStatus | undefined };

export interface EndedJobsConsumer {
  close(): Promise<void>;
}

/**
 * Where jobs, their items and their results live. Counters change only by recording a chunk,
 * which writes the results, counts them and (for the last chunk) completes the job in one atomic
 * step that happens at most once per chunk: so a chunk retried after a crash never counts twice.
 * Once a job ends, every key of it expires after the store's retention.
 */
export interface JobStore {
  /** Stores a new job, status queued, nothing received yet. */
  create(job: NewBatchJob): Promise<BatchJob>;
  /** The job with its deliveries; undefined when there is none (or it has expired). */
  get(id: string): Promise<BatchJob | undefined>;
  /** An organisation's jobs, newest first (without deliveries). */
  listByOrganisation(organisation: string, offset: number, limit: number): Promise<BatchJobPage>;
  /**
   * Moves the job to `to` if job-status.ts allows it from the current status; compare-and-set, so
   * of several concurrent callers exactly one sees `applied`. Ending a job starts its retention
   * and announces it to consumeEnded().
   */
  transition(id: string, to: JobStatus, options?: { error?: string }): Promise<TransitionResult>;
  /**
   * Stores the items of the next chunk; chunks must come in order (0, 1, 2 …), in one step with
   * the check: a chunk that is not the next one, or any chunk once the job is sealed, is refused
   * with ChunkOutOfOrderError. False when the job has ended (cancelled during submission): stop sending.
   */
  appendInput(id: string, chunkIndex: number, items: readonly unknown[]): Promise<boolean>;
  /** No more chunks will come (the job reads as `sealed`). Completes the job if every chunk is already recorded (or there are none). */
  seal(id: string): Promise<{ completed: boolean }>;
  /**
   * Jobs still receiving items (created, not sealed, not ended) to which none have come for
   * `idleMs`: their submission was cut off (the process reading them died).
   */
  stalledSubmissions(idleMs: number): Promise<string[]>;
  /** A chunk's items; undefined once the chunk is recorded or the job has ended. */
  readInput(id: string, chunkIndex: number): Promise<unknown[] | undefined>;
  /** Records a chunk's results exactly once; see RecordOutcome. `results` are in item order. */
  recordChunk(id: string, chunkIndex: number, results: readonly ItemResult[]): Promise<RecordOutcome>;
  /** Every recorded result in item order, read one chunk at a time; chunks not yet recorded are skipped. */
  /** Recorded results in item order, from item `fromIndex` on (default 0). */
  streamResults(id: string, fromIndex?: number): AsyncIterable<ItemResult>;
  /** Appends one webhook delivery record; false when there is no such job. Expires with the job. */
  appendDelivery(id: string, delivery: unknown): Promise<boolean>;
  /**
   * Hands each ended job's id to `handler`, once per job across all consumers of this store
   * (several engines share the work). An id is settled when the handler's promise settles;
   * ids a crashed consumer left unsettled are handed out again (Redis: after a claim timeout).
   */
  consumeEnded(handler: (jobId: string) => Promise<void>): EndedJobsConsumer;
  close(): Promise<void>;
}

/** Items per chunk → how many chunks `total` items make. */
export function chunkCountOf(total: number, chunkSize: number): number {
  return Math.ceil(total / chunkSize);
}

/** The results of chunks 0 … chunkCount-1 in order, fetching the next chunk only when asked for it. */
export async function* resultsInOrder(
  chunkCount: number,
  readChunk: (chunkIndex: number) => Promise<readonly ItemResult[] | undefined>,
  chunkSize = 1,
  fromIndex = 0,
): AsyncGenerator<ItemResult> {
  // Starts at the chunk holding fromIndex, so a page deep into a large job reads no earlier chunk.
  for (let chunkIndex = Math.floor(fromIndex / chunkSize); chunkIndex < chunkCount; chunkIndex++) {
    const results = await readChunk(chunkIndex);
    if (results) for (const result of results) if (result.index >= fromIndex) yield result;
  }
}
