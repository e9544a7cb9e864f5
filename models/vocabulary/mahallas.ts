/** The committed mahalla gazetteer (mahallas.json, written by ./build-gazetteer.ts), indexed once at load. */
import { DISTRICT_IDS, type DistrictId } from './codes';
import { createMahallaIndex, type Mahalla } from './mahalla-index';
import gazetteer from './mahallas.json';
import type { MahallaMatch } from './types';

export interface GazetteerFile {
  generated: string;
  sources: { file: string; sha256: string }[];
  mahallas: Mahalla[];
}

const isDistrictId = (s: string): s is DistrictId => (DISTRICT_IDS as readonly string[]).includes(s);
for (const m of gazetteer.mahallas) {
  if (!isDistrictId(m.district)) throw new Error(`mahallas.json: ${m.id} has unknown district ${m.district}`);
}
const index = createMahallaIndex((gazetteer as GazetteerFile).mahallas);

/** "Inokobod", "махаллинский сход граждан Инокобод", "Inoqobod MFY" … → the mahalla; with a district, only that district's. */
export function matchMahalla(text: string, district?: DistrictId): MahallaMatch | null {
  return index.match(text, district);
}

/** The district's mahallas, most listed first. */
export function mahallasOf(district: DistrictId): readonly Mahalla[] {
  return index.inDistrict(district);
}
