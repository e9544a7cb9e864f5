import { Queue, Worker, type IRedisClient, type Job } from 'bullmq';
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

export interface BullChunkQueueOptions {
  /** BullMQ's key prefix (BatchKeys.bullPrefix). */
  prefix: string;
  retry: ChunkRetryPolicy;
  /**
   * How long a worker's claim on a chunk lasts unless renewed (BullMQ renews it every half of
   * this while the chunk runs). A killed worker's chunks go to another worker after about this
   * long plus up to stalledIntervalMs.
   */
  lockDurationMs: number;
  /** How often each worker looks for chunks whose claim has lapsed. */
  stalledIntervalMs: number;
  /**
   * Worker crashes a chunk may cause before it is settled as INTERNAL without another run. A crash
   * counts against every chunk the worker was running (BullMQ cannot tell which one killed it),
   * so with concurrency above 1 a chunk sharing a worker with a poisonous one uses up its allowance too.
   */
  maxStalledCount: number;
  log: (message: string) => void;
}

const QUEUE_NAME = 'batch-chunks';
const CHUNK_JOB_NAME = 'chunk';
/** Chunk jobs that failed for good (their bookkeeping failed too) are kept this long, for inspection. */
const KEEP_FAILED_SECONDS = 7 * 24 * 3600;

/**
 * Chunk tasks as BullMQ jobs: one small job per chunk, its id derived from the task so enqueueing
 * a chunk twice adds it once. BullMQ gives at-least-once hand-over with retries and backoff, and
 * its stalled-job check hands a killed worker's chunks to another worker; exactly-once recording
 * is the job store's part. Given an adapted node-redis client (bullmq's createNodeRedisClient):
 * the Queue shares it, each Worker duplicates it for its own and its blocking connection.
 */
export class BullChunkQueue implements ChunkQueue {
  private producer: Queue<ChunkTask> | undefined;
  private readonly consumers = new Set<BullConsumer>();

  constructor(
    private readonly connection: IRedisClient,
    private readonly options: BullChunkQueueOptions,
  ) {}

  async enqueue(tasks: readonly ChunkTask[]): Promise<void> {
    if (tasks.length === 0) return;
    const jobs = tasks.map((task) => ({
      name: CHUNK_JOB_NAME,
      data: { jobId: task.jobId, chunkIndex: task.chunkIndex },
      opts: { jobId: chunkTaskKey(task) },
    }));
    try {
      await this.queue().addBulk(jobs);
    } catch (error) {
      // bullmq's node-redis adapter sends addBulk as one MULTI of EVALSHAs and, unlike its single
      // commands, does not fall back to EVAL on NOSCRIPT: after a Redis restart (scripts forgotten)
      // every addBulk would fail. Adding one by one takes the fallback path, which loads the script
      // again, so the next addBulk works. A job id added twice is added once, so a partial MULTI is harmless.
      if (!mentionsNoScript(error)) throw error;
      for (const job of jobs) await this.queue().add(job.name, job.data, job.opts);
    }
  }

  async consume(handler: ChunkHandler, options: { concurrency: number }): Promise<ChunkConsumer> {
    const { maxStalledCount, log } = this.options;
    const busy = new BusyJobs();
    const run = (job: Job<ChunkTask>) => {
      busy.add(job.id);
      return handler(deliveryOf(job, maxStalledCount));
    };
    const worker = new Worker<ChunkTask>(QUEUE_NAME, run, {
      connection: this.connection,
      prefix: this.options.prefix,
      concurrency: options.concurrency,
      lockDuration: this.options.lockDurationMs,
      stalledInterval: this.options.stalledIntervalMs,
      // One stall more than we allow, so the chunk comes back once more and the handler, seeing
      // it exhausted, records its items as failed. Past BullMQ's own limit it would fail silently
      // and its job could never complete.
      maxStalledCount: maxStalledCount + 1,
    });
    worker.on('error', (error) => log(`chunk worker: ${error.message}`));
    // A chunk is done with once BullMQ has filed it too, not merely when its handler returns.
    worker.on('completed', (job) => busy.delete(job.id));
    worker.on('failed', (job, error) => {
      busy.delete(job?.id);
      // Handlers settle chunks on their last attempt, so this means the settling itself failed.
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) {
        log(`chunk ${job.id} failed for good and its batch job cannot complete: ${error.message}`);
      }
    });
    await worker.waitUntilReady();
    const consumer = { worker, busy };
    this.consumers.add(consumer);
    return {
      close: async (graceMs) => {
        this.consumers.delete(consumer);
        await closeConsumer(consumer, graceMs);
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((consumer) => closeConsumer(consumer, 0)));
    this.consumers.clear();
    await this.producer?.close();
    this.producer = undefined;
  }

  private queue(): Queue<ChunkTask> {
    if (!this.producer) {
      const { retry } = this.options;
      this.producer = new Queue<ChunkTask>(QUEUE_NAME, {
        connection: this.connection,
        prefix: this.options.prefix,
        defaultJobOptions: {
          attempts: retry.attempts,
          backoff: { type: 'exponential', delay: retry.backoffMs },
          // Results live in the job store; a finished chunk job has nothing left to say.
          removeOnComplete: true,
          removeOnFail: { age: KEEP_FAILED_SECONDS },
        },
      });
      this.producer.on('error', (error) => this.options.log(`chunk queue: ${error.message}`));
    }
    return this.producer;
  }
}

interface BullConsumer {
  worker: Worker<ChunkTask>;
  busy: BusyJobs;
}

/**
 * Takes no more chunks, lets the running ones finish within the grace (their claims are renewed
 * meanwhile), then closes by force: a graceful BullMQ close sends QUIT, which would wait forever
 * for a Redis that has gone, and by then nothing is left that a graceful close would wait for.
 */
async function closeConsumer({ worker, busy }: BullConsumer, graceMs: number): Promise<void> {
  await worker.pause(true);
  await settlesWithin(busy.idle(), graceMs);
  await worker.close(true);
}

/** The chunk jobs a worker has taken and BullMQ has not yet filed as completed or failed. */
class BusyJobs {
  private readonly ids = new Set<string>();
  private waiters: Array<() => void> = [];

  add(id: string | undefined): void {
    if (id !== undefined) this.ids.add(id);
  }

  delete(id: string | undefined): void {
    if (id !== undefined) this.ids.delete(id);
    if (this.ids.size === 0) this.waiters.splice(0).forEach((wake) => wake());
  }

  idle(): Promise<void> {
    return this.ids.size === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}

function deliveryOf(job: Job<ChunkTask>, maxStalledCount: number): ChunkDelivery {
  return {
    task: job.data,
    attempt: job.attemptsStarted,
    // attemptsMade counts the runs that threw; crashed runs count as stalls instead.
    lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
    exhausted: job.stalledCounter > maxStalledCount,
  };
}

/** Whether a (MULTI) error says Redis did not know a script: node-redis lists each command's error in `replies`. */
function mentionsNoScript(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.message.includes('NOSCRIPT')) return true;
  const replies = (error as { replies?: unknown[] }).replies;
  return Array.isArray(replies) && replies.some((reply) => reply instanceof Error && reply.message.includes('NOSCRIPT'));
}
