/**
 * uybor_apartments_2025_b.csv (uybor.uz, April 2025): a re-scrape of the same site with floors as
 * "9/12" and the amenity block as words ("Лифт" / "No internet").
 */
import { amenitiesFromWords } from '../amenities';
import { UYBOR_B_WORD_COLUMNS } from '../amenity-labels';
import type { Normaliser } from '../normaliser';
import { parseFloorPair, parseRooms } from '../parse';
import { sourceFile } from '../sources';
import { fileFields, isDrop, locateRussianAddress, priceAndArea, uyborAmenityFields, type SourceAdapter } from './adapter';

export function createUybor2025BAdapter(normaliser: Normaliser): SourceAdapter {
  const file = sourceFile('uybor_2025_b');
  return {
    file,
    adapt(row, sourceRow) {
      const location = locateRussianAddress(row['addresses'], normaliser);
      if (isDrop(location)) return location;
      const price = priceAndArea(row['prices'], row['areas'], file.period);
      if (isDrop(price)) return price;
      const floors = parseFloorPair(row['floors']);
      const amenities = amenitiesFromWords(row, UYBOR_B_WORD_COLUMNS);
      return {
        record: {
          ...fileFields(file, sourceRow),
          priceUsd: price.priceUsd,
          ...location,
          area: price.area,
          rooms: parseRooms(row['rooms']),
          floor: floors?.floor ?? null,
          totalFloors: floors?.totalFloors ?? null,
          landAreaSotka: null,
          renovation: normaliser.renovation(row['renovations']),
          buildingType: normaliser.buildingType(row['materials']),
          ...uyborAmenityFields(amenities),
          market: null,
          seller: null,
          lat: null,
          lon: null,
        },
        corrections: price.corrections,
      };
    },
  };
}
