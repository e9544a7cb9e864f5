/** Runs the gateway alone, in front of subgraphs started elsewhere (RESIDENTIAL_URL, INTERNAL_TOKEN). */
import '../subgraphs/common/production-mode';
import { gatewayConfigFromEnv, start } from './index';

async function main(): Promise<void> {
  const config = gatewayConfigFromEnv();
  if (!config.internalToken) throw new Error('INTERNAL_TOKEN must be set: the subgraphs accept calls carrying it only');
  if (!config.subgraphUrls.residential) throw new Error('RESIDENTIAL_URL must be set (e.g. http://127.0.0.1:4001/graphql)');
  const gateway = await start({ ...config, internalToken: config.internalToken });
  console.log(`gateway listening on ${gateway.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void gateway.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
