/**
 * uybor_apartments_2025.csv (uybor.uz, early 2025): an index column, a templated title, "83 875.2 у.е.",
 * "68.29 м²", floor and building floors in separate columns, Russian condition/material labels, a full
 * Russian address and twenty 0/1 amenity columns.
 */
import { amenitiesFromFlags } from '../amenities';
import { UYBOR_FLAG_COLUMNS } from '../amenity-labels';
import type { Normaliser } from '../normaliser';
import { parseCount, parseRooms } from '../parse';
import { sourceFile } from '../sources';
import { fileFields, isDrop, locateRussianAddress, priceAndArea, uyborAmenityFields, type SourceAdapter } from './adapter';

export function createUybor2025Adapter(normaliser: Normaliser): SourceAdapter {
  const file = sourceFile('uybor_2025');
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
          floor: parseCount(row['Floor']),
          totalFloors: parseCount(row['Building Floors']),
          landAreaSotka: null,
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
