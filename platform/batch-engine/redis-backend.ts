import { createNodeRedisClient } from 'bullmq';
import { backendOf, type BackendOptions, type BatchBackend } from './batch-backend';
import { BullChunkQueue } from './bullmq-chunk-queue';
import { connectBatchRedis } from './redis-connection';

export interface RedisBatchBackendOptions extends BackendOptions {
  url: string;
  /** Prepended to every key, BullMQ's included; lets several deployments or test runs share a Redis. */
  keyPrefix: string;
  /** See BullChunkQueueOptions. */
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  /** See RedisJobStoreOptions. */
  endedClaimAfterMs?: number;
  /** A health PING unanswered this long makes the backend unreachable (Redis stalled). @default DEFAULT_STORAGE_TIMEOUT_MS */
  storageTimeoutMs?: number;
}

/**
 * Jobs, progress and chunks in Redis: any number of API processes and worker processes share
 * them, and a worker's death or a Redis restart (with persistence) loses no chunk. One node-redis
 * client (redis-connection.ts) serves the store, the publisher and BullMQ's Queue; the progress
 * subscriber, the ended-jobs reader and each BullMQ Worker duplicate it for connections of their
 * own. While the client's health probe finds Redis down or stalled the backend is unreachable.
 */
export async function createRedisBatchBackend(options: RedisBatchBackendOptions): Promise<BatchBackend> {
  const redis = await connectBatchRedis(options);
  const bullConnection = createNodeRedisClient(redis.client);
  // The adapter re-emits the client's errors, already logged by the connection; unheard they would throw.
  bullConnection.on('error', () => undefined);
  const queue = new BullChunkQueue(bullConnection, {
    prefix: redis.keys.bullPrefix,
    retry: options.retry,
    lockDurationMs: options.lockDurationMs,
    stalledIntervalMs: options.stalledIntervalMs,
    maxStalledCount: options.maxStalledCount,
    log: options.log,
  });
  return backendOf('redis', { store: redis.store, bus: redis.bus, queue }, redis.closeConnection, redis.isReachable);
}
