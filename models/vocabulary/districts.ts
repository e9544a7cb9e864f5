/** District names in any language or script → one of the 12 Tashkent district codes. */
import { DISTRICT_IDS, DISTRICT_NAMES, type DistrictId } from './codes';
import { CITY_WORDS, DISTRICT_ALIASES, DISTRICT_WORDS } from './district-aliases';
import { editDistance, typoIndex, type FuzzyCandidate } from './fuzzy';
import { OTHER_PLACE_NAMES } from './other-places';
import { normaliseText, spellingKey } from '../../schema/translit';
import type { DistrictMatch } from './types';
import { remembered } from './remembered';

const districtWords = new RegExp(`(^| )(?:${[...DISTRICT_WORDS, ...CITY_WORDS].map(normaliseText).join('|')})(?= |$)`, 'g');
// Russian adjectival forms: Чиланзарский → chilanzarskiy, Yashnobodsky; the stem must stay ≥ 3 letters.
const adjectiveEnding = /(?<=\p{L}{3})sk(?:iy|ii|y|i|aya|oe|ogo|om)$/u;

/** The name part of a district mention, normalised: no "district"/"район" words, no city around it, no adjective ending. */
function districtStem(text: string): string {
  return normaliseText(text).replace(districtWords, '$1').replace(/ {2,}/g, ' ').trim().replace(adjectiveEnding, '');
}

const compact = (stem: string): string => stem.replace(/ /g, '');

/** The canonical English names and the codes, in any script, with or without a district word: via 'exact'. */
const exactNames = new Map<string, DistrictId>();
/** Spelling keys of every name and alias: via 'alias'. */
const aliasKeys = new Map<string, DistrictId>();
/** Every name and alias as written (normalised), for typo matching: via 'fuzzy'. */
const fuzzyCandidates: FuzzyCandidate<DistrictId>[] = [];


for (const id of DISTRICT_IDS) {
  const canonical = [DISTRICT_NAMES[id], id];
  for (const name of canonical) exactNames.set(compact(districtStem(name)), id);
  for (const name of [...canonical, ...DISTRICT_ALIASES[id]]) {
    const stem = districtStem(name);
    const key = spellingKey(stem);
    const clash = aliasKeys.get(key);
    if (clash !== undefined && clash !== id) throw new Error(`district alias "${name}" also names ${clash}`);
    aliasKeys.set(key, id);
    fuzzyCandidates.push({ key: compact(stem), value: id });
  }
}
const placesElsewhere = new Set(
  OTHER_PLACE_NAMES.map(districtStem).filter((stem) => !aliasKeys.has(spellingKey(stem))).map(compact),
);
/** District names plus places outside Tashkent (value null): a typo closest to one of those is no district of ours. */
const typos = typoIndex<DistrictId | null>([...fuzzyCandidates, ...[...placesElsewhere].map((key) => ({ key, value: null }))]);

const found = (id: DistrictId, via: DistrictMatch['via']): DistrictMatch => ({ id, name: DISTRICT_NAMES[id], via });

/** Exact and alias lookups only: two map reads. */
function lookup(stem: string): DistrictMatch | null {
  const exact = exactNames.get(compact(stem));
  if (exact !== undefined) return found(exact, 'exact');
  const alias = aliasKeys.get(spellingKey(stem));
  return alias === undefined ? null : found(alias, 'alias');
}

/**
 * "Chilanzar", "Chilonzor tumani", "Чиланзарский район", "Yakkasarai district", "Olmzor" … →
 * the district; small typos are tolerated when one district is clearly closest. Not a district → null.
 */
export const matchDistrict: (text: string) => DistrictMatch | null = remembered((text) => {
  const stem = districtStem(text);
  if (stem === '') return null;
  const hit = lookup(stem);
  if (hit !== null) return hit;
  const fuzzy = typos.closest(compact(stem));
  return fuzzy === null ? null : found(fuzzy, 'fuzzy');
});

/**
 * The district named in a comma-separated address ("город Ташкент, Мирабадский район, …"):
 * the first part that is a district name (exact or alias; no typo guessing inside addresses).
 */
export function districtInAddress(address: string): DistrictMatch | null {
  for (const part of address.split(',')) {
    const stem = districtStem(part);
    const hit = stem === '' ? null : lookup(stem);
    if (hit !== null) return hit;
  }
  return null;
}

/** English names of the districts closest to `text`, best first (for an UNKNOWN_DISTRICT reply). */
export function suggestDistricts(text: string, limit = 3): string[] {
  const key = compact(districtStem(text));
  if (key === '') return [];
  const distance = new Map<DistrictId, number>();
  for (const candidate of fuzzyCandidates) {
    const d = editDistance(key, candidate.key);
    if (d < (distance.get(candidate.value) ?? Infinity)) distance.set(candidate.value, d);
  }
  return [...distance]
    .sort(([a, da], [b, db]) => da - db || DISTRICT_NAMES[a].localeCompare(DISTRICT_NAMES[b]))
    .slice(0, limit)
    .map(([id]) => DISTRICT_NAMES[id]);
}
