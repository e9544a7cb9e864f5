/** The vehicle subgraph as a service: `subgraph` (the registry's entry). */
import type { SubgraphCaller } from '../../platform/graphql-over-http';
import { VEHICLE_HIERARCHY } from '../../models/observations';
import { VEHICLE_DIR, VehicleModelService, type VehicleRuntime } from '../../models/vehicle';
import type { ObservationBook } from '../common/observation-book';
import type { ValuationRecorder } from '../common/valuation-recorder';
import { defineSubgraph } from '../common/subgraph-factory';
import { instrumentRuntime } from '../common/model-metrics';
import { createVehicleContext } from './context';
import { buildVehicleSchema } from './schema';

export { buildVehicleSchema } from './schema';

/** The request context over a runtime; without one it still serves, answering SERVICE_UNAVAILABLE. */
function contextOf(runtime: VehicleRuntime | null, observations: ObservationBook, records: ValuationRecorder) {
  const instrumented = runtime && instrumentRuntime('vehicle', runtime);
  return (caller: SubgraphCaller) => createVehicleContext(instrumented, observations, caller, records);
}

/**
 * The registry's entry. Overrides: `artifactsRoot` (the vehicle model's version store, default
 * models/artifacts/vehicle; an empty folder serves SERVICE_UNAVAILABLE).
 */
export const subgraph = defineSubgraph({
  name: 'vehicle',
  buildSchema: buildVehicleSchema,
  compiled: true,
  valuing: { kind: 'vehicle', hierarchy: VEHICLE_HIERARCHY },
  async open({ overrides, log }, { records, observations }) {
    // The model CURRENT names, swapped when another is promoted; null when none is promoted there.
    const runtime = await VehicleModelService.start((overrides.artifactsRoot as string | undefined) ?? VEHICLE_DIR, { log });
    if (!runtime) log('no vehicle model is promoted: vehicle valuations answer SERVICE_UNAVAILABLE until one is');
    return {
      context: contextOf(runtime, observations, records),
      modelVersion: () => runtime?.version ?? null,
      summary: () => (runtime ? `model ${runtime.version}` : 'no model promoted'),
      close: async () => {
        await runtime?.close();
      },
    };
  },
});
