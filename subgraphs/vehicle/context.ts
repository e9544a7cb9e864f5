/**
 * The vehicle subgraph's per-request context: the model runtime, or SERVICE_UNAVAILABLE when no
 * vehicle model is in service (all-in-one mode starts without one rather than not at all).
 */
import type { VehicleRuntime } from '../../models/vehicle/valuation';
import { ApiError } from '../../schema/errors';
import { modelMetrics } from '../common/model-metrics';

export interface VehicleContext {
  /** The runtime in service; throws SERVICE_UNAVAILABLE when there is none. */
  runtime(): VehicleRuntime;
}

/** Times every valuation call and reports the version in service (../common/model-metrics.ts). */
export function instrumentVehicleRuntime(runtime: VehicleRuntime): VehicleRuntime {
  const metrics = modelMetrics('vehicle');
  metrics.reportVersion(runtime.version);
  return {
    get version() {
      return runtime.version;
    },
    value(requests) {
      metrics.reportVersion(runtime.version); // the version in service can change under us (hot swap)
      return metrics.time(() => runtime.value(requests));
    },
    summary: () => runtime.summary(),
    catalog: () => runtime.catalog(),
  };
}

export function createVehicleContext(runtime: VehicleRuntime | null): VehicleContext {
  return {
    runtime() {
      if (!runtime) throw new ApiError('SERVICE_UNAVAILABLE', 'No vehicle model is in service: train and promote one (models/artifacts/vehicle/CURRENT)');
      return runtime;
    },
  };
}
