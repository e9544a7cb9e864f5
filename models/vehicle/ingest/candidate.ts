/** A vehicle record on its way through cleaning, with what has been corrected in it so far. */
import type { VehicleCorrection, VehicleDropReason } from './reasons';
import type { VehicleRecord } from './record';

export interface VehicleCandidate {
  record: VehicleRecord;
  corrections: VehicleCorrection[];
  /**
   * The city or district cell, normalised. Not in the record (the region is), but part of what
   * makes a listing: equal cars in Angren and in Chirchiq are two cars, though both in Tashkent region.
   */
  locality: string;
}

export type Dropped = { drop: VehicleDropReason };
export type Adapted = VehicleCandidate | Dropped;

export function isDropped<T extends object>(result: T | Dropped): result is Dropped {
  return 'drop' in result;
}

/** Splitting candidates into those kept and those dropped by one step. */
export interface VehicleSplit {
  kept: VehicleCandidate[];
  dropped: VehicleCandidate[];
}
