/**
 * Engine sizes judged against the model's own: a Damas has 0.8 l, so "8" is a lost decimal point
 * and "2" a typo or a swapped engine. The model's median displacement comes from the records
 * themselves (both files, and the badges of one car together: a Daewoo Damas is a Chevrolet Damas);
 * a model with too few known sizes gets only the absolute bounds.
 */
import { groupBy, median } from '../../ingest/outliers';
import { badgeFamily } from '../vocabulary';
import type { VehicleCandidate } from './candidate';
import { ENGINE_LITRES } from './limits';

const modelKey = (c: VehicleCandidate) => `${badgeFamily(c.record.make)}|${c.record.model}`;

/** The median known engine size of each model with enough of them (by badge family and model). */
export function engineMedians(candidates: readonly VehicleCandidate[]): Map<string, number> {
  const medians = new Map<string, number>();
  for (const [key, group] of groupBy(candidates.filter((c) => c.record.engineLitres !== null), modelKey)) {
    if (group.length >= ENGINE_LITRES.minModelRecords) medians.set(key, median(group.map((c) => c.record.engineLitres!)));
  }
  return medians;
}

/**
 * Corrects or clears implausible engine sizes in place; returns the candidates for chaining. The
 * models' medians are the candidates' own unless given (observations are judged by the listings').
 */
export function checkEngineSizes(candidates: VehicleCandidate[], medians: ReadonlyMap<string, number> = engineMedians(candidates)): VehicleCandidate[] {
  const inRange = (litres: number) => litres >= ENGINE_LITRES.min && litres <= ENGINE_LITRES.max;
  for (const candidate of candidates) {
    const litres = candidate.record.engineLitres;
    if (litres === null) continue;
    const centre = medians.get(modelKey(candidate));
    const plausible = (value: number) =>
      inRange(value) && (centre === undefined || (value >= centre / ENGINE_LITRES.band && value <= centre * ENGINE_LITRES.band));
    if (plausible(litres)) continue;
    if (centre !== undefined && plausible(litres / 10)) {
      candidate.record = { ...candidate.record, engineLitres: litres / 10 };
      candidate.corrections.push('engine_decimal_restored');
    } else {
      candidate.record = { ...candidate.record, engineLitres: null };
      candidate.corrections.push(centre === undefined ? 'engine_out_of_range_cleared' : 'engine_implausible_cleared');
    }
  }
  return candidates;
}
