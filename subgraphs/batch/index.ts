/**
 * The batch subgraph as a service: portfolio jobs (submitBatch, batchJob, batchResults, …) on the
 * batch engine, chunk workers in process (BATCH_WORKERS), completion webhooks. It places and scores
 * the items through the location subgraph and values their homes through the residential subgraph,
 * both through the graph. Its settings are BATCH_* (./config.ts).
 */
import { join } from 'node:path';
import { MAX_BATCH_BODY_BYTES } from '../../schema/batch-contract';
import { valuationHome } from '../../platform/local-state';
import { defineSubgraph } from '../common/subgraph-factory';
import { principalWithPlan } from '../../platform/graphql-over-http';
import type { RunningSubgraph, SubgraphModule } from '../../platform/subgraph-module';
import { batchConfigFromEnv, batchServiceSettings } from './config';
import type { BatchContext } from './context';
import { batchEngineSettings, createBatchEngine, type BatchEngine } from '../../platform/batch-engine';
import { buildBatchSchema } from './schema';
import { startBatchService } from './service';
import { openWebhookSecretSource } from './webhook-secrets';
import { openIdempotencyBindings } from './idempotency';
import { DEFAULT_REDIS_TIMEOUT_MS } from '../../platform/redis-health';

export { buildBatchSchema } from './schema';

/**
 * A JSON batch body (the gateway reads at most 20 MB of it) reaches this subgraph whole, as
 * submitBatch's variables, with room to spare for what rewriting it adds. CSV and NDJSON files
 * come as appendBatchItems parts of about 5,000 items: a few hundred KB each, however large the
 * file. Only the gateway can send it (the token is checked before the body is read).
 * @default 8 × MAX_BATCH_BODY_BYTES
 */
export const BATCH_BODY_LIMIT = 8 * MAX_BATCH_BODY_BYTES;

/** The running batch subgraph, with its engine: the gateway's batchProgress subscriptions follow it. */
export interface RunningBatchSubgraph extends RunningSubgraph {
  engine: BatchEngine;
}

/**
 * The registry's entry. Webhook signing secrets are kept in Redis with a Redis URL, else under
 * VALUATION_HOME.
 */
export const subgraph: SubgraphModule<RunningBatchSubgraph> = defineSubgraph<BatchContext, { engine: BatchEngine }>({
  name: 'batch',
  buildSchema: buildBatchSchema,
  bodyLimit: BATCH_BODY_LIMIT,
  calls: ['location', 'residential', 'vehicle'],
  async open({ env, mode, redisUrl, redisTimeoutMs, peers, log }) {
    // Alone, chunks are left to worker processes unless BATCH_WORKERS asks for some here.
    const batchConfig = batchConfigFromEnv(env, mode === 'alone' ? 0 : 1);
    const journalFile = redisUrl ? undefined : join(valuationHome(), 'batch', 'jobs.ndjson');
    const engine = await createBatchEngine({ redisUrl: redisUrl ?? '', journalFile, ...batchEngineSettings(batchConfig), log });
    const secrets = await openWebhookSecretSource({ redisUrl, keyPrefix: batchConfig.keyPrefix, timeoutMs: redisTimeoutMs, log });
    const idempotency = await openIdempotencyBindings({ redisUrl, keyPrefix: batchConfig.keyPrefix, timeoutMs: redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS, log });
    const closeStorage = async () => {
      await engine.close();
      await secrets.close();
      await idempotency.close();
    };
    const service = await startBatchService({ ...batchServiceSettings(batchConfig), engine, location: peers.location, residential: peers.residential, vehicle: peers.vehicle, secrets, idempotency, log }).catch(async (error) => {
      await closeStorage();
      throw error;
    });
    const summary = `jobs ${engine.kind === 'redis' ? 'in Redis' : `in ${journalFile}`}`;
    return {
      context: (caller) => ({ principal: principalWithPlan(caller), batch: service.api }),
      summary: () => summary,
      close: async () => {
        await service.close();
        await closeStorage();
      },
      extra: { engine },
    };
  },
});
