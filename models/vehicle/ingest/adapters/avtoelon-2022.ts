/**
 * avtoelon_2022.csv (avtoelon.uz, mid-2022, all makes), Uzbek Latin labels: name (make and model in
 * one cell), Shahar (city or district), Yili (year), "Dvigatel hajmi, l" ("1.3 (Gaz-benzin)"),
 * Kuzov (body), Yurgani ("66 000 km"), Uzatish qutisi (gearbox), Rangi (colour), Uzatma (drive),
 * Kami bor ("Ha" when the defects box is ticked, else blank), price in USD.
 */
import { isBlank } from '../../../ingest/parse';
import type { VehicleLookups } from '../lookups';
import type { VehicleAdapter } from './adapter';
import { createAvtoelonAdapter, formDetails } from './avtoelon';

export function createAvtoelon2022Adapter(lookups: VehicleLookups): VehicleAdapter {
  return createAvtoelonAdapter({
    source: 'avtoelon_2022',
    yearColumn: 'Yili',
    identify: (row) => {
      if (isBlank(row['name'])) return { drop: 'no_model' };
      const vehicle = lookups.vehicle(row['name']);
      if (vehicle === null) return { drop: 'unknown_model' };
      return { make: vehicle.make, model: vehicle.model, fuel: null, corrections: [] };
    },
    details: formDetails(
      lookups,
      { mileage: 'Yurgani', engine: 'Dvigatel hajmi, l', gearbox: 'Uzatish qutisi', body: 'Kuzov', drive: 'Uzatma', colour: 'Rangi', city: 'Shahar' },
      // A blank box may mean "no defects" or "not answered": unknown.
      (row) => lookups.yesNo(row['Kami bor']),
    ),
  });
}
