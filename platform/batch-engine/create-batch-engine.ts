import { DEFAULT_RETENTION_MS, DEFAULT_STORAGE_TIMEOUT_MS, logToStderr, type BackendOptions } from './batch-backend';
import { BatchEngine } from './batch-engine';
import { createInProcessBatchBackend } from './in-process-backend';
import { JournaledJobStore } from './journaled-job-store';
import { createRedisBatchBackend } from './redis-backend';
import { DEFAULT_KEY_PREFIX } from './redis-keys';

export interface CreateBatchEngineOptions {
  /** The Redis holding jobs, shared by API and worker processes. Unset or '': in-process. @default process.env.REDIS_URL */
  redisUrl?: string;
  /** In-process: the file jobs and results are journaled to, so they outlive a restart; unset, they live in memory only. */
  journalFile?: string;
  /** Prepended to every Redis key, BullMQ's included. @default 'batch:' */
  keyPrefix?: string;
  /** How long a job and its results stay readable after it ends. @default 604_800_000 (7 days) */
  retentionMs?: number;
  /** Runs of a chunk whose processor throws, the first included. @default 3 */
  chunkAttempts?: number;
  /** Wait before a chunk's first retry; it doubles for each further one. @default 1_000 (1 s) */
  retryBackoffMs?: number;
  /** Redis: how long a worker's claim on a chunk lasts unless renewed. @default 30_000 (BullMQ's default) */
  lockDurationMs?: number;
  /** Redis: how often workers look for chunks of dead workers. @default 30_000 (BullMQ's default) */
  stalledIntervalMs?: number;
  /** Redis: worker crashes a chunk may be caught in before its items are recorded as INTERNAL (see BullChunkQueueOptions). @default 2 */
  maxStalledCount?: number;
  /** Redis: an ended job a crashed listener held this long goes to another engine. @default 60_000 */
  endedClaimAfterMs?: number;
  /** The longest a progress() reader goes without an event. @default 900 (ms) */
  progressHeartbeatMs?: number;
  /** The longest one storage call made for a caller may take (then SERVICE_UNAVAILABLE); Redis: also the health PING's. @default 500 (ms) */
  storageTimeoutMs?: number;
  log?: (message: string) => void;
}

/**
 * The engine on Redis (BullMQ workers, shared by every process) when a Redis URL is given or
 * REDIS_URL is set, else in-process, so the service also runs with no Redis at all. Worker
 * processes make the same engine with the same options and call startWorker().
 */
export async function createBatchEngine(options: CreateBatchEngineOptions = {}): Promise<BatchEngine> {
  const log = options.log ?? logToStderr;
  const common: BackendOptions = {
    retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
    retry: { attempts: options.chunkAttempts ?? 3, backoffMs: options.retryBackoffMs ?? 1_000 },
    log,
  };
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL;
  const storageTimeoutMs = options.storageTimeoutMs ?? DEFAULT_STORAGE_TIMEOUT_MS;
  const backend = redisUrl
    ? await createRedisBatchBackend({
        ...common,
        url: redisUrl,
        keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX,
        lockDurationMs: options.lockDurationMs ?? 30_000,
        stalledIntervalMs: options.stalledIntervalMs ?? 30_000,
        maxStalledCount: options.maxStalledCount ?? 2,
        endedClaimAfterMs: options.endedClaimAfterMs,
        storageTimeoutMs,
      })
    : createInProcessBatchBackend(common, options.journalFile ? await JournaledJobStore.open(options.journalFile, { retentionMs: common.retentionMs, log }) : undefined);
  return new BatchEngine(backend, { progressHeartbeatMs: options.progressHeartbeatMs, storageTimeoutMs, log });
}
