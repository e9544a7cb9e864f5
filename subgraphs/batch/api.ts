/**
 * What the batch resolvers run on: the engine, the plan limits, the callback URL policy and the
 * webhook secrets (./service.ts makes one).
 */
import type { BacktestReports } from './backtest-replay';
import type { BatchEngine } from '../../platform/batch-engine';
import type { CallbackUrlPolicy, WebhookSecretSource } from './webhooks';
import type { IdempotencyBindings } from './idempotency';

export interface BatchApi {
  engine: BatchEngine;
  /** The most items one submission of the plan may carry (plans.json `maxBatchItems`). */
  maxBatchItems(plan: string): number;
  /** Which callback URLs submitBatch accepts (and the webhook sender delivers to). */
  callbackPolicy: CallbackUrlPolicy;
  /** The organisations' webhook signing secrets, which they read to verify deliveries. */
  secrets: WebhookSecretSource;
  /** Finished backtests' reports (replayed off the event loop). */
  backtests?: BacktestReports;
  /** Idempotency keys of submissions (./idempotency.ts); absent: keys are refused as unsupported. */
  idempotency?: IdempotencyBindings;
}

/** The path of a job's NDJSON results (the REST route); also the webhook's results_url. */
export function resultsPath(id: string): string {
  return `/api/batch/${encodeURIComponent(id)}/results`;
}
