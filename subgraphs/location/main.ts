/**
 * Runs the location subgraph alone (LOCATION_PORT, INTERNAL_TOKEN), e.g. behind a load balancer.
 * Batch jobs: on Redis when REDIS_URL is set (chunks taken by `npm run worker` processes, and by
 * BATCH_WORKERS in-process workers, default 0 here), else in process with one in-process worker.
 * Homes are valued by the residential subgraph at RESIDENTIAL_URL.
 */
import '../common/production-mode';
import { openWebhookSecretSource } from '../../gateway/auth/webhook-secrets';
import { batchConfigFromEnv, batchEngineSettings, gatewayConfigFromEnv, locationBatchSettings } from '../../gateway/config';
import { createBatchEngine } from './batch/engine';
import { startLocationBatch } from './batch/service';
import { loadLocationServices, locationConfigFromEnv, start } from './index';

async function main(): Promise<void> {
  const config = locationConfigFromEnv();
  if (!config.internalToken) throw new Error('INTERNAL_TOKEN must be set: the gateway sends it with every call');
  const batchConfig = batchConfigFromEnv({ BATCH_WORKERS: '0', ...process.env });
  const engine = await createBatchEngine({ redisUrl: process.env.REDIS_URL ?? '', ...batchEngineSettings(batchConfig) });
  const services = loadLocationServices();
  const secrets = await openWebhookSecretSource({ redisUrl: process.env.REDIS_URL, keyPrefix: batchConfig.keyPrefix, timeoutMs: gatewayConfigFromEnv().redisTimeoutMs, log: (m) => console.error(`[batch] ${m}`) });
  const batch = await startLocationBatch({
    ...locationBatchSettings(batchConfig),
    engine,
    services,
    secrets,
    residentialUrl: process.env.RESIDENTIAL_URL || 'http://127.0.0.1:4001/graphql',
    internalToken: config.internalToken,
  });
  const service = await start({ ...config, internalToken: config.internalToken }, services, batch.api);
  console.log(`location subgraph listening on ${service.url} (batch jobs ${engine.kind === 'redis' ? 'in Redis' : 'in process'})`);
  const close = async () => {
    await service.close();
    await batch.close();
    await engine.close();
    await secrets.close();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
