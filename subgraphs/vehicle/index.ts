/** The vehicle subgraph as a service: `start(config, runtime)` (all-in-one mode and ./main.ts use it). */
import { VEHICLE_DIR, currentVersion } from '../../models/vehicle/manifest';
import { VehicleModelSet } from '../../models/vehicle/runtime';
import type { VehicleRuntime } from '../../models/vehicle/valuation';
import { subgraphConfigFromEnv, type SubgraphConfig } from '../common/config';
import { serveSubgraph, type RunningService } from '../common/serve';
import { createVehicleContext, instrumentVehicleRuntime, type VehicleContext } from './context';
import { buildVehicleSchema } from './schema';

export { buildVehicleSchema } from './schema';

/** Vehicle subgraph settings: see SubgraphConfig; VEHICLE_PORT defaults to 4003. */
export type VehicleConfig = SubgraphConfig;

export function vehicleConfigFromEnv(env: NodeJS.ProcessEnv = process.env) {
  return subgraphConfigFromEnv('vehicle', 4003, env);
}

/** The vehicle model set `CURRENT` names under `root`, or null when no version is promoted there. */
export async function loadVehicleModel(root: string = VEHICLE_DIR): Promise<VehicleModelSet | null> {
  const version = currentVersion(root);
  return version ? VehicleModelSet.load(version, root) : null;
}

/** Serves the vehicle subgraph. Without a runtime it still serves, answering SERVICE_UNAVAILABLE. */
export async function start(config: VehicleConfig, runtime: VehicleRuntime | null): Promise<RunningService> {
  const schema = await buildVehicleSchema();
  const instrumented = runtime && instrumentVehicleRuntime(runtime);
  return serveSubgraph<VehicleContext>({
    name: 'vehicle',
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    context: () => createVehicleContext(instrumented),
  });
}
