/** A unit of work: which chunk of which job. Small on purpose: the items stay in the job store. */
export interface ChunkTask {
  jobId: string;
  chunkIndex: number;
}

/** One hand-over of a task to a handler. */
export interface ChunkDelivery {
  readonly task: ChunkTask;
  /** 1 on the first run; runs cut short by a crashed worker count too. */
  readonly attempt: number;
  /** If this run throws, no retry follows: the handler must settle the chunk itself. */
  readonly lastAttempt: boolean;
  /** Earlier runs kept dying with their worker: settle the chunk without running it again. */
  readonly exhausted: boolean;
}

export type ChunkHandler = (delivery: ChunkDelivery) => Promise<void>;

export interface ChunkRetryPolicy {
  /** Runs of a chunk whose handler throws, the first included. */
  attempts: number;
  /** Wait before the first retry; each further retry waits twice as long. */
  backoffMs: number;
}

export interface ChunkConsumer {
  /**
   * Stops taking tasks and gives the running ones up to graceMs to finish; then returns anyway.
   * A task still running then is abandoned as if its worker had crashed (Redis: another worker
   * takes it once its claim lapses; recording is exactly-once, so that is safe).
   */
  close(graceMs: number): Promise<void>;
}

/**
 * Hands chunk tasks to handlers, at least once each: a handler that throws is retried by the
 * retry policy, and (Redis) a task whose worker died is handed to another worker. A task enqueued
 * again while still pending is ignored.
 */
export interface ChunkQueue {
  enqueue(tasks: readonly ChunkTask[]): Promise<void>;
  /** Starts handling tasks, at most `concurrency` at once; resolves once it is taking tasks. */
  consume(handler: ChunkHandler, options: { concurrency: number }): Promise<ChunkConsumer>;
  close(): Promise<void>;
}

/** A task's identity, for de-duplication (and BullMQ's job id, which may not contain ':'). */
export function chunkTaskKey(task: ChunkTask): string {
  return `${task.jobId}.${task.chunkIndex}`;
}
