/**
 * The vehicle subgraph's per-request context: the model runtime, or SERVICE_UNAVAILABLE when no
 * vehicle model is in service (all-in-one mode starts without one rather than not at all).
 */
import type { SubgraphCaller } from '../../platform/graphql-over-http';
import type { VehicleRuntime } from '../../models/vehicle';
import { ApiError } from '../../schema/errors';
import type { ObservationBook } from '../common/observation-book';
import { recordCallerOf, ValuationRecorder, type RecordCaller } from '../common/valuation-recorder';
import { MemoryRecordStore } from '../common/valuation-records';

export interface VehicleContext {
  /** The runtime in service; throws SERVICE_UNAVAILABLE when there is none. */
  runtime(): VehicleRuntime;
  /** The caller's organisation (named by the gateway or a peer); null for none. */
  organisation: string | null;
  /** Observed vehicle prices by organisation: they adjust that organisation's valuations. */
  observations: ObservationBook;
  /** Every vehicle valuation given, kept for its organisation (issue 19). */
  records: ValuationRecorder;
  /** Who the valuations are for, as the records keep them. */
  caller: RecordCaller;
}

export function createVehicleContext(
  runtime: VehicleRuntime | null,
  observations: ObservationBook,
  caller: SubgraphCaller,
  records: ValuationRecorder = new ValuationRecorder('vehicle', new MemoryRecordStore()),
): VehicleContext {
  const recordCaller = recordCallerOf(caller);
  return {
    organisation: recordCaller.organisation,
    observations,
    records,
    caller: recordCaller,
    runtime() {
      if (!runtime) throw new ApiError('SERVICE_UNAVAILABLE', 'No vehicle model is in service: train and promote one (models/artifacts/vehicle/CURRENT)');
      return runtime;
    },
  };
}
