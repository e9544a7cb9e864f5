/**
 * avtoelon_chevrolet_2023.csv (avtoelon.uz, August 2023, Chevrolet only): name (the model, spaces
 * dropped: "Nexia3", "MatizBest"; sometimes the fuel glued on: "GentraGaz-benzin"), year, type (the
 * make), pozitsiya (trim level 1–4), fuel_type, transmission, engine_size ("0" when not filled in),
 * region (a city or district), price in USD. No mileage, body, drive or colour columns.
 */
import { parseCount, parseNumber } from '../../../ingest/parse';
import type { VehicleLookups } from '../lookups';
import { splitGluedFuel } from '../parse';
import type { VehicleAdapter } from './adapter';
import { catalogueModel, createAvtoelonAdapter, identifyByMake, type ModelRead } from './avtoelon';

/**
 * Model names this scrape garbled. "Tracker4" (2 rows, 2023, 1.2 l automatic, $21,638 and $21,651)
 * is priced as the 2023 Tracker and Tracker Premier are ($21,638 and $21,650, 110 and 117 rows).
 */
const SITE_MODEL_FIXES: Readonly<Record<string, string>> = { Tracker4: 'Tracker' };

/** The catalogue model a name cell means, with the fuel when the cell carried one. */
function readModel(lookups: VehicleLookups, make: string, name: string): ModelRead | null {
  const catalogued = catalogueModel(lookups, make, name);
  if (catalogued !== null) return catalogued;
  const fixed = SITE_MODEL_FIXES[name.trim()];
  const fixedModel = fixed === undefined ? null : lookups.model(make, fixed);
  if (fixedModel !== null) return { model: fixedModel, fuel: null, corrections: ['model_name_fixed'] };
  const split = splitGluedFuel(name);
  const splitModel = split === null ? null : lookups.model(make, split.model);
  if (splitModel !== null) return { model: splitModel, fuel: split!.fuel, corrections: ['fuel_split_from_model'] };
  return null;
}

export function createAvtoelonChevrolet2023Adapter(lookups: VehicleLookups): VehicleAdapter {
  return createAvtoelonAdapter({
    source: 'avtoelon_chevrolet_2023',
    yearColumn: 'year',
    identify: (row) => identifyByMake(lookups, row, { make: 'type', name: 'name' }, readModel),
    details: (row, vehicle) => ({
      mileageKm: null,
      engineLitres: parseNumber(row['engine_size'] ?? ''),
      // The fuel column wins over a fuel glued to the name (they disagree on 1 row of 306).
      fuel: lookups.fuel(row['fuel_type']) ?? vehicle.fuel,
      transmission: lookups.transmission(row['transmission']),
      body: null,
      drive: null,
      colour: null,
      trim: parseCount(row['pozitsiya'] ?? ''),
      defects: null,
      region: lookups.region(row['region']),
    }),
  });
}
