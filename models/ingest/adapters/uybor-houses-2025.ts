/**
 * uybor_houses_2025.csv (uybor.uz, 2025): private houses, cottages and dachas in the uybor_2025
 * layout plus "Land Area" in sotka; "Floors" is the number of storeys, and rooms top out at "6+".
 */
import { amenitiesFromFlags } from '../amenities';
import { UYBOR_FLAG_COLUMNS } from '../amenity-labels';
import type { Normaliser } from '../normaliser';
import { parseCount, parseLandAreaSotka } from '../parse';
import type { SourceAdapter } from './adapter';
import { UYBOR_2025_COLUMNS } from './uybor-2025';
import { createUyborFormAdapter } from './uybor-form';

export function createUyborHouses2025Adapter(normaliser: Normaliser): SourceAdapter {
  return createUyborFormAdapter(normaliser, {
    source: 'uybor_houses_2025',
    columns: UYBOR_2025_COLUMNS,
    floors: (row) => ({ floor: null, totalFloors: parseCount(row['Floors']) }),
    landAreaSotka: (row) => parseLandAreaSotka(row['Land Area']),
    amenities: (row) => amenitiesFromFlags(row, UYBOR_FLAG_COLUMNS),
  });
}
