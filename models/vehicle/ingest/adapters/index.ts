/** One adapter per vehicle listing file. */
import type { VehicleLookups } from '../lookups';
import type { VehicleListingSource } from '../record';
import type { VehicleAdapter } from './adapter';
import { createAvtoelon2020Adapter } from './avtoelon-2020';
import { createAvtoelon2022Adapter } from './avtoelon-2022';
import { createAvtoelonChevrolet2023Adapter } from './avtoelon-chevrolet-2023';

export type { VehicleAdapter } from './adapter';

export function createVehicleAdapter(source: VehicleListingSource, lookups: VehicleLookups): VehicleAdapter {
  switch (source) {
    case 'avtoelon_2020':
      return createAvtoelon2020Adapter(lookups);
    case 'avtoelon_2022':
      return createAvtoelon2022Adapter(lookups);
    case 'avtoelon_chevrolet_2023':
      return createAvtoelonChevrolet2023Adapter(lookups);
  }
}
