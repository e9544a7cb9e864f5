import {
  chunkTaskKey,
  type ChunkConsumer,
  type ChunkDelivery,
  type ChunkHandler,
  type ChunkQueue,
  type ChunkRetryPolicy,
  type ChunkTask,
} from './chunk-queue';
import { settlesWithin } from './settles-within';

interface PendingTask {
  readonly task: ChunkTask;
  /** Runs that threw. */
  attemptsMade: number;
  attemptsStarted: number;
}

/**
 * Chunk tasks in this process, with BullMQ's retry semantics (attempts, exponential backoff) and
 * its de-duplication of a task enqueued again while pending. Nothing survives the process; there
 * is no other worker to hand a crashed task to.
 */
export class InProcessChunkQueue implements ChunkQueue {
  private readonly waiting: PendingTask[] = [];
  /** Keys of tasks waiting, running or waiting for a retry. */
  private readonly pendingKeys = new Set<string>();
  private readonly consumers = new Set<InProcessConsumer>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly options: { retry: ChunkRetryPolicy; log: (message: string) => void },
  ) {}

  async enqueue(tasks: readonly ChunkTask[]): Promise<void> {
    for (const task of tasks) {
      const key = chunkTaskKey(task);
      if (this.pendingKeys.has(key)) continue;
      this.pendingKeys.add(key);
      this.waiting.push({ task: { jobId: task.jobId, chunkIndex: task.chunkIndex }, attemptsMade: 0, attemptsStarted: 0 });
    }
    this.wakeConsumers();
  }

  async consume(handler: ChunkHandler, options: { concurrency: number }): Promise<ChunkConsumer> {
    const consumer = new InProcessConsumer(this, handler, options.concurrency);
    this.consumers.add(consumer);
    consumer.pump();
    return {
      close: async (graceMs) => {
        this.consumers.delete(consumer);
        await consumer.stop(graceMs);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    await Promise.all([...this.consumers].map((consumer) => consumer.stop(0)));
    this.consumers.clear();
  }

  /** @internal for InProcessConsumer */
  take(): PendingTask | undefined {
    return this.waiting.shift();
  }

  /** @internal for InProcessConsumer: the run is over; retry it after a backoff if it threw and may. */
  settle(pending: PendingTask, failure: { error: unknown } | undefined): void {
    const key = chunkTaskKey(pending.task);
    if (this.closed) return; // a run that outlived close(): nothing is retried any more
    if (!failure) {
      this.pendingKeys.delete(key);
      return;
    }
    pending.attemptsMade += 1;
    const { attempts, backoffMs } = this.options.retry;
    if (pending.attemptsMade >= attempts) {
      this.pendingKeys.delete(key);
      this.options.log(`chunk ${key} failed for good and its batch job cannot complete: ${String(failure.error)}`);
      return;
    }
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.waiting.push(pending);
      this.wakeConsumers();
    }, backoffMs * 2 ** (pending.attemptsMade - 1));
    this.retryTimers.add(timer);
  }

  /** @internal */
  deliveryOf(pending: PendingTask): ChunkDelivery {
    return {
      task: pending.task,
      attempt: pending.attemptsStarted,
      lastAttempt: pending.attemptsMade + 1 >= this.options.retry.attempts,
      exhausted: false,
    };
  }

  private wakeConsumers(): void {
    for (const consumer of this.consumers) consumer.pump();
  }
}

class InProcessConsumer {
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly queue: InProcessChunkQueue,
    private readonly handler: ChunkHandler,
    private readonly concurrency: number,
  ) {}

  pump(): void {
    while (!this.stopped && this.running.size < this.concurrency) {
      const pending = this.queue.take();
      if (!pending) return;
      pending.attemptsStarted += 1;
      const delivery = this.queue.deliveryOf(pending);
      const run = Promise.resolve()
        .then(() => this.handler(delivery))
        .then(
          () => undefined,
          (error: unknown) => ({ error }),
        )
        .then((failure) => {
          this.running.delete(run);
          this.queue.settle(pending, failure);
          this.pump();
        });
      this.running.add(run);
    }
  }

  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    await settlesWithin(Promise.all(this.running), graceMs);
  }
}
