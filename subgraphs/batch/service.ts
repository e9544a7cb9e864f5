/**
 * Batch jobs of an API process, wired: the resolvers' API over one engine, the completion
 * webhooks, and (all-in-one mode, or a standalone batch subgraph without Redis) chunk workers
 * in the same process. Worker processes use ./worker-main.ts instead.
 */
import type { GraphClient } from '../../platform/graph-client';
import type { BatchApi } from './api';
import { sendCompletionWebhooks, type WebhookSecretSource } from './completion-webhooks';
import type { BatchEngine } from '../../platform/batch-engine';
import { BacktestReports, workerReplayer } from './backtest-replay';
import { withBacktests } from './backtest-scoring';
import { createChunkProcessor } from './processor';
import { InProcessIdempotencyBindings, type IdempotencyBindings } from './idempotency';
import type { CallbackUrlPolicy, RetryOptions } from './webhooks';

export interface BatchServiceOptions {
  engine: BatchEngine;
  /** The location subgraph: places and scores the items. */
  location: GraphClient;
  /** The residential subgraph: values the items' homes (and scores a home backtest's observations). */
  residential: GraphClient;
  /** The vehicle subgraph: scores a vehicle backtest's observations. */
  vehicle: GraphClient;
  maxBatchItems(plan: string): number;
  callbackPolicy: CallbackUrlPolicy;
  secrets: WebhookSecretSource;
  /** Idempotency keys of submissions. @default in this process */
  idempotency?: IdempotencyBindings;
  /** In-process workers (each taking `workerConcurrency` chunks at once); 0: chunks wait for worker processes (an in-process engine always gets at least one). @default 1 */
  workers?: number;
  /** @default 2 */
  workerConcurrency?: number;
  publicBaseUrl?: string;
  /** A submission that receives no items for this long was cut off: its job is failed. @default 300_000 (5 minutes) */
  submissionTimeoutMs?: number;
  /** The completion webhooks' retry schedule. @default DEFAULT_RETRY */
  webhookRetry?: Partial<RetryOptions>;
  log?: (message: string) => void;
}

export interface BatchService {
  api: BatchApi;
  /** Stops the workers, the janitor and the webhook sender; the engine is the caller's to close. */
  close(): Promise<void>;
}

export async function startBatchService(options: BatchServiceOptions): Promise<BatchService> {
  const { engine } = options;
  const webhooks = sendCompletionWebhooks(engine, { secrets: options.secrets, policy: options.callbackPolicy, publicBaseUrl: options.publicBaseUrl, retry: options.webhookRetry, log: options.log });
  const processChunk = withBacktests(createChunkProcessor({ location: options.location, residential: options.residential }), options);
  const workers = await Promise.all(
    // In process, nothing else could take the chunks.
    Array.from({ length: engine.kind === 'in-process' ? Math.max(1, options.workers ?? 1) : options.workers ?? 1 }, () => engine.startWorker({ processChunk, concurrency: options.workerConcurrency ?? 2, log: options.log })),
  );
  const replayer = workerReplayer();
  const janitor = sweepStalledSubmissions(engine, options.submissionTimeoutMs ?? 300_000, options.log);
  return {
    api: { engine, maxBatchItems: options.maxBatchItems, callbackPolicy: options.callbackPolicy, secrets: options.secrets, backtests: new BacktestReports(engine, replayer), idempotency: options.idempotency ?? new InProcessIdempotencyBindings() },
    close: async () => {
      clearInterval(janitor);
      await replayer.close();
      await webhooks.close();
      await Promise.all(workers.map((worker) => worker.close()));
    },
  };
}

/**
 * Every API process sweeps for submissions cut off by another's death (a crash mid-upload leaves a
 * job open for items forever), a few times per timeout; the engine makes concurrent sweeps harmless.
 */
function sweepStalledSubmissions(engine: BatchEngine, timeoutMs: number, log?: (message: string) => void): NodeJS.Timeout {
  const timer = setInterval(() => {
    engine.failStalledSubmissions(timeoutMs).catch((error) => log?.(`stalled-submission sweep failed: ${(error as Error).message}`));
  }, Math.max(50, timeoutMs / 4));
  timer.unref();
  return timer;
}
