/**
 * avtoelon_2020.csv (avtoelon.uz, November 2020, all makes), `;`-separated, Russian labels: id (the
 * site's listing id; the pipeline drops repeats before this reads them), brand ("ВАЗ (Lada)", "ГАЗ",
 * "Chevrolet"), name (the model, often with a trailing comma, "Tracker,", which the name keys
 * ignore), year, price in USD (some are down payments), Город (city or district), "Объем двигателя, л"
 * ("1.5 (газ-бензин)"), Кузов (body), Пробег ("71000.0"; blank when not given), Коробка передач
 * (gearbox), Цвет (colour), Привод ("передний привод"), Есть доставка ("Да" when the seller delivers;
 * not read: it tells no down payment from a price, see ../outliers.ts). No defects column.
 */
import type { VehicleLookups } from '../lookups';
import type { VehicleAdapter } from './adapter';
import { createAvtoelonAdapter, formDetails, identifyByMake } from './avtoelon';

export function createAvtoelon2020Adapter(lookups: VehicleLookups): VehicleAdapter {
  return createAvtoelonAdapter({
    source: 'avtoelon_2020',
    yearColumn: 'year',
    // "Ретро-автомобили" (the site's classic-car category) is no make: such rows stay unknown.
    identify: (row) => identifyByMake(lookups, row, { make: 'brand', name: 'name' }),
    details: formDetails(lookups, {
      mileage: 'Пробег', engine: 'Объем двигателя, л', gearbox: 'Коробка передач', body: 'Кузов', drive: 'Привод', colour: 'Цвет', city: 'Город',
    }),
  });
}
