/**
 * olx_apartments_2021.csv (olx.uz, February 2021): location text, district, rooms, size, floor,
 * floors and a USD price ("Договорная" = negotiable, no price). Prices are about 40% below today's:
 * the period '2021-02' lets the trainer decide how to use them. Coordinates come from the geocoded copy.
 */
import { isTashkentCityAddress } from '../address';
import type { Olx2021Geocodes } from '../geocode';
import type { Normaliser } from '../normaliser';
import type { SourceAdapter } from './adapter';
import { createOlxFormAdapter } from './olx-form';

export function createOlx2021Adapter(normaliser: Normaliser, geocodes: Olx2021Geocodes): SourceAdapter {
  return createOlxFormAdapter(normaliser, {
    source: 'olx_2021',
    columns: { district: 'district', price: 'price', area: 'size', rooms: 'rooms', floor: 'level', totalFloors: 'max_levels' },
    inTashkent: (row) => isTashkentCityAddress(row['location']),
    details: (row) => {
      const geocode = geocodes.lookup(row);
      if (geocode.status === 'missing') return { fields: {}, corrections: [] };
      if (geocode.status !== 'joined') return { fields: {}, corrections: ['coordinates_withheld'] };
      return { fields: { lat: geocode.lat, lon: geocode.lon }, corrections: ['coordinates_joined'] };
    },
  });
}
