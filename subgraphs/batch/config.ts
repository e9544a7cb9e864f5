/**
 * The batch subgraph's settings from the environment (BATCH_*), the same in its API and worker
 * processes: the engine's (platform/batch-engine/settings.ts) and the subgraph's own.
 */
import { batchEngineSettingsFromEnv, type BatchEngineSettings } from '../../platform/batch-engine';
import { getPlan } from '../../platform/plans';

export interface BatchConfig extends BatchEngineSettings {
  /** BATCH_WORKERS: chunk workers in the API process; 0 leaves chunks to `npm run worker` processes (needs REDIS_URL) @default 1 (all-in-one), 0 (alone) */
  workers: number;
  /** BATCH_WORKER_CONCURRENCY: chunks each in-process worker runs at once @default 2 */
  workerConcurrency: number;
  /** BATCH_CALLBACK_ALLOW_PRIVATE=1: webhooks may go to loopback and private addresses (internal deployments, tests) @default false */
  callbackAllowPrivate: boolean;
  /** PUBLIC_URL: prefixed to the webhook's results_url @default '' (a path) */
  publicBaseUrl: string;
  /**
   * The completion webhooks' schedule, where the environment sets it: BATCH_WEBHOOK_BASE_DELAY_MS (the
   * bound of the first wait between attempts, doubling after; default 60000) and BATCH_WEBHOOK_TIMEOUT_MS
   * (one attempt, connect to response headers; default 10000). @default DEFAULT_RETRY
   */
  webhookRetry: { baseDelayMs?: number; timeoutMs?: number };
  /** BATCH_SUBMISSION_TIMEOUT_MS: a job receiving no items for this long had its submission cut off and is failed @default 300000 (5 minutes) */
  submissionTimeoutMs?: number;
}

/** `defaultWorkers`: in-process chunk workers when BATCH_WORKERS is unset. */
export function batchConfigFromEnv(env: NodeJS.ProcessEnv = process.env, defaultWorkers = 1): BatchConfig {
  return {
    ...batchEngineSettingsFromEnv(env),
    workers: env.BATCH_WORKERS ? Number(env.BATCH_WORKERS) : defaultWorkers,
    workerConcurrency: env.BATCH_WORKER_CONCURRENCY ? Number(env.BATCH_WORKER_CONCURRENCY) : 2,
    callbackAllowPrivate: env.BATCH_CALLBACK_ALLOW_PRIVATE === '1' || env.BATCH_CALLBACK_ALLOW_PRIVATE === 'true',
    publicBaseUrl: env.PUBLIC_URL ?? '',
    webhookRetry: {
      ...(env.BATCH_WEBHOOK_BASE_DELAY_MS && { baseDelayMs: Number(env.BATCH_WEBHOOK_BASE_DELAY_MS) }),
      ...(env.BATCH_WEBHOOK_TIMEOUT_MS && { timeoutMs: Number(env.BATCH_WEBHOOK_TIMEOUT_MS) }),
    },
    ...(env.BATCH_SUBMISSION_TIMEOUT_MS && { submissionTimeoutMs: Number(env.BATCH_SUBMISSION_TIMEOUT_MS) }),
  };
}

/** What the batch service of an API process takes from the configuration (startBatchService). */
export function batchServiceSettings(batch: BatchConfig) {
  return {
    maxBatchItems: (plan: string) => getPlan(plan).maxBatchItems,
    callbackPolicy: { allowPrivateNetworks: batch.callbackAllowPrivate },
    workers: batch.workers,
    workerConcurrency: batch.workerConcurrency,
    publicBaseUrl: batch.publicBaseUrl,
    webhookRetry: batch.webhookRetry,
    submissionTimeoutMs: batch.submissionTimeoutMs,
  };
}
