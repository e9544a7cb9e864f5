import { RESP_TYPES } from 'redis';
import { decodeChunk, encodeChunk } from './chunk-codec';
import { ChunkOutOfOrderError } from './errors';
import { isJobStatus, statusesLeadingTo } from './job-status';
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
import type { BatchRedisClient } from './redis-client';
import { RedisEndedConsumer } from './redis-ended-consumer';
import type { BatchKeys } from './redis-keys';
import type { BatchJob, BatchJobPage, ItemResult, JobStatus } from './types';

export interface RedisJobStoreOptions {
  keys: BatchKeys;
  /** How long a job and its results stay readable after it ends, in ms. */
  retentionMs: number;
  /** Ended-job entries kept for consumers (approximately); older ones are trimmed. @default 10_000 */
  endedStreamMaxLength?: number;
  /** An ended job left unsettled this long by a consumer (it crashed) goes to another. @default 60_000 */
  endedClaimAfterMs?: number;
  log: (message: string) => void;
}

// Expired jobs leave their organisation's index lazily; each create() also checks this many of the oldest.
const INDEX_PRUNE_PER_CREATE = 10;

/**
 * Jobs in Redis, shared by every engine and worker using the same prefix. The store borrows the
 * client: the caller connects and closes it. Connections for blocking reads are duplicated from it.
 */
export class RedisJobStore implements JobStore {
  private readonly keys: BatchKeys;
  /** The same connection, answering bulk strings as Buffers: stored chunks are gzip. */
  private readonly binary;
  private readonly endedConsumers = new Set<RedisEndedConsumer>();

  constructor(
    private readonly client: BatchRedisClient,
    private readonly options: RedisJobStoreOptions,
  ) {
    this.keys = options.keys;
    this.binary = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  }

  async create(job: NewBatchJob): Promise<BatchJob> {
    const createdAt = Date.now();
    const created = await this.client.createJob(
      [this.keys.job(job.id), this.keys.organisationJobs(job.organisation), this.keys.sequence, this.keys.submitting],
      [job.id, job.organisation, String(createdAt), String(job.chunkSize), job.callbackUrl ?? '', job.type ?? '', job.fileName ?? ''],
    );
    if (created !== 1) throw new Error(`batch job ${job.id} exists already`);
    await this.pruneIndex(job.organisation);
    return toBatchJob({ ...job, createdAt, status: 'queued', total: 0, sealed: false, processed: 0, succeeded: 0, failed: 0 });
  }

  async get(id: string): Promise<BatchJob | undefined> {
    const [hash, deliveries] = await this.client
      .multi()
      .hGetAll(this.keys.job(id))
      .lRange(this.keys.deliveries(id), 0, -1)
      .exec();
    const fields = jobFieldsOf(hash as unknown as Record<string, string>);
    return fields && toBatchJob(fields, (deliveries as unknown as string[]).map((record) => JSON.parse(record)));
  }

  async listByOrganisation(organisation: string, offset: number, limit: number): Promise<BatchJobPage> {
    const index = this.keys.organisationJobs(organisation);
    for (;;) {
      // One more than the page, to know whether another page follows.
      const ids = await this.client.zRange(index, offset, offset + limit, { REV: true });
      const fields = await this.readJobFields(ids);
      const gone = ids.filter((_, i) => !fields[i]);
      if (gone.length > 0) {
        // Expired jobs leave the index here; read again so the page is full and offsets stay right.
        await this.client.zRem(index, gone);
        continue;
      }
      const jobs = (fields as JobFields[]).slice(0, limit).map((job) => toBatchJob(job));
      return { jobs, nextOffset: ids.length > limit ? offset + limit : null };
    }
  }

  async transition(id: string, to: JobStatus, options: { error?: string } = {}): Promise<TransitionResult> {
    const reply = await this.client.transitionJob(this.keys.endingKeys(id), [
      to,
      String(Date.now()),
      ...this.endingArguments(),
      options.error ?? '',
      ...statusesLeadingTo(to),
    ]);
    const [outcome, status] = reply as [number, string?];
    if (outcome === 1) return { applied: true, from: statusOf(status) };
    return { applied: false, current: outcome === 0 ? statusOf(status) : undefined };
  }

  async appendInput(id: string, chunkIndex: number, items: readonly unknown[]): Promise<boolean> {
    const reply = await this.client.appendInput(
      [this.keys.job(id), this.keys.inputs(id), this.keys.submitting],
      [String(chunkIndex), encodeChunk(items), String(items.length), String(Date.now())],
    );
    if (reply === -2 || reply === -3) throw new ChunkOutOfOrderError(id, chunkIndex, reply === -3);
    return reply === 1;
  }

  async seal(id: string): Promise<{ completed: boolean }> {
    const reply = await this.client.sealJob(this.keys.endingKeys(id), [String(Date.now()), ...this.endingArguments()]);
    return { completed: reply === 2 };
  }

  async stalledSubmissions(idleMs: number): Promise<string[]> {
    return this.client.zRangeByScore(this.keys.submitting, '-inf', Date.now() - idleMs);
  }

  async readInput(id: string, chunkIndex: number): Promise<unknown[] | undefined> {
    const blob = await this.binary.hGet(this.keys.inputs(id), String(chunkIndex));
    return blob ? decodeChunk(blob as Buffer) : undefined;
  }

  async recordChunk(id: string, chunkIndex: number, results: readonly ItemResult[]): Promise<RecordOutcome> {
    const succeeded = results.filter((result) => result.ok).length;
    const reply = await this.client.recordChunk(this.keys.endingKeys(id), [
      String(chunkIndex),
      encodeChunk(results),
      String(succeeded),
      String(results.length - succeeded),
      String(Date.now()),
      ...this.endingArguments(),
    ]);
    const [outcome, status] = reply as [number, string?];
    if (outcome === 3) return { kind: 'completed' };
    if (outcome === 2) return { kind: 'recorded' };
    if (outcome === 1) return { kind: 'duplicate' };
    return { kind: 'discarded', status: outcome === 0 ? statusOf(status) : undefined };
  }

  async *streamResults(id: string, fromIndex = 0): AsyncGenerator<ItemResult> {
    const [total, chunkSize] = await this.client.hmGet(this.keys.job(id), ['total', 'chunkSize']);
    if (total === null || chunkSize === null) return;
    yield* resultsInOrder(chunkCountOf(Number(total), Number(chunkSize)), async (chunkIndex) => {
      const blob = await this.binary.hGet(this.keys.results(id), String(chunkIndex));
      return blob ? decodeChunk<ItemResult>(blob as Buffer) : undefined;
    }, Number(chunkSize), fromIndex);
  }

  async appendDelivery(id: string, delivery: unknown): Promise<boolean> {
    const reply = await this.client.appendDelivery(
      [this.keys.job(id), this.keys.deliveries(id)],
      [JSON.stringify(delivery)],
    );
    return reply === 1;
  }

  consumeEnded(handler: (jobId: string) => Promise<void>): EndedJobsConsumer {
    const consumer = new RedisEndedConsumer(this.client, this.keys.ended, handler, {
      claimAfterMs: this.options.endedClaimAfterMs ?? 60_000,
      log: this.options.log,
    });
    this.endedConsumers.add(consumer);
    return {
      close: async () => {
        this.endedConsumers.delete(consumer);
        await consumer.close();
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.endedConsumers].map((consumer) => consumer.close()));
    this.endedConsumers.clear();
  }

  private endingArguments(): string[] {
    return [String(this.options.retentionMs), String(this.options.endedStreamMaxLength ?? 10_000)];
  }

  private async readJobFields(ids: readonly string[]): Promise<Array<JobFields | undefined>> {
    if (ids.length === 0) return [];
    const multi = this.client.multi();
    for (const id of ids) multi.hGetAll(this.keys.job(id));
    const hashes = (await multi.exec()) as unknown as Array<Record<string, string>>;
    return hashes.map(jobFieldsOf);
  }

  private async pruneIndex(organisation: string): Promise<void> {
    const index = this.keys.organisationJobs(organisation);
    const oldest = await this.client.zRange(index, 0, INDEX_PRUNE_PER_CREATE - 1);
    const fields = await this.readJobFields(oldest);
    const gone = oldest.filter((_, i) => !fields[i]);
    if (gone.length > 0) await this.client.zRem(index, gone);
  }
}

function jobFieldsOf(hash: Record<string, string> | null | undefined): JobFields | undefined {
  if (!hash?.id) return undefined;
  return {
    id: hash.id,
    organisation: hash.organisation,
    chunkSize: Number(hash.chunkSize),
    ...(hash.callbackUrl !== undefined && { callbackUrl: hash.callbackUrl }),
    ...(hash.type !== undefined && { type: hash.type }),
    ...(hash.fileName !== undefined && { fileName: hash.fileName }),
    createdAt: Number(hash.createdAt),
    status: statusOf(hash.status),
    total: Number(hash.total),
    sealed: hash.sealed === '1',
    processed: Number(hash.processed),
    succeeded: Number(hash.succeeded),
    failed: Number(hash.failed),
    ...(hash.startedAt !== undefined && { startedAt: Number(hash.startedAt) }),
    ...(hash.completedAt !== undefined && { completedAt: Number(hash.completedAt) }),
    ...(hash.error !== undefined && { error: hash.error }),
  };
}

function statusOf(value: unknown): JobStatus {
  if (!isJobStatus(value)) throw new Error(`unexpected batch job status in Redis: ${String(value)}`);
  return value;
}

