/** Runs the vehicle subgraph alone (VEHICLE_PORT, INTERNAL_TOKEN), e.g. behind a load balancer. */
import '../common/production-mode';
import { VEHICLE_DIR } from '../../models/vehicle/manifest';
import { loadVehicleModel, start, vehicleConfigFromEnv } from './index';

async function main(): Promise<void> {
  const config = vehicleConfigFromEnv();
  if (!config.internalToken) throw new Error('INTERNAL_TOKEN must be set: the gateway sends it with every call');
  const runtime = await loadVehicleModel();
  if (!runtime) throw new Error(`no vehicle model is promoted in ${VEHICLE_DIR} (no CURRENT file): train one first`);
  const service = await start({ ...config, internalToken: config.internalToken }, runtime);
  console.log(`vehicle subgraph (model ${runtime.version}) listening on ${service.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void service.close().then(() => runtime.close()).then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
