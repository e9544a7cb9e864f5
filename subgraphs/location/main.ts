/** Runs the location subgraph alone (LOCATION_PORT, INTERNAL_TOKEN), e.g. behind a load balancer. */
import '../common/production-mode';
import { locationConfigFromEnv, start } from './index';

async function main(): Promise<void> {
  const config = locationConfigFromEnv();
  if (!config.internalToken) throw new Error('INTERNAL_TOKEN must be set: the gateway sends it with every call');
  const service = await start({ ...config, internalToken: config.internalToken });
  console.log(`location subgraph listening on ${service.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void service.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
