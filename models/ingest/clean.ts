/**
 * Row-level cleaning: impossible values are dropped, recognisable mistakes corrected
 * (a price per m² is multiplied out, a run-together room count is cleared).
 */
import { AREA_M2, LAND_AREA_SOTKA, MIN_PRICE_USD, PRICE_PER_M2_USD, PROPERTY_LIMITS, ROOMS } from './limits';
import type { Correction, DropReason } from './reasons';
import type { ListingRecord } from './record';

export type Cleaned = { record: ListingRecord; corrections: Correction[] } | { drop: DropReason };

function within(value: number, range: { min: number; max: number }): boolean {
  return value >= range.min && value <= range.max;
}

export function cleanRecord(input: ListingRecord): Cleaned {
  const record = { ...input };
  const corrections: Correction[] = [];
  const limits = PROPERTY_LIMITS[record.propertyType];

  if (!within(record.area, AREA_M2)) return { drop: 'area_out_of_range' };
  if (record.landAreaSotka !== null && !within(record.landAreaSotka, LAND_AREA_SOTKA)) return { drop: 'land_area_out_of_range' };

  if (record.rooms !== null && record.rooms > ROOMS.max) {
    // "234", "41", "38": digits run together (olx "41" for a 4-room 130 m² flat); the rest of the ad is usable.
    record.rooms = null;
    corrections.push('rooms_typo_cleared');
  }
  if (record.rooms !== null && record.rooms < ROOMS.min) return { drop: 'rooms_out_of_range' };
  if (record.rooms !== null && !within(record.area / record.rooms, limits.m2PerRoom)) return { drop: 'rooms_area_mismatch' };

  if (record.totalFloors !== null && record.totalFloors > limits.maxTotalFloors) return { drop: 'too_many_floors' };
  if (record.floor !== null && record.totalFloors !== null && record.floor > record.totalFloors) return { drop: 'floor_above_total' };

  if (record.priceUsd < MIN_PRICE_USD) {
    if (!within(record.priceUsd, PRICE_PER_M2_USD)) return { drop: 'price_below_minimum' };
    record.priceUsd *= record.area;
    corrections.push('price_per_m2_scaled');
    if (record.priceUsd < MIN_PRICE_USD) return { drop: 'price_below_minimum' };
  }
  return { record, corrections };
}
