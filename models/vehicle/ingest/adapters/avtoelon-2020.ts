/**
 * avtoelon_2020.csv (avtoelon.uz, November 2020, all makes), `;`-separated, Russian labels: id (the
 * site's listing id; the pipeline drops repeats before this reads them), brand ("ВАЗ (Lada)", "ГАЗ",
 * "Chevrolet"), name (the model, often with a trailing comma, "Tracker,", which the name keys
 * ignore), year, price in USD (some are down payments), Город (city or district), "Объем двигателя, л"
 * ("1.5 (газ-бензин)"), Кузов (body), Пробег ("71000.0"; blank when not given), Коробка передач
 * (gearbox), Цвет (colour), Привод ("передний привод"), Есть доставка ("Да" when the seller delivers;
 * not read: it tells no down payment from a price, see ../outliers.ts). No defects column.
 */
import { isBlank } from '../../../ingest/parse';
import { isDropped } from '../candidate';
import type { VehicleLookups } from '../lookups';
import { vehicleSourceFile } from '../sources';
import { fileFields, formFields, localityOf, yearAndPrice, type FormColumns, type VehicleAdapter } from './adapter';

const COLUMNS: FormColumns = {
  mileage: 'Пробег', engine: 'Объем двигателя, л', gearbox: 'Коробка передач', body: 'Кузов', drive: 'Привод', colour: 'Цвет', city: 'Город',
};

export function createAvtoelon2020Adapter(lookups: VehicleLookups): VehicleAdapter {
  const file = vehicleSourceFile('avtoelon_2020');
  return {
    file,
    adapt(row, sourceRow) {
      if (isBlank(row['brand']) || isBlank(row['name'])) return { drop: 'no_model' };
      // "Ретро-автомобили" (the site's classic-car category) is no make: such rows stay unknown.
      const make = lookups.make(row['brand']);
      const model = make === null ? null : lookups.model(make, row['name']);
      if (make === null || model === null) return { drop: 'unknown_model' };
      const basics = yearAndPrice(row['year'], row['price']);
      if (isDropped(basics)) return basics;
      return {
        record: {
          ...fileFields(file, sourceRow),
          make,
          model,
          year: basics.year,
          ...formFields(lookups, row, COLUMNS),
          trim: null,
          defects: null,
          priceUsd: basics.priceUsd,
        },
        corrections: [],
        locality: localityOf(row[COLUMNS.city]),
      };
    },
  };
}
