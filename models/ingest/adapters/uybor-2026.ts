/**
 * uybor_listings_2026_07.csv (uybor.uz, one snapshot of 21 July 2026): the site's own export, with
 * category, rooms, area, floor, building floors, new-build flag, renovation and material codes,
 * USD price, district, a short address, coordinates and the posting date. The newest prices we have.
 *
 * - Period: each row's posting month (`posted_at`), the only listing dates in our data.
 * - Houses (category Дом) go to the house model's rows, but only where `area_m2` is clearly the floor
 *   area: the site writes the plot in сотки there too ("4,6 сотих" → 4.6), so small values are
 *   ambiguous and dropped, as are round hundreds of m² priced like land (the plot written in m²).
 *   Land and business listings are not homes.
 * - Location: the district column where it names one, else the district polygon holding the
 *   coordinates; the coordinates are kept on the record.
 */
import { reverseDistrict } from '../../location/geocode';
import type { Normaliser } from '../normaliser';
import { parseCount, parseNumber } from '../parse';
import type { Correction } from '../reasons';
import { sourceFile } from '../sources';
import { isDrop, listingRecord, priceAndArea, type SourceAdapter } from './adapter';

const TASHKENT = 'Ташкент';
const CATEGORY = { apartment: 'Квартира', house: 'Дом' } as const;
/** A house's `area_m2` under this is the plot in сотки, not a floor area (no house has 30 m² of floor). */
const HOUSE_MIN_FLOOR_AREA_M2 = 30;
/**
 * A round hundred of m² from 400 up at under this USD per m² reads as the plot written in m²
 * ("600" for 6 sotka): a house's floor area is seldom a round hundred, and Tashkent houses ask
 * about $1,000 per m² of floor (median of the 2025 house file), land about $500 per m² of plot.
 */
const PLOT_LIKE_MAX_USD_PER_M2 = 700;
const looksLikePlotInM2 = (area: number, priceUsd: number) => area >= 400 && area % 100 === 0 && priceUsd / area < PLOT_LIKE_MAX_USD_PER_M2;
const MAHALLA_MENTION = /махалл/i;

export function createUybor2026Adapter(normaliser: Normaliser): SourceAdapter {
  const file = sourceFile('uybor_2026');
  return {
    file,
    adapt(row, sourceRow) {
      if (row['operation_type'] !== 'sale') return { drop: 'not_residential' };
      const category = row['category'];
      if (category !== CATEGORY.apartment && category !== CATEGORY.house) return { drop: 'not_residential' };
      if (row['city'] !== TASHKENT) return { drop: 'outside_tashkent' };
      const lat = parseNumber(row['latitude']);
      const lon = parseNumber(row['longitude']);
      const corrections: Correction[] = [];
      let district = normaliser.district(row['district']);
      if (district === null && lat !== null && lon !== null) {
        district = reverseDistrict(lat, lon);
        if (district !== null) corrections.push('district_from_coordinates');
      }
      if (district === null) return { drop: 'unknown_district' };
      const price = priceAndArea(row['price_usd'], row['area_m2'], file.period);
      if (isDrop(price)) return price;
      const isHouse = category === CATEGORY.house;
      if (isHouse && (price.area < HOUSE_MIN_FLOOR_AREA_M2 || looksLikePlotInM2(price.area, price.priceUsd))) return { drop: 'house_area_unclear' };
      const address = row['address'];
      const newBuilding = normaliser.yesNo(row['is_new_building']);
      return {
        record: listingRecord(file, sourceRow, {
          period: /^\d{4}-\d{2}/.test(row['posted_at']) ? row['posted_at'].slice(0, 7) : file.period,
          propertyType: isHouse ? 'house' : 'apartment',
          priceUsd: price.priceUsd,
          district,
          mahallaId: MAHALLA_MENTION.test(address) ? normaliser.mahalla(address, district) : null,
          area: price.area,
          rooms: parseCount(row['rooms']),
          floor: isHouse ? null : parseCount(row['floor']),
          totalFloors: parseCount(row['total_floors']),
          renovation: normaliser.renovation(row['renovation']),
          buildingType: normaliser.buildingType(row['building_material']),
          market: isHouse || newBuilding === null ? null : newBuilding ? 'new' : 'resale',
          lat,
          lon,
        }),
        corrections: [...corrections, ...price.corrections],
      };
    },
  };
}
