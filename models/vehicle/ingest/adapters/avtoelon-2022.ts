/**
 * avtoelon_2022.csv (avtoelon.uz, mid-2022, all makes), Uzbek Latin labels: name (make and model in
 * one cell), Shahar (city or district), Yili (year), "Dvigatel hajmi, l" ("1.3 (Gaz-benzin)"),
 * Kuzov (body), Yurgani ("66 000 km"), Uzatish qutisi (gearbox), Rangi (colour), Uzatma (drive),
 * Kami bor ("Ha" when the defects box is ticked, else blank), price in USD.
 */
import { isBlank } from '../../../ingest/parse';
import { isDropped } from '../candidate';
import type { VehicleLookups } from '../lookups';
import { vehicleSourceFile } from '../sources';
import { fileFields, formFields, localityOf, yearAndPrice, type FormColumns, type VehicleAdapter } from './adapter';

const COLUMNS: FormColumns = {
  mileage: 'Yurgani', engine: 'Dvigatel hajmi, l', gearbox: 'Uzatish qutisi', body: 'Kuzov', drive: 'Uzatma', colour: 'Rangi', city: 'Shahar',
};

export function createAvtoelon2022Adapter(lookups: VehicleLookups): VehicleAdapter {
  const file = vehicleSourceFile('avtoelon_2022');
  return {
    file,
    adapt(row, sourceRow) {
      if (isBlank(row['name'])) return { drop: 'no_model' };
      const vehicle = lookups.vehicle(row['name']);
      if (vehicle === null) return { drop: 'unknown_model' };
      const basics = yearAndPrice(row['Yili'], row['price']);
      if (isDropped(basics)) return basics;
      return {
        record: {
          ...fileFields(file, sourceRow),
          make: vehicle.make,
          model: vehicle.model,
          year: basics.year,
          ...formFields(lookups, row, COLUMNS),
          trim: null,
          // A blank box may mean "no defects" or "not answered": unknown.
          defects: lookups.yesNo(row['Kami bor']),
          priceUsd: basics.priceUsd,
        },
        corrections: [],
        locality: localityOf(row[COLUMNS.city]),
      };
    },
  };
}
