/**
 * uybor_apartments_2025_b.csv (uybor.uz, April 2025): a re-scrape of the same site with floors as
 * "9/12" and the amenity block as words ("Лифт" / "No internet").
 */
import { amenitiesFromWords } from '../amenities';
import { UYBOR_B_WORD_COLUMNS } from '../amenity-labels';
import type { Normaliser } from '../normaliser';
import { parseFloorPair } from '../parse';
import type { SourceAdapter } from './adapter';
import { createUyborFormAdapter } from './uybor-form';

export function createUybor2025BAdapter(normaliser: Normaliser): SourceAdapter {
  return createUyborFormAdapter(normaliser, {
    source: 'uybor_2025_b',
    columns: { address: 'addresses', price: 'prices', area: 'areas', rooms: 'rooms', renovation: 'renovations', material: 'materials' },
    floors: (row) => {
      const floors = parseFloorPair(row['floors']);
      return { floor: floors?.floor ?? null, totalFloors: floors?.totalFloors ?? null };
    },
    landAreaSotka: () => null,
    amenities: (row) => amenitiesFromWords(row, UYBOR_B_WORD_COLUMNS),
  });
}
