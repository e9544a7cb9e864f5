/**
 * The typical cars the vehicle trainer ships in the manifest (`typical`), as a type of their own: the
 * manifest, the runtime and the valuation contract read it, and the attribution
 * (models/vehicle/attribution.ts) works them out and compares a car with them.
 */
import type { BodyType, Drive, Fuel, RegionId, Transmission } from './vocabulary';

/** A typical car: the medians and most usual values of some training listings. */
export interface TypicalVehicle {
  /** Training listings it is drawn from. */
  listings: number;
  year: number;
  mileageKm: number | null;
  engineLitres: number | null;
  fuel: Fuel | null;
  transmission: Transmission | null;
  body: BodyType | null;
  drive: Drive | null;
  trim: number | null;
  defects: boolean | null;
  region: RegionId | null;
}

/** What the vehicle manifest ships (from version 2026.11.3): a typical car per make and model, per make, and of the whole market. */
export interface TypicalVehicles {
  /** By vehicleGroup (badge family make + model), for the groups with at least `minListings` listings. */
  group: Record<string, TypicalVehicle>;
  /** By badge family, for the makes with at least `minListings` listings. */
  make: Record<string, TypicalVehicle>;
  overall: TypicalVehicle;
  minListings: number;
}

/** Which typical car a request is compared with: its make and model's, its make's, or the market's. */
export type TypicalVehicleLevel = 'model' | 'make' | 'market';
