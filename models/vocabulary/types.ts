/** Result shapes of the matchers (re-exported unchanged by ./index.ts). */
import type { DistrictId } from './codes';

export interface DistrictMatch {
  id: DistrictId;
  name: string; // English display name
  via: 'exact' | 'alias' | 'fuzzy';
}
export interface MahallaMatch {
  id: string; // stable slug, e.g. "chilanzar/qatortol"
  name: string; // display name (Uzbek Latin)
  district: DistrictId;
  via: 'exact' | 'alias' | 'fuzzy';
}
