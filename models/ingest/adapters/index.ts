/** One adapter per source file. */
import type { Olx2021Geocodes } from '../geocode';
import type { Normaliser } from '../normaliser';
import type { ListingSource } from '../record';
import type { SourceAdapter } from './adapter';
import { createOlx2021Adapter } from './olx-2021';
import { createOlx2024Adapter } from './olx-2024';
import { createUybor2023Adapter } from './uybor-2023';
import { createUybor2025Adapter } from './uybor-2025';
import { createUybor2025BAdapter } from './uybor-2025-b';
import { createUybor2025EnAdapter } from './uybor-2025-en';
import { createUybor2026Adapter } from './uybor-2026';
import { createUyborHouses2025Adapter } from './uybor-houses-2025';

export { isDrop, type Adapted, type SourceAdapter } from './adapter';

export interface AdapterDependencies {
  normaliser: Normaliser;
  /** Read only when the 2021 file is ingested. */
  olx2021Geocodes: () => Olx2021Geocodes;
}

export function createAdapter(source: ListingSource, deps: AdapterDependencies): SourceAdapter {
  switch (source) {
    case 'uybor_2026':
      return createUybor2026Adapter(deps.normaliser);
    case 'uybor_2023':
      return createUybor2023Adapter(deps.normaliser);
    case 'uybor_2025':
      return createUybor2025Adapter(deps.normaliser);
    case 'uybor_2025_b':
      return createUybor2025BAdapter(deps.normaliser);
    case 'uybor_2025_en':
      return createUybor2025EnAdapter(deps.normaliser);
    case 'uybor_houses_2025':
      return createUyborHouses2025Adapter(deps.normaliser);
    case 'olx_2024':
      return createOlx2024Adapter(deps.normaliser);
    case 'olx_2021':
      return createOlx2021Adapter(deps.normaliser, deps.olx2021Geocodes());
    case 'observations':
      throw new Error('observations come from an export, not a listing file: models/ingest/observation-listings.ts reads them');
    case 'uybor_collected':
    case 'olx_collected':
      throw new Error('collected listings come from the collector, not a listing file: models/ingest/collectors/ reads them');
  }
}
