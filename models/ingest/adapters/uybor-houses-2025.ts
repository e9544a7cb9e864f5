/**
 * uybor_houses_2025.csv (uybor.uz, 2025): private houses, cottages and dachas in the uybor_2025
 * layout plus "Land Area" in sotka; "Floors" is the number of storeys, and rooms top out at "6+".
 */
import { amenitiesFromFlags } from '../amenities';
import { UYBOR_FLAG_COLUMNS } from '../amenity-labels';
import type { Normaliser } from '../normaliser';
import { parseCount, parseLandAreaSotka, parseRooms } from '../parse';
import { sourceFile } from '../sources';
import { fileFields, isDrop, locateRussianAddress, priceAndArea, uyborAmenityFields, type SourceAdapter } from './adapter';

export function createUyborHouses2025Adapter(normaliser: Normaliser): SourceAdapter {
  const file = sourceFile('uybor_houses_2025');
  return {
    file,
    adapt(row, sourceRow) {
      const location = locateRussianAddress(row['Address'], normaliser);
      if (isDrop(location)) return location;
      const price = priceAndArea(row['Price'], row['Area'], file.period);
      if (isDrop(price)) return price;
      const amenities = amenitiesFromFlags(row, UYBOR_FLAG_COLUMNS);
      return {
        record: {
          ...fileFields(file, sourceRow),
          priceUsd: price.priceUsd,
          ...location,
          area: price.area,
          rooms: parseRooms(row['Rooms']),
          floor: null,
          totalFloors: parseCount(row['Floors']),
          landAreaSotka: parseLandAreaSotka(row['Land Area']),
          renovation: normaliser.renovation(row['Condition']),
          buildingType: normaliser.buildingType(row['Material']),
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
