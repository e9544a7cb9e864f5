/**
 * Price outliers, on log price (a fence in log space is a ratio), with the residential fence
 * (models/ingest/outliers.ts) and the parameters in ./limits.ts, fixed a priori.
 *
 * A car's price depends first on its model and its age, so each record is judged among listings of
 * its model in its file from model years around its own: its model year alone when that has at least
 * VEHICLE_FENCE.minGroup records, else the years within ±2, else within ±5. A whole-model fence
 * would call every 1998 Damas an outlier next to the 2020 ones. A record with no such group is kept
 * unfenced (rare models: no basis to call a price wrong). This catches a 2023 Gentra at $180,000 or
 * a deposit on a new car, not the ordinary spread of trims and conditions.
 *
 * Down payments need no rule of their own. In the 2020 file, whose price column sometimes holds one
 * (a 2020 Nexia 3 at $4,800 where the model year's median is $9,000), 19 of the 20 de-duplicated rows
 * of model years 2017–2020 asking under 60% of their model year's median are fenced out; the 20th is
 * a 2020 Mercedes-Benz E 200 at $58,000 among three (no fence). Under 60% of the median on older cars
 * is the spread of condition (a 1980 2101 at $700), not a down payment. The file's delivery flag says
 * nothing of it: 7.8% of the rows have it, 7.1% of those fenced out as too cheap.
 */
import { groupBy, robustFence, type LogFence } from '../../ingest/outliers';
import type { VehicleCandidate, VehicleSplit } from './candidate';
import { VEHICLE_FENCE } from './limits';
import type { VehicleSource } from './record';

/** Model years either side of the record's own, widest last. */
export const FENCE_YEAR_WINDOWS = [0, 2, 5] as const;

export interface VehiclePriceFence {
  source: VehicleSource;
  make: string;
  model: string;
  year: number;
  yearsAround: (typeof FENCE_YEAR_WINDOWS)[number]; // the window the fence was drawn from: year ± yearsAround
  records: number;
  medianUsd: number;
  lowUsd: number;
  highUsd: number;
}

const modelKey = (c: VehicleCandidate) => JSON.stringify([c.record.source, c.record.make, c.record.model]);
const logPrice = (c: VehicleCandidate) => Math.log(c.record.priceUsd);

/** The fence for each model year of one model in one file that has one. */
function fencesOfModel(group: readonly VehicleCandidate[]): Map<number, VehiclePriceFence & { log: LogFence }> {
  const byYear = groupBy(group, (c) => String(c.record.year));
  const fences = new Map<number, VehiclePriceFence & { log: LogFence }>();
  const { source, make, model } = group[0].record;
  for (const year of [...byYear.keys()].map(Number)) {
    for (const yearsAround of FENCE_YEAR_WINDOWS) {
      const window = [...byYear].filter(([y]) => Math.abs(Number(y) - year) <= yearsAround).flatMap(([, members]) => members);
      if (window.length < VEHICLE_FENCE.minGroup) continue;
      const log = robustFence(window.map(logPrice), VEHICLE_FENCE);
      const usd = (value: number) => Math.round(Math.exp(value));
      fences.set(year, {
        source, make, model, year, yearsAround,
        records: log.records,
        medianUsd: usd(log.median),
        lowUsd: usd(log.low),
        highUsd: usd(log.high),
        log,
      });
      break;
    }
  }
  return fences;
}

export function applyVehiclePriceFences(candidates: readonly VehicleCandidate[]): VehicleSplit & {
  fences: VehiclePriceFence[];
  unfenced: number;
} {
  const split: VehicleSplit = { kept: [], dropped: [] };
  const fences: VehiclePriceFence[] = [];
  let unfenced = 0;
  for (const group of groupBy(candidates, modelKey).values()) {
    const byYear = fencesOfModel(group);
    for (const { log, ...fence } of byYear.values()) fences.push(fence);
    for (const candidate of group) {
      const fence = byYear.get(candidate.record.year)?.log;
      if (fence === undefined) unfenced++;
      const value = logPrice(candidate);
      const outside = fence !== undefined && (value < fence.low || value > fence.high);
      (outside ? split.dropped : split.kept).push(candidate);
    }
  }
  return { ...split, fences, unfenced };
}
