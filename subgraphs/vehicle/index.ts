/** The vehicle subgraph as a service: `start(config, runtime)` (all-in-one mode and ./main.ts use it). */
import { VEHICLE_DIR } from '../../models/vehicle/manifest';
import { VehicleModelService } from '../../models/vehicle/serving';
import type { VehicleRuntime } from '../../models/vehicle/valuation';
import { subgraphConfigFromEnv, type SubgraphConfig } from '../common/config';
import { serveSubgraph, type RunningService } from '../common/serve';
import { instrumentRuntime } from '../common/model-metrics';
import { createVehicleContext, type VehicleContext } from './context';
import { buildVehicleSchema } from './schema';

export { buildVehicleSchema } from './schema';

/** Vehicle subgraph settings: see SubgraphConfig; VEHICLE_PORT defaults to 4003. */
export type VehicleConfig = SubgraphConfig;

export function vehicleConfigFromEnv(env: NodeJS.ProcessEnv = process.env) {
  return subgraphConfigFromEnv('vehicle', 4003, env);
}

/** The vehicle model `CURRENT` names under `root`, swapped when another is promoted; null when none is promoted there. */
export function loadVehicleModel(root: string = VEHICLE_DIR, log?: (message: string) => void): Promise<VehicleModelService | null> {
  return VehicleModelService.start(root, { log });
}

/** Serves the vehicle subgraph. Without a runtime it still serves, answering SERVICE_UNAVAILABLE. */
export async function start(config: VehicleConfig, runtime: VehicleRuntime | null): Promise<RunningService> {
  const schema = await buildVehicleSchema();
  const instrumented = runtime && instrumentRuntime('vehicle', runtime);
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
