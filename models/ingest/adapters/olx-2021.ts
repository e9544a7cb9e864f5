/**
 * olx_apartments_2021.csv (olx.uz, February 2021): location text, district, rooms, size, floor,
 * floors and a USD price ("Договорная" = negotiable, no price). Prices are about 40% below today's:
 * the period '2021-02' lets the trainer decide how to use them. Coordinates come from the geocoded copy.
 */
import { isTashkentCityAddress } from '../address';
import type { Olx2021Geocodes } from '../geocode';
import type { Normaliser } from '../normaliser';
import { parseCount } from '../parse';
import type { Correction } from '../reasons';
import { sourceFile } from '../sources';
import { fileFields, isDrop, priceAndArea, type SourceAdapter } from './adapter';

export function createOlx2021Adapter(normaliser: Normaliser, geocodes: Olx2021Geocodes): SourceAdapter {
  const file = sourceFile('olx_2021');
  return {
    file,
    adapt(row, sourceRow) {
      if (!isTashkentCityAddress(row['location'])) return { drop: 'outside_tashkent' };
      const district = normaliser.district(row['district']);
      if (district === null) return { drop: 'unknown_district' };
      const price = priceAndArea(row['price'], row['size'], file.period);
      if (isDrop(price)) return price;
      const geocode = geocodes.lookup(row);
      const corrections: Correction[] = [...price.corrections];
      if (geocode.status !== 'missing') corrections.push(geocode.status === 'joined' ? 'coordinates_joined' : 'coordinates_withheld');
      return {
        record: {
          ...fileFields(file, sourceRow),
          priceUsd: price.priceUsd,
          district,
          mahallaId: null,
          area: price.area,
          rooms: parseCount(row['rooms']),
          floor: parseCount(row['level']),
          totalFloors: parseCount(row['max_levels']),
          landAreaSotka: null,
          renovation: null,
          buildingType: null,
          furniture: null,
          bathroom: null,
          market: null,
          seller: null,
          amenities: null,
          lat: geocode.status === 'joined' ? geocode.lat : null,
          lon: geocode.status === 'joined' ? geocode.lon : null,
        },
        corrections,
      };
    },
  };
}
