/** Runs the residential subgraph alone (RESIDENTIAL_PORT, INTERNAL_TOKEN), e.g. behind a load balancer. */
import '../common/production-mode';
import { currentVersion } from '../../models/residential/manifest';
import { ResidentialModelSet } from '../../models/residential/runtime';
import { residentialConfigFromEnv, start } from './index';

async function main(): Promise<void> {
  const config = residentialConfigFromEnv();
  if (!config.internalToken) throw new Error('INTERNAL_TOKEN must be set: the gateway sends it with every call');
  const version = currentVersion();
  if (!version) throw new Error('no residential model is promoted: run `npm run train`');
  const runtime = await ResidentialModelSet.load(version);
  const service = await start({ ...config, internalToken: config.internalToken }, runtime);
  console.log(`residential subgraph (model ${version}) listening on ${service.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void service.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
