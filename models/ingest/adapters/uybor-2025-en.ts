/**
 * uybor_apartments_2025_en.csv (uybor.uz, mid-2025): machine-translated English labels, city, district
 * and street in separate columns, prices as bare USD numbers. No amenity block (the single
 * "facilities" 0/1 says nothing about which). Its fall-back districts are handled by ../fallback-district.
 */
import { namesMahalla } from '../address';
import type { Normaliser } from '../normaliser';
import { parseCount, parseRooms } from '../parse';
import { sourceFile } from '../sources';
import { isDrop, listingRecord, priceAndArea, type SourceAdapter } from './adapter';

const TASHKENT_CITY = 'tashkent city';

export function createUybor2025EnAdapter(normaliser: Normaliser): SourceAdapter {
  const file = sourceFile('uybor_2025_en');
  return {
    file,
    adapt(row, sourceRow) {
      if (row['city'].trim().toLowerCase() !== TASHKENT_CITY) return { drop: 'outside_tashkent' };
      const district = normaliser.district(row['district']);
      if (district === null) return { drop: 'unknown_district' };
      // "living_squares" and "home_area(acres²)" are the same number in every row: the total area in m².
      const price = priceAndArea(row['prices'], row['living_squares'], file.period);
      if (isDrop(price)) return price;
      return {
        record: listingRecord(file, sourceRow, {
          priceUsd: price.priceUsd,
          district,
          mahallaId: namesMahalla(row['street']) ? normaliser.mahalla(row['street'], district) : null,
          area: price.area,
          rooms: parseRooms(row['rooms']),
          floor: parseCount(row['floors']),
          totalFloors: parseCount(row['total_floors']),
          renovation: normaliser.renovation(row['renovation']),
          buildingType: normaliser.buildingType(row['materials']),
        }),
        corrections: price.corrections,
      };
    },
  };
}
