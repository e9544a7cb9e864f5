/**
 * uybor_apartments_2025.csv (uybor.uz, early 2025): an index column, a templated title, "83 875.2 у.е.",
 * "68.29 м²", floor and building floors in separate columns, Russian condition/material labels, a full
 * Russian address and twenty 0/1 amenity columns.
 */
import { amenitiesFromFlags } from '../amenities';
import { UYBOR_FLAG_COLUMNS } from '../amenity-labels';
import type { Normaliser } from '../normaliser';
import { parseCount } from '../parse';
import type { SourceAdapter } from './adapter';
import { createUyborFormAdapter, type UyborFormColumns } from './uybor-form';

/** The 2025 layout's form cells (the 2025 house file has them too). */
export const UYBOR_2025_COLUMNS: UyborFormColumns = {
  address: 'Address', price: 'Price', area: 'Area', rooms: 'Rooms', renovation: 'Condition', material: 'Material',
};

export function createUybor2025Adapter(normaliser: Normaliser): SourceAdapter {
  return createUyborFormAdapter(normaliser, {
    source: 'uybor_2025',
    columns: UYBOR_2025_COLUMNS,
    floors: (row) => ({ floor: parseCount(row['Floor']), totalFloors: parseCount(row['Building Floors']) }),
    landAreaSotka: () => null,
    amenities: (row) => amenitiesFromFlags(row, UYBOR_FLAG_COLUMNS),
  });
}
