/**
 * avtoelon_chevrolet_2023.csv (avtoelon.uz, August 2023, Chevrolet only): name (the model, spaces
 * dropped: "Nexia3", "MatizBest"; sometimes the fuel glued on: "GentraGaz-benzin"), year, type (the
 * make), pozitsiya (trim level 1–4), fuel_type, transmission, engine_size ("0" when not filled in),
 * region (a city or district), price in USD. No mileage, body, drive or colour columns.
 */
import { isBlank, parseCount, parseNumber } from '../../../ingest/parse';
import type { Fuel } from '../../vocabulary';
import { isDropped } from '../candidate';
import type { VehicleLookups } from '../lookups';
import { splitGluedFuel } from '../parse';
import type { VehicleCorrection } from '../reasons';
import { vehicleSourceFile } from '../sources';
import { fileFields, localityOf, yearAndPrice, type VehicleAdapter } from './adapter';

/**
 * Model names this scrape garbled. "Tracker4" (2 rows, 2023, 1.2 l automatic, $21,638 and $21,651)
 * is priced as the 2023 Tracker and Tracker Premier are ($21,638 and $21,650, 110 and 117 rows).
 */
const SITE_MODEL_FIXES: Readonly<Record<string, string>> = { Tracker4: 'Tracker' };

interface ModelAndFuel {
  model: string;
  fuel: Fuel | null;
  corrections: VehicleCorrection[];
}

/** The catalogue model a name cell means, with the fuel when the cell carried one. */
function readModel(lookups: VehicleLookups, make: string, name: string): ModelAndFuel | null {
  const model = lookups.model(make, name);
  if (model !== null) return { model, fuel: null, corrections: [] };
  const fixed = SITE_MODEL_FIXES[name.trim()];
  const fixedModel = fixed === undefined ? null : lookups.model(make, fixed);
  if (fixedModel !== null) return { model: fixedModel, fuel: null, corrections: ['model_name_fixed'] };
  const split = splitGluedFuel(name);
  const splitModel = split === null ? null : lookups.model(make, split.model);
  if (splitModel !== null) return { model: splitModel, fuel: split!.fuel, corrections: ['fuel_split_from_model'] };
  return null;
}

export function createAvtoelonChevrolet2023Adapter(lookups: VehicleLookups): VehicleAdapter {
  const file = vehicleSourceFile('avtoelon_chevrolet_2023');
  return {
    file,
    adapt(row, sourceRow) {
      if (isBlank(row['name']) || isBlank(row['type'])) return { drop: 'no_model' };
      const make = lookups.make(row['type']);
      const read = make === null ? null : readModel(lookups, make, row['name']);
      if (make === null || read === null) return { drop: 'unknown_model' };
      const basics = yearAndPrice(row['year'], row['price']);
      if (isDropped(basics)) return basics;
      return {
        record: {
          ...fileFields(file, sourceRow),
          make,
          model: read.model,
          year: basics.year,
          mileageKm: null,
          engineLitres: parseNumber(row['engine_size'] ?? ''),
          // The fuel column wins over a fuel glued to the name (they disagree on 1 row of 306).
          fuel: lookups.fuel(row['fuel_type']) ?? read.fuel,
          transmission: lookups.transmission(row['transmission']),
          body: null,
          drive: null,
          colour: null,
          trim: parseCount(row['pozitsiya'] ?? ''),
          defects: null,
          region: lookups.region(row['region']),
          priceUsd: basics.priceUsd,
        },
        corrections: read.corrections,
        locality: localityOf(row['region']),
      };
    },
  };
}
