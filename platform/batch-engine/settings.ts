import { DEFAULT_KEY_PREFIX } from './redis-keys';

/**
 * The batch engine's settings from the environment (BATCH_*): the same in every process sharing a
 * Redis, the batch subgraph's API processes, `npm run worker` processes and the gateway following
 * progress. The batch subgraph's own settings build on these (subgraphs/batch/config.ts).
 */
export interface BatchEngineSettings {
  /** BATCH_KEY_PREFIX: prefix of the engine's Redis keys, the same in API and worker processes @default 'batch:' */
  keyPrefix: string;
  /** BATCH_RETENTION_MS: how long a job and its results stay readable after it ends (worker processes must have the same) @default 604800000 (7 days) */
  retentionMs?: number;
  /** BATCH_LOCK_DURATION_MS / BATCH_STALLED_INTERVAL_MS: how soon the chunks of a worker that died go to another (Redis) @default 30000 each (BullMQ's) */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** BATCH_STORAGE_TIMEOUT_MS: the longest one Redis call made for a batch request may take (then SERVICE_UNAVAILABLE) @default 500 */
  storageTimeoutMs?: number;
}

export function batchEngineSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): BatchEngineSettings {
  return {
    keyPrefix: env.BATCH_KEY_PREFIX || DEFAULT_KEY_PREFIX,
    ...(env.BATCH_RETENTION_MS && { retentionMs: Number(env.BATCH_RETENTION_MS) }),
    ...(env.BATCH_LOCK_DURATION_MS && { lockDurationMs: Number(env.BATCH_LOCK_DURATION_MS) }),
    ...(env.BATCH_STALLED_INTERVAL_MS && { stalledIntervalMs: Number(env.BATCH_STALLED_INTERVAL_MS) }),
    ...(env.BATCH_STORAGE_TIMEOUT_MS && { storageTimeoutMs: Number(env.BATCH_STORAGE_TIMEOUT_MS) }),
  };
}

/** Only the engine's settings, out of a configuration that holds them among others (the batch subgraph's). */
export function batchEngineSettings(settings: BatchEngineSettings): BatchEngineSettings {
  return { keyPrefix: settings.keyPrefix, retentionMs: settings.retentionMs, lockDurationMs: settings.lockDurationMs, stalledIntervalMs: settings.stalledIntervalMs, storageTimeoutMs: settings.storageTimeoutMs };
}
