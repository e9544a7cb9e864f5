/**
 * Runs the gateway alone, in front of subgraphs started elsewhere (`<NAME>_URL` for each subgraph
 * of subgraphs/registry.ts, INTERNAL_TOKEN). With REDIS_URL it serves `batchProgress` subscriptions from the
 * batch engine's Redis progress bus, where every worker publishes (read only: this process submits
 * no job and takes no chunk); without it there is no shared bus to follow and it serves none.
 */
import '../platform/production-mode';
// The engine's read side and settings, not its index.ts: this process takes no chunk and needs no BullMQ.
import { openBatchProgress } from '../platform/batch-engine/open-batch-progress';
import { batchEngineSettingsFromEnv } from '../platform/batch-engine/settings';
import { SUBGRAPHS, urlVariable } from '../subgraphs/registry';
import { gatewayConfigFromEnv, start } from './index';

async function main(): Promise<void> {
  const config = gatewayConfigFromEnv();
  if (!config.internalToken) throw new Error('INTERNAL_TOKEN must be set: the subgraphs accept calls carrying it only');
  for (const { name, port } of SUBGRAPHS) {
    if (!config.subgraphUrls[name]) throw new Error(`${urlVariable(name)} must be set (e.g. http://127.0.0.1:${port}/graphql)`);
  }
  // The same key prefix and timeouts as the batch subgraph and the workers (BATCH_* variables).
  const progress = config.redisUrl ? await openBatchProgress({ redisUrl: config.redisUrl, ...batchEngineSettingsFromEnv() }) : undefined;
  if (!progress) console.error('REDIS_URL is not set: batchProgress subscriptions are not served (they follow the workers over Redis)');
  const gateway = await start({ ...config, internalToken: config.internalToken }, { batchProgress: progress });
  console.log(`gateway listening on ${gateway.url}${progress ? ' (batchProgress from Redis)' : ''}`);
  const close = async () => {
    await gateway.close();
    await progress?.close();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
