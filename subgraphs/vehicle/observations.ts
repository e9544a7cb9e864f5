/**
 * Observed vehicle prices in the vehicle subgraph (issue 18): each is scored against the vehicle
 * model at its date and kept in the organisation's book; the organisation's valuations are then
 * adjusted by its book (models/observations).
 */
import { vehicleGroups } from '../../models/observations';
import { normaliseVehicleInput, valueVehicles, type VehicleRuntime } from '../../models/vehicle';
import type { VehicleValuationView } from '../../schema/vehicle-rest';
import { adjustedView, movedDeviation } from '../common/adjusted-view';
import type { ObservationBook } from '../common/observation-book';
import { adjustmentFor, scorer, type MarketAdjustment } from '../common/observation-recording';

type NormalisedVehicleInput = ReturnType<typeof normaliseVehicleInput>;

/** A vehicle's groups: all vehicles, its make, its model (or the make's other models). */
export function vehicleGroupsOf(input: NormalisedVehicleInput): Record<string, string> {
  const [all, make, model] = vehicleGroups(input.vehicle.make, input.vehicle.model);
  return { all, make, model };
}

/** Values each observed vehicle at its own date with the model alone: the base its residual is taken against. */
export function scoreVehicles(runtime: () => VehicleRuntime) {
  return scorer(
    (fields) => normaliseVehicleInput(fields as unknown as Parameters<typeof normaliseVehicleInput>[0]),
    (valid) => valueVehicles(runtime(), valid),
    // The request as understood, with the mileage (the reply's vehicle does not echo it; training from an export needs it).
    (input) => ({ groups: vehicleGroupsOf(input), input: { ...input.vehicle, mileageKm: input.request.mileageKm } }),
  );
}

export type AdjustedVehicleValuation = VehicleValuationView & { marketAdjustment: MarketAdjustment | null };

/** The valuation as the organisation sees it (../common/adjusted-view.ts); a vehicle's deviation from its group's median moves with the factor. */
export async function adjustVehicleValuation(book: ObservationBook, org: string | null, input: NormalisedVehicleInput, view: VehicleValuationView): Promise<AdjustedVehicleValuation> {
  const adjustment = await adjustmentFor(book, org, vehicleGroupsOf(input), view);
  return adjustedView(view, adjustment, input.request.askingPrice, (factor) => ({
    anomaly: { deviationFromGroupMedian: movedDeviation(view.anomaly.deviationFromGroupMedian, factor) },
  }));
}
