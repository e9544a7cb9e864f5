/** The vehicle subgraph as a service: `subgraph` (the registry's entry) or `start(config, runtime)`. */
import { VEHICLE_HIERARCHY } from '../../models/observations';
import { VEHICLE_DIR, VehicleModelService, type VehicleRuntime } from '../../models/vehicle';
import type { SubgraphConfig } from '../../platform/config';
import { openObservationBook, type ObservationBook } from '../common/observation-book';
import { openValuationRecorder, ValuationRecorder } from '../common/valuation-recorder';
import { MemoryRecordStore } from '../common/valuation-records';
import { serveSubgraph, type RunningService } from '../../platform/serve';
import type { RunningSubgraph, SubgraphModule } from '../../platform/subgraph-module';
import { instrumentRuntime } from '../common/model-metrics';
import { createVehicleContext, type VehicleContext } from './context';
import { buildVehicleSchema } from './schema';

export { buildVehicleSchema } from './schema';

/** Serves the vehicle subgraph. Without a runtime it still serves, answering SERVICE_UNAVAILABLE. */
export async function start(config: SubgraphConfig, runtime: VehicleRuntime | null, observations: ObservationBook, records: ValuationRecorder = new ValuationRecorder('vehicle', new MemoryRecordStore())): Promise<RunningService> {
  const schema = await buildVehicleSchema();
  const instrumented = runtime && instrumentRuntime('vehicle', runtime);
  return serveSubgraph<VehicleContext>({
    name: 'vehicle',
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    compiled: true,
    context: (headers) => createVehicleContext(instrumented, observations, headers, records),
  });
}

/**
 * The registry's entry. Overrides: `artifactsRoot` (the vehicle model's version store, default
 * models/artifacts/vehicle; an empty folder serves SERVICE_UNAVAILABLE).
 */
export const subgraph: SubgraphModule = {
  buildSchema: buildVehicleSchema,
  async start({ config, env, databaseUrl, redisUrl, overrides, log }): Promise<RunningSubgraph> {
    // The model CURRENT names, swapped when another is promoted; null when none is promoted there.
    const runtime = await VehicleModelService.start((overrides.artifactsRoot as string | undefined) ?? VEHICLE_DIR, { log });
    if (!runtime) log('no vehicle model is promoted: vehicle valuations answer SERVICE_UNAVAILABLE until one is');
    const records = await openValuationRecorder({ kind: 'vehicle', env, databaseUrl, redisUrl, log });
    const observations = await openObservationBook({ kind: 'vehicle', databaseUrl, hierarchy: VEHICLE_HIERARCHY, env, redisUrl, log });
    const service = await start(config, runtime, observations.book, records.recorder);
    return {
      ...service,
      get modelVersion() {
        return runtime?.version ?? null;
      },
      get summary() {
        return runtime ? `model ${runtime.version}` : 'no model promoted';
      },
      close: async () => {
        await service.close();
        await runtime?.close();
        await observations.close();
        await records.close();
      },
    };
  },
};
