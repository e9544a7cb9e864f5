/** Runs the gateway alone, in front of subgraphs started elsewhere (RESIDENTIAL_URL, LOCATION_URL, VEHICLE_URL, INTERNAL_TOKEN). */
import '../subgraphs/common/production-mode';
import { SUBGRAPH_URL_VARIABLES } from './config';
import { gatewayConfigFromEnv, start } from './index';

async function main(): Promise<void> {
  const config = gatewayConfigFromEnv();
  if (!config.internalToken) throw new Error('INTERNAL_TOKEN must be set: the subgraphs accept calls carrying it only');
  for (const [name, { variable, port }] of Object.entries(SUBGRAPH_URL_VARIABLES)) {
    if (!config.subgraphUrls[name]) throw new Error(`${variable} must be set (e.g. http://127.0.0.1:${port}/graphql)`);
  }
  const gateway = await start({ ...config, internalToken: config.internalToken });
  console.log(`gateway listening on ${gateway.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void gateway.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
