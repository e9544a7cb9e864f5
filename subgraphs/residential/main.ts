/** Runs the residential subgraph alone (RESIDENTIAL_PORT, INTERNAL_TOKEN), e.g. behind a load balancer. */
import '../common/production-mode';
import { ResidentialModelService } from '../../models/residential/serving';
import { residentialConfigFromEnv, start } from './index';

async function main(): Promise<void> {
  const config = residentialConfigFromEnv();
  if (!config.internalToken) throw new Error('INTERNAL_TOKEN must be set: the gateway sends it with every call');
  const runtime = await ResidentialModelService.start();
  const service = await start({ ...config, internalToken: config.internalToken }, runtime);
  console.log(`residential subgraph (model ${runtime.version}) listening on ${service.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void service.close().then(() => runtime.close()).then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
