/** Lookup over a mahalla gazetteer: names in any script, exact → alias → typo, optionally within one district. */
import type { DistrictId } from './codes';
import { typoIndex, type FuzzyCandidate } from './fuzzy';
import { normaliseText, spellingKey } from '../../schema/translit';
import type { MahallaMatch } from './types';

/** One gazetteer entry, as stored in mahallas.json. */
export interface Mahalla {
  id: string; // "<districtId>/<latin-slug>"
  name: string; // Uzbek Latin transliteration
  cyrillic: string; // the most frequent spelling in the listings
  district: DistrictId;
  listings: number; // listing rows whose address names it
  variants: string[]; // other spellings seen in the listings
}

/** Words around a mahalla name that are not part of it (uybor's "махаллинский сход граждан", MFY, the English MT's "gathering of citizens"). */
const MAHALLA_WORDS = [
  'махаллинский', 'сход', 'граждан', 'мсг', 'махалля', 'махалла', 'маҳалла', 'маҳалласи', 'mahalla', 'mahallasi',
  'mfy', 'мфй', 'fuqarolar', "yig'ini", 'makhalinsky', 'gathering', 'citizens', 'of', 'the',
];
const mahallaWords = new Set(MAHALLA_WORDS.map(normaliseText));

/** The name part of a mahalla mention, normalised. */
export function mahallaStem(text: string): string {
  return normaliseText(text).split(' ').filter((word) => !mahallaWords.has(word)).join(' ');
}

const compact = (stem: string): string => stem.replace(/ /g, '');

export interface MahallaIndex {
  /** Best match; with a district, only that district's mahallas are considered. Ambiguous → null. */
  match(text: string, district?: DistrictId): MahallaMatch | null;
  /** The district's mahallas, most listed first. */
  inDistrict(district: DistrictId): readonly Mahalla[];
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

export function createMahallaIndex(mahallas: readonly Mahalla[]): MahallaIndex {
  const byName = new Map<string, Mahalla[]>(); // normalised canonical name → 'exact'
  const byKey = new Map<string, Mahalla[]>(); // spelling key of any spelling → 'alias'
  // Typo matching ('fuzzy') compares spellings as written: the folded spelling keys would bring
  // unrelated names within reach (Inokobod and Yakkabog are two edits apart once folded).
  const candidates: FuzzyCandidate<Mahalla>[] = [];
  const candidatesIn = new Map<DistrictId, FuzzyCandidate<Mahalla>[]>();
  const byDistrict = new Map<DistrictId, Mahalla[]>();
  for (const m of mahallas) {
    const stems = new Set([m.name, m.cyrillic, ...m.variants].map(mahallaStem));
    pushTo(byName, compact(mahallaStem(m.name)), m);
    for (const stem of stems) {
      pushTo(byKey, spellingKey(stem), m);
      const candidate = { key: compact(stem), value: m };
      candidates.push(candidate);
      pushTo(candidatesIn, m.district, candidate);
    }
    pushTo(byDistrict, m.district, m);
  }
  for (const list of byDistrict.values()) list.sort((a, b) => b.listings - a.listings || a.name.localeCompare(b.name));
  const typos = typoIndex(candidates);
  const typosIn = new Map([...candidatesIn].map(([district, inDistrict]) => [district, typoIndex(inDistrict)]));

  const result = (m: Mahalla, via: MahallaMatch['via']): MahallaMatch => ({ id: m.id, name: m.name, district: m.district, via });

  return {
    match(text, district) {
      const stem = mahallaStem(text);
      if (stem === '') return null;
      const inScope = (hits: Mahalla[] = []) => (district === undefined ? hits : hits.filter((m) => m.district === district));
      const exact = inScope(byName.get(compact(stem)));
      const hits = exact.length > 0 ? exact : inScope(byKey.get(spellingKey(stem)));
      if (hits.length > 1) return null; // one name in several districts, and no district given
      if (hits.length === 1) return result(hits[0], exact.length > 0 ? 'exact' : 'alias');
      const fuzzy = (district === undefined ? typos : typosIn.get(district))?.closest(compact(stem)) ?? null;
      return fuzzy === null ? null : result(fuzzy, 'fuzzy');
    },
    inDistrict: (district) => byDistrict.get(district) ?? [],
  };
}
