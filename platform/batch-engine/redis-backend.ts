import { createNodeRedisClient } from 'bullmq';
import { RedisHealth } from '../redis-health';
import { backendOf, DEFAULT_STORAGE_TIMEOUT_MS, type BackendOptions, type BatchBackend } from './batch-backend';
import { BullChunkQueue } from './bullmq-chunk-queue';
import { createBatchRedisClient } from './redis-client';
import { BatchKeys } from './redis-keys';
import { RedisJobStore } from './redis-job-store';
import { RedisProgressBus } from './redis-progress-bus';

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
 * client serves the store, the publisher and BullMQ's Queue; the progress subscriber, the
 * ended-jobs reader and each BullMQ Worker duplicate it for connections of their own. The client
 * is probed (RedisHealth): while Redis is down or stalled the backend is unreachable, and the
 * engine refuses callers at once instead of adding commands that would wait.
 */
export async function createRedisBatchBackend(options: RedisBatchBackendOptions): Promise<BatchBackend> {
  const client = createBatchRedisClient(options.url);
  // node-redis reconnects by itself and would crash the process on an unheard 'error' event.
  client.on('error', (error: Error) => options.log(`redis: ${error.message}`));
  // Waits for Redis while it is unreachable (node-redis keeps trying): a worker started before
  // Redis, or during a restart, simply begins once Redis is there.
  await client.connect();
  const health = new RedisHealth(client, { timeoutMs: options.storageTimeoutMs ?? DEFAULT_STORAGE_TIMEOUT_MS }).start();
  const keys = new BatchKeys(options.keyPrefix);
  const store = new RedisJobStore(client, {
    keys,
    retentionMs: options.retentionMs,
    endedClaimAfterMs: options.endedClaimAfterMs,
    log: options.log,
  });
  const bus = new RedisProgressBus(client, keys, options.log);
  const bullConnection = createNodeRedisClient(client);
  // The adapter re-emits the client's errors, already logged above; unheard they would throw.
  bullConnection.on('error', () => undefined);
  const queue = new BullChunkQueue(bullConnection, {
    prefix: keys.bullPrefix,
    retry: options.retry,
    lockDurationMs: options.lockDurationMs,
    stalledIntervalMs: options.stalledIntervalMs,
    maxStalledCount: options.maxStalledCount,
    log: options.log,
  });
  return backendOf(
    'redis',
    { store, bus, queue },
    async () => {
      health.stop();
      if (health.isReachable()) await client.close();
      else if (client.isOpen) client.destroy(); // reconnecting or stalled: nothing to flush, and close() would wait
    },
    () => health.isReachable(),
  );
}
