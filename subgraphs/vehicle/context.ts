/**
 * The vehicle subgraph's per-request context: the model runtime, or SERVICE_UNAVAILABLE when no
 * vehicle model is in service (all-in-one mode starts without one rather than not at all).
 */
import type { VehicleRuntime } from '../../models/vehicle';
import { ApiError } from '../../schema/errors';

export interface VehicleContext {
  /** The runtime in service; throws SERVICE_UNAVAILABLE when there is none. */
  runtime(): VehicleRuntime;
}

export function createVehicleContext(runtime: VehicleRuntime | null): VehicleContext {
  return {
    runtime() {
      if (!runtime) throw new ApiError('SERVICE_UNAVAILABLE', 'No vehicle model is in service: train and promote one (models/artifacts/vehicle/CURRENT)');
      return runtime;
    },
  };
}
