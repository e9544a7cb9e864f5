import { RedisHealth } from '../redis-health';
import { DEFAULT_STORAGE_TIMEOUT_MS } from './batch-backend';
import { createBatchRedisClient, type BatchRedisClient } from './redis-client';
import { BatchKeys } from './redis-keys';
import { RedisJobStore } from './redis-job-store';
import { RedisProgressBus } from './redis-progress-bus';

export interface BatchRedisOptions {
  url: string;
  /** Prepended to every key; lets several deployments or test runs share a Redis. */
  keyPrefix: string;
  /** How long a job and its results stay readable after it ends, in ms. */
  retentionMs: number;
  /** See RedisJobStoreOptions. */
  endedClaimAfterMs?: number;
  /** A health PING unanswered this long makes the connection unreachable (Redis stalled). @default DEFAULT_STORAGE_TIMEOUT_MS */
  storageTimeoutMs?: number;
  log: (message: string) => void;
}

/** The engine's Redis connection with the job store and progress bus on it: what every Redis backend starts from. */
export interface BatchRedis {
  client: BatchRedisClient;
  keys: BatchKeys;
  store: RedisJobStore;
  bus: RedisProgressBus;
  /** False while Redis is down, reconnecting or stalled (the health probe's answer). */
  isReachable(): boolean;
  /** Stops the probe and closes the client, once the store and bus are closed. */
  closeConnection(): Promise<void>;
}

/**
 * Connects the engine's client and puts the job store and the progress bus on it. It loads no
 * BullMQ: a process that only reads jobs and follows progress (open-batch-progress.ts) needs none.
 * The client is probed (RedisHealth): while Redis is down or stalled the connection is unreachable,
 * and the engine refuses callers at once instead of adding commands that would wait.
 */
export async function connectBatchRedis(options: BatchRedisOptions): Promise<BatchRedis> {
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
  return {
    client,
    keys,
    store,
    bus,
    isReachable: () => health.isReachable(),
    async closeConnection() {
      health.stop();
      if (health.isReachable()) await client.close();
      else if (client.isOpen) client.destroy(); // reconnecting or stalled: nothing to flush, and close() would wait
    },
  };
}
