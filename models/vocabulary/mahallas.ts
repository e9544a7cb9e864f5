/** The committed mahalla gazetteer (mahallas.json, written by ./build-gazetteer.ts), indexed once at load. */
import { DISTRICT_IDS, type DistrictId } from './codes';
import { createMahallaIndex, type Mahalla } from './mahalla-index';
import gazetteer from './mahallas.json';
import { remembered } from './remembered';
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
/** Keyed by the district and the text (a district id holds no newline). */
const rememberedMatch = remembered((key) => {
  const at = key.indexOf('\n');
  return index.match(key.slice(at + 1), (key.slice(0, at) || undefined) as DistrictId | undefined);
});

/** "Inokobod", "махаллинский сход граждан Инокобод", "Inoqobod MFY" … → the mahalla; with a district, only that district's. */
export function matchMahalla(text: string, district?: DistrictId): MahallaMatch | null {
  return rememberedMatch(`${district ?? ''}\n${text}`);
}

/** The district's mahallas, most listed first. */
export function mahallasOf(district: DistrictId): readonly Mahalla[] {
  return index.inDistrict(district);
}
