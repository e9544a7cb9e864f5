/**
 * Row-level cleaning: impossible years and prices are dropped; placeholder mileages and engine
 * sizes that say nothing are cleared, not guessed (the trainer sees them as unknown).
 */
import type { Adapted, VehicleCandidate } from './candidate';
import { MILEAGE_KM, PRICE_USD, YEAR } from './limits';
import { isPlaceholderMileage } from './parse';

export function cleanVehicle(candidate: VehicleCandidate): Adapted {
  const record = { ...candidate.record };
  const corrections = [...candidate.corrections];
  const periodYear = Number(record.period.slice(0, 4));

  if (record.year < YEAR.min || record.year > periodYear + YEAR.aheadOfPeriod) return { drop: 'year_out_of_range' };
  if (record.priceUsd < PRICE_USD.min || record.priceUsd > PRICE_USD.max) return { drop: 'price_out_of_range' };

  const km = record.mileageKm;
  if (km !== null && isPlaceholderMileage(km)) {
    record.mileageKm = null;
    corrections.push('mileage_placeholder_cleared');
  } else if (km !== null && (km > MILEAGE_KM.max || (periodYear - record.year >= MILEAGE_KM.usedCarAgeYears && km < MILEAGE_KM.usedCarMin))) {
    // "1 km" or "200 km" on a ten-year-old car: a form filled in to get past it.
    record.mileageKm = null;
    corrections.push('mileage_implausible_cleared');
  }

  if (record.engineLitres !== null && record.fuel === 'electric') {
    record.engineLitres = null;
    corrections.push('engine_cleared_for_electric');
  } else if (record.engineLitres === 0) {
    record.engineLitres = null;
    corrections.push('engine_zero_cleared');
  }
  return { ...candidate, record, corrections };
}
