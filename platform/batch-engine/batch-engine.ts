import { randomUUID } from 'node:crypto';
import { DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE } from '../../schema/batch-contract';
import { within } from '../within';
import { DEFAULT_STORAGE_TIMEOUT_MS, type BatchBackend } from './batch-backend';
import { BatchWorker, type BatchWorkerOptions } from './batch-worker';
import {
  BatchItemLimitError,
  BatchJobClosedError,
  BatchJobNotFoundError,
  BatchStorageUnavailableError,
  BatchSubmissionError,
  ChunkOutOfOrderError,
  InvalidBatchOptionsError,
  messageOf,
} from './errors';
import type { EndedJobsConsumer } from './job-store';
import { isTerminal } from './job-status';
import { followProgress } from './progress-stream';
import { publishProgress } from './progress-publisher';
import type { AppendOptions, BatchJob, BatchJobPage, ItemResult, PageRequest, ProgressEvent, SubmitOptions } from './types';

export interface BatchEngineOptions {
  /** The longest a progress() reader goes without an event before one is read from the store. @default 900 (ms) */
  progressHeartbeatMs?: number;
  /**
   * The longest one storage call made for a caller (submit, get, list, cancel, results, deliveries)
   * may take before it fails with BatchStorageUnavailableError (SERVICE_UNAVAILABLE): a stalled
   * Redis keeps the connection open and never answers. Workers are not bounded: they wait for it.
   * @default 500 (DEFAULT_STORAGE_TIMEOUT_MS)
   */
  storageTimeoutMs?: number;
  log?: (message: string) => void;
}

/**
 * Called once per ended job (completed, failed or cancelled). The end stays this engine's until
 * the returned promise settles: if the engine closes or its process dies first, another engine
 * (or the next one started) is handed the end again. So return the work's promise, not a detached one.
 */
export type JobEndedListener = (job: BatchJob) => void | Promise<void>;

const DEFAULT_PAGE_LIMIT = 20;
const MAX_PAGE_LIMIT = 100;

/**
 * The batch job engine as its callers (GraphQL, REST, webhooks) see it, over any backend. Every
 * call names the organisation, and another organisation's job is indistinguishable from none.
 * Nothing here holds a whole job: items go to storage a chunk at a time as they are read, and
 * results come back a chunk at a time as they are consumed.
 */
export class BatchEngine {
  private readonly log: (message: string) => void;
  private readonly heartbeatMs: number;
  private readonly storageTimeoutMs: number;
  private readonly endedListeners = new Set<JobEndedListener>();
  private endedConsumer: EndedJobsConsumer | undefined;
  private readonly workers = new Set<BatchWorker>();

  constructor(
    private readonly backend: BatchBackend,
    options: BatchEngineOptions = {},
  ) {
    this.log = options.log ?? ((message) => console.error(`[batch] ${message}`));
    this.heartbeatMs = options.progressHeartbeatMs ?? 900;
    this.storageTimeoutMs = options.storageTimeoutMs ?? DEFAULT_STORAGE_TIMEOUT_MS;
  }

  /** Which adapter holds the jobs. */
  get kind(): BatchBackend['kind'] {
    return this.backend.kind;
  }

  /**
   * Creates a job and streams `items` into storage chunk by chunk, each chunk queued for the
   * workers as soon as it is stored, so a large submission is being processed before it has been
   * read to the end. Resolves with the job once every item is stored. If reading the items fails,
   * the job is marked failed and this rejects with BatchSubmissionError. The same steps as
   * open() followed by append() calls, in one call.
   */
  async submit(
    organisation: string,
    items: AsyncIterable<unknown> | Iterable<unknown>,
    options: SubmitOptions = {},
  ): Promise<BatchJob> {
    const job = await this.open(organisation, options);
    await this.receive(job, readingOf(items), true);
    // Every item is stored: a read that times out now must not make the caller submit them again.
    return (await within(this.backend.store.get(job.id), this.storageTimeoutMs, () => undefined)) ?? job;
  }

  /**
   * Creates a job open for items, for a submission made in several calls: append() its items,
   * the last call with `last`. A job that receives no items for the submission timeout is failed
   * by failStalledSubmissions(), as a submission cut off.
   */
  async open(organisation: string, options: SubmitOptions = {}): Promise<BatchJob> {
    if (!organisation) throw new InvalidBatchOptionsError('organisation must not be empty');
    this.mustReach();
    const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_CHUNK_SIZE) {
      throw new InvalidBatchOptionsError(`chunkSize must be an integer from 1 to ${MAX_CHUNK_SIZE}`);
    }
    return this.bounded(this.backend.store.create({
      id: randomUUID(),
      organisation,
      chunkSize,
      ...(options.callbackUrl !== undefined && { callbackUrl: options.callbackUrl }),
      ...(options.type !== undefined && { type: options.type }),
      ...(options.fileName !== undefined && { fileName: options.fileName }),
    }));
  }

  /**
   * Stores the next items of an open job, continuing where its received items end, in whole
   * chunks queued as they are stored; with `last`, seals the job after them. Every append but the
   * last must carry a multiple of the job's chunk size (else InvalidBatchOptionsError), so chunks
   * never straddle two calls. Appends to one job go one at a time: one racing another is refused
   * (InvalidBatchOptionsError) before it stores anything.
   * Refused: another organisation's job or none (BatchJobNotFoundError); a sealed or ended one
   * (BatchJobClosedError); past `maxItems` (BatchItemLimitError, and the job is failed). A failure
   * while storing fails the job (BatchSubmissionError): its items are then partly stored, and
   * appending them again would repeat some.
   */
  async append(organisation: string, id: string, items: readonly unknown[], options: AppendOptions): Promise<BatchJob> {
    const job = await this.get(organisation, id);
    if (!job) throw new BatchJobNotFoundError(id);
    refuseClosed(job);
    if (!options.last && items.length % job.chunkSize !== 0) {
      throw new InvalidBatchOptionsError(`every append but the last must carry a multiple of the job's chunk size (${job.chunkSize}); this one has ${items.length} items`);
    }
    if (options.maxItems !== undefined && job.total + items.length > options.maxItems) {
      const error = new BatchItemLimitError(id, options.maxItems, job.total + items.length);
      await this.failJob(id, `the submission went past the limit of ${options.maxItems} items per job (${job.total} received, ${items.length} more sent); split the portfolio`);
      throw error;
    }
    if (!(await this.receive(job, items, options.last))) {
      // Ended while its items were being stored (cancelled, or failed by another call).
      const ended = await this.get(organisation, id);
      throw new BatchJobClosedError(id, 'ended', `has ended (${ended?.status ?? 'expired'})`);
    }
    return (await within(this.backend.store.get(id), this.storageTimeoutMs, () => undefined)) ?? job;
  }

  async get(organisation: string, id: string): Promise<BatchJob | undefined> {
    this.mustReach();
    const job = await this.bounded(this.backend.store.get(id));
    return job?.organisation === organisation ? job : undefined;
  }

  /** The organisation's jobs, newest first. */
  async list(organisation: string, page: PageRequest = {}): Promise<BatchJobPage> {
    this.mustReach();
    const offset = page.offset ?? 0;
    const limit = page.limit ?? DEFAULT_PAGE_LIMIT;
    if (!Number.isInteger(offset) || offset < 0) throw new InvalidBatchOptionsError('offset must be a whole number');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
      throw new InvalidBatchOptionsError(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
    }
    return this.bounded(this.backend.store.listByOrganisation(organisation, offset, limit));
  }

  /**
   * Cancels a queued or running job: chunks not yet taken are skipped, a chunk running now is
   * dropped when it finishes, and subscribers get a final event. A job that has ended already is
   * returned as it is; undefined when the organisation has no such job.
   */
  async cancel(organisation: string, id: string): Promise<BatchJob | undefined> {
    if (!(await this.get(organisation, id))) return undefined;
    const { store } = this.backend;
    if ((await this.bounded(store.transition(id, 'cancelled'))).applied) await this.publishProgress(id);
    return this.bounded(store.get(id));
  }

  /** Every recorded result in item order, read from storage one chunk at a time as it is consumed. */
  async *results(organisation: string, id: string, fromIndex = 0): AsyncGenerator<ItemResult> {
    if (!(await this.get(organisation, id))) throw new BatchJobNotFoundError(id);
    yield* this.boundedStream(this.backend.store.streamResults(id, fromIndex));
  }

  /** The job's progress until it ends; see followProgress. */
  async *progress(organisation: string, id: string): AsyncGenerator<ProgressEvent> {
    if (!(await this.get(organisation, id))) throw new BatchJobNotFoundError(id);
    yield* followProgress(this.backend.store, this.backend.bus, id, this.heartbeatMs);
  }

  /**
   * Calls `listener` for every job that ends, from now on and for ends not yet handed to anyone.
   * Each end is handed to one engine among all listening on the same backend, once: the store
   * records it in the same atomic step that ends the job. A crash or close() before a listener's
   * promise settles repeats the call on another engine. Returns the unsubscribe function.
   */
  onJobEnded(listener: JobEndedListener): () => void {
    this.endedListeners.add(listener);
    this.endedConsumer ??= this.backend.store.consumeEnded((jobId) => this.announceEnded(jobId));
    return () => {
      this.endedListeners.delete(listener);
      if (this.endedListeners.size === 0 && this.endedConsumer) {
        const consumer = this.endedConsumer;
        this.endedConsumer = undefined;
        void consumer.close();
      }
    };
  }

  /**
   * Fails the jobs whose submission was cut off: still open for items, none arrived for `idleMs`
   * (the process reading them died mid-upload). Results recorded by then stay readable; the owner
   * is told (status, error, final progress event, webhook) to submit again. Any engine may run
   * this, as often as it likes: the status move is compare-and-set. Returns the jobs failed.
   */
  async failStalledSubmissions(idleMs: number): Promise<string[]> {
    const { store } = this.backend;
    const failed: string[] = [];
    for (const id of await store.stalledSubmissions(idleMs)) {
      const job = await store.get(id);
      const error = `the submission was cut off after ${job?.total ?? 0} items were received (no more came for ${Math.round(idleMs / 1000)} s); submit the portfolio again`;
      if ((await store.transition(id, 'failed', { error })).applied) {
        this.log(`batch job ${id}: ${error}`);
        await this.publishProgress(id);
        failed.push(id);
      }
    }
    return failed;
  }

  /** Appends a webhook delivery record to the job; false when the organisation has no such job. */
  async recordDelivery(organisation: string, id: string, delivery: unknown): Promise<boolean> {
    if (!(await this.get(organisation, id))) return false;
    return this.bounded(this.backend.store.appendDelivery(id, delivery));
  }

  /** Starts a worker processing this backend's chunks; closed with the engine unless closed before. */
  async startWorker(options: BatchWorkerOptions): Promise<BatchWorker> {
    const worker = await BatchWorker.start(this.backend, { log: this.log, ...options });
    this.workers.add(worker);
    return worker;
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers].map((worker) => worker.close()));
    this.workers.clear();
    await this.endedConsumer?.close();
    this.endedConsumer = undefined;
    await this.backend.close();
  }

  /**
   * Fails at once while the storage is out of reach, rather than letting a caller's request wait in
   * the client's offline queue or time out: callers answer SERVICE_UNAVAILABLE and retry later.
   */
  private mustReach(): void {
    if (!this.backend.isReachable()) throw new BatchStorageUnavailableError();
  }

  /** A storage call made for a caller, failing with BatchStorageUnavailableError past storageTimeoutMs (the call itself goes on). */
  private bounded<T>(call: Promise<T>): Promise<T> {
    return within(call, this.storageTimeoutMs, () => {
      throw new BatchStorageUnavailableError({ cause: new Error(`no answer within ${this.storageTimeoutMs} ms`) });
    });
  }

  /** A storage stream whose every step is bounded as one call. */
  private async *boundedStream<T>(stream: AsyncIterable<T>): AsyncGenerator<T> {
    const iterator = stream[Symbol.asyncIterator]();
    try {
      for (;;) {
        const step = await this.bounded(iterator.next());
        if (step.done) return;
        yield step.value;
      }
    } finally {
      // Not awaited: after a timeout the stream is still waiting on the store.
      iterator.return?.().catch(() => undefined);
    }
  }

  /**
   * Stores `items` after the job's received ones and, when `last`, seals the job. False if the job
   * ended meanwhile (it was cancelled). A failure fails the job and rejects with
   * BatchSubmissionError, except a race lost before anything was stored (see append).
   */
  private async receive(job: BatchJob, items: AsyncIterable<unknown> | Iterable<unknown>, last: boolean): Promise<boolean> {
    const firstChunk = job.total / job.chunkSize;
    try {
      if (!(await this.storeChunks(job.id, items, job.chunkSize, firstChunk))) return false;
      if (last && (await this.bounded(this.backend.store.seal(job.id))).completed) await this.publishProgress(job.id);
      return true;
    } catch (error) {
      if (error instanceof ChunkOutOfOrderError && error.chunkIndex === firstChunk) {
        throw new InvalidBatchOptionsError(`batch job ${job.id} took other items meanwhile (${error.sealed ? 'its last part came' : 'another append ran at the same time'}): send its parts one at a time`);
      }
      await this.failSubmission(job.id, error);
      throw new BatchSubmissionError(job.id, { cause: error instanceof ItemsUnreadableError ? error.cause : error });
    }
  }

  /** Stores the items a chunk at a time from chunk `chunkIndex` on; false if the job ended meanwhile (it was cancelled). */
  private async storeChunks(jobId: string, items: AsyncIterable<unknown> | Iterable<unknown>, chunkSize: number, chunkIndex: number): Promise<boolean> {
    const { store, queue } = this.backend;
    let chunk: unknown[] = [];
    const flush = async (): Promise<boolean> => {
      if (!(await this.bounded(store.appendInput(jobId, chunkIndex, chunk)))) return false;
      await this.bounded(queue.enqueue([{ jobId, chunkIndex }]));
      chunkIndex += 1;
      chunk = [];
      return true;
    };
    for await (const item of items) {
      chunk.push(item);
      if (chunk.length === chunkSize && !(await flush())) return false;
    }
    return chunk.length === 0 || flush();
  }

  private async failSubmission(jobId: string, error: unknown): Promise<void> {
    // The job's error is shown to its owner: their own stream's failure, yes; our internals, no.
    const reason =
      error instanceof ItemsUnreadableError
        ? `the items could not be read: ${messageOf(error.cause)}`
        : 'the submission was interrupted by an internal error';
    if (!(error instanceof ItemsUnreadableError)) this.log(`submission of batch job ${jobId} failed: ${messageOf(error)}`);
    await this.failJob(jobId, reason);
  }

  /** Fails the job with `reason` (its owner reads it), if it has not ended; never throws. */
  private async failJob(jobId: string, reason: string): Promise<void> {
    try {
      if ((await this.bounded(this.backend.store.transition(jobId, 'failed', { error: reason }))).applied) await this.publishProgress(jobId);
    } catch (transitionError) {
      this.log(`batch job ${jobId} could not be marked failed: ${messageOf(transitionError)}`);
    }
  }

  private async announceEnded(jobId: string): Promise<void> {
    const job = await this.backend.store.get(jobId);
    if (!job) return; // expired before anyone listened
    await Promise.all(
      [...this.endedListeners].map(async (listener) => {
        try {
          await listener(job);
        } catch (error) {
          this.log(`a job-ended listener failed for batch job ${jobId}: ${messageOf(error)}`);
        }
      }),
    );
  }

  /** Best-effort, and bounded like a storage call: a caller may be waiting for the answer. */
  private publishProgress(jobId: string): Promise<void> {
    return within(publishProgress(this.backend.store, this.backend.bus, jobId, this.log), this.storageTimeoutMs, () =>
      this.log(`progress of batch job ${jobId} not published: no answer within ${this.storageTimeoutMs} ms`),
    );
  }
}

/** Refuses items for a job that takes none: sealed, or ended. */
function refuseClosed(job: BatchJob): void {
  if (isTerminal(job.status)) throw new BatchJobClosedError(job.id, 'ended', `has ended (${job.status})`);
  if (job.sealed) throw new BatchJobClosedError(job.id, 'sealed', 'is sealed (its last part came)');
}

/** Marks failures of the caller's items (as opposed to ours) by wrapping them. */
class ItemsUnreadableError extends Error {
  constructor(override readonly cause: unknown) {
    super(messageOf(cause));
  }
}

/**
 * The items as an async iterable whose own failures come out as ItemsUnreadableError. Errors
 * thrown while storing a chunk do not pass through here: they reach the loop, not the generator.
 */
async function* readingOf(items: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<unknown> {
  try {
    for await (const item of items) yield item;
  } catch (error) {
    throw new ItemsUnreadableError(error);
  }
}
