/**
 * A batch worker process (`npm run worker`): takes chunks of the jobs in Redis and values them
 * through the graph: the location subgraph places and scores the items, the residential subgraph
 * values their homes. Start as many as the load needs, on any machine that reaches Redis and the
 * two subgraphs.
 *
 * Environment: REDIS_URL (required: the engine shared with the API processes), LOCATION_URL,
 * RESIDENTIAL_URL and VEHICLE_URL (the subgraphs' /graphql, default http://127.0.0.1:4002/graphql,
 * :4001 and :4003; the vehicle subgraph scores vehicle backtests),
 * INTERNAL_TOKEN (the subgraphs' shared token), BATCH_KEY_PREFIX (as the API processes; default
 * batch:), BATCH_WORKER_CONCURRENCY (chunks at once, default 2), BATCH_LOCK_DURATION_MS and
 * BATCH_STALLED_INTERVAL_MS (how soon the chunks of a worker that died go to another; default
 * 30,000 each, BullMQ's), BATCH_RETENTION_MS (as the API processes: the worker that records a job's
 * last chunk ends the job and starts its retention).
 *
 * `npm run worker` starts it with --max-old-space-size=128: a worker retains a bounded score cache
 * and the chunks in flight whatever the job's size, but V8 lets garbage pile up to several times
 * that before a full collection, so without a bound its RSS grows with the length of a job. Raise
 * it with chunk sizes far above the default 1,000.
 */
import '../../platform/production-mode';
import { httpGraphClient } from '../../platform/graph-client';
import { batchEngineSettings, createBatchEngine } from '../../platform/batch-engine';
import { batchConfigFromEnv } from './config';
import { withBacktests } from './backtest-scoring';
import { createChunkProcessor } from './processor';

async function main(): Promise<void> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) throw new Error('REDIS_URL must be set: a worker takes its chunks from the Redis the API processes submit to');
  const internalToken = process.env.INTERNAL_TOKEN;
  if (!internalToken) throw new Error('INTERNAL_TOKEN must be set: the subgraphs answer nobody without it');
  const locationUrl = process.env.LOCATION_URL || 'http://127.0.0.1:4002/graphql';
  const residentialUrl = process.env.RESIDENTIAL_URL || 'http://127.0.0.1:4001/graphql';
  const vehicleUrl = process.env.VEHICLE_URL || 'http://127.0.0.1:4003/graphql';
  // The same variables as the API processes (./config.ts), parsed the same way.
  const batchConfig = batchConfigFromEnv();
  const concurrency = batchConfig.workerConcurrency;

  const engine = await createBatchEngine({ redisUrl, ...batchEngineSettings(batchConfig) });
  const residential = httpGraphClient({ url: residentialUrl, internalToken });
  const portfolio = createChunkProcessor({ location: httpGraphClient({ url: locationUrl, internalToken }), residential });
  // Backtests' observations are scored by the subgraph that values their kind.
  const processChunk = withBacktests(portfolio, { residential, vehicle: httpGraphClient({ url: vehicleUrl, internalToken }) });
  await engine.startWorker({ processChunk, concurrency });
  console.log(`batch worker taking chunks from Redis (concurrency ${concurrency}); items placed by ${locationUrl}, homes valued by ${residentialUrl}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void engine.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
