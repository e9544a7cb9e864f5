/**
 * The batch engine's contracts: pure data, no I/O. Transports (GraphQL, REST, webhooks) map these
 * to their wire formats; the engine never sees a transport, and never looks inside an item.
 */
import type { ErrorCode } from '../../schema/errors';

/** queued → running → completed | failed | cancelled; job-status.ts holds the legal moves. */
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type TerminalJobStatus = Extract<JobStatus, 'completed' | 'failed' | 'cancelled'>;

export interface BatchJob {
  readonly id: string;
  /** The owner: every read and write checks it, and another organisation's job is "not found". */
  readonly organisation: string;
  readonly status: JobStatus;
  /** Items received so far: grows while a submission is still streaming them in, fixed once it is sealed. */
  readonly total: number;
  /** No more items will come: the submission is complete (false while one is open for items, and for a job ended before). */
  readonly sealed: boolean;
  /** Items with a recorded result: always succeeded + failed. */
  readonly processed: number;
  readonly succeeded: number;
  readonly failed: number;
  /** ISO 8601, UTC. */
  readonly createdAt: string;
  /** When the first chunk was taken; null while queued (and for a job cancelled before that). */
  readonly startedAt: string | null;
  /** When the job ended, whichever way it ended; null until then. */
  readonly completedAt: string | null;
  readonly callbackUrl?: string;
  /** What the job does besides valuing a portfolio (absent): `backtest:home` or `backtest:vehicle`. Stored for the transports; the engine never reads it. */
  readonly type?: string;
  /** The name of the file it was uploaded from, as the client gave it (absent otherwise): so a person finds the job again. */
  readonly fileName?: string;
  readonly chunkSize: number;
  /** Why the job failed; only on status `failed`. */
  readonly error?: string;
  /** What the webhook sender recorded about its deliveries, in order; only on a single-job read. */
  readonly deliveries?: readonly unknown[];
}

export interface ItemError {
  readonly code: ErrorCode;
  readonly message: string;
}

/**
 * The outcome of one item; `index` is the item's position in the submission, from 0, and
 * `reference` the client's own id of the item where it gave one (the worker echoes it, whatever
 * became of the item, so results join back by it).
 */
export type ItemResult =
  | { readonly index: number; readonly reference?: string; readonly ok: true; readonly result: unknown }
  | { readonly index: number; readonly reference?: string; readonly ok: false; readonly error: ItemError };

/** A snapshot of a job's counters; subscribers get one at least every second until the final one. */
export interface ProgressEvent {
  readonly id: string;
  readonly status: JobStatus;
  readonly processed: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly total: number;
  /** Items per second since the job started running; 0 before. */
  readonly ratePerSecond: number;
  /** Seconds left at that rate; null while unknown (nothing processed yet), 0 once the job has ended. */
  readonly etaSeconds: number | null;
  /** True on the event that reports the job's end; nothing follows it. */
  readonly final: boolean;
  /** ISO 8601: when these numbers were read. */
  readonly at: string;
}

export interface SubmitOptions {
  /** Stored on the job for the webhook sender; the engine itself never calls it. */
  callbackUrl?: string;
  /** Items per chunk: the unit of work, of retry and of storage. @default 1000 */
  chunkSize?: number;
  /** Stored on the job as BatchJob.type. */
  type?: string;
  /** Stored on the job as BatchJob.fileName. */
  fileName?: string;
}

/** How one part of a submission made in several calls (BatchEngine.append) is taken. */
export interface AppendOptions {
  /** The submission's final part: the job is sealed once its items are stored. */
  last: boolean;
  /**
   * The most items the job may hold in all (the plan's limit): an append that would take it past
   * this fails the job and is refused with BatchItemLimitError. None: no limit.
   */
  maxItems?: number;
}

export interface PageRequest {
  /** @default 0 */
  offset?: number;
  /** @default 20, at most 100 */
  limit?: number;
}

/** One page of an organisation's jobs, newest first. */
export interface BatchJobPage {
  readonly jobs: readonly BatchJob[];
  /** The offset of the next page; null on the last page. */
  readonly nextOffset: number | null;
}

/** What a processor is told about the chunk it is given. */
export interface ChunkContext {
  readonly jobId: string;
  readonly organisation: string;
  readonly chunkIndex: number;
  /** The submission index of the chunk's first item: result i must carry index firstIndex + i. */
  readonly firstIndex: number;
  /** 1 on the first run of this chunk; runs cut short by a crashed worker count too. */
  readonly attempt: number;
}

/**
 * Values one chunk at once and returns one result per item, in item order. Per-item failures are
 * results with ok: false; throwing fails the whole chunk, which is retried with backoff and, after
 * its last attempt, recorded as INTERNAL for every item.
 */
export type ChunkProcessor = (items: readonly unknown[], context: ChunkContext) => Promise<readonly ItemResult[]>;
