/**
 * Region, city and district names in Uzbek (Latin, Cyrillic), Russian and English → one of the 14
 * regions. The names come from the SOATO tables in data/geo (every district and city with its
 * region), extended by ./region-aliases.ts; Tashkent city's own districts are recognised by the
 * residential vocabulary.
 *
 * A word saying what kind of place it is decides between namesakes: "Toshkent" and "Toshkent sh."
 * are the city, "Toshkent tumani" a district of Tashkent region, "Toshkent viloyati" the region.
 * Without such a word a city name wins over a district's, and a district's over a region's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DATA_DIR } from '../../paths';
import { matchDistrict, normaliseText, spellingKey } from '../../vocabulary';
import { typoIndex, type FuzzyCandidate } from '../../vocabulary/fuzzy';
import { REGION_BY_SOATO, type RegionId } from '../../../schema/vehicle-codes';
import { REGION_ALIASES, TOWN_REGIONS } from './region-aliases';

type PlaceKind = 'city' | 'district' | 'region';

/** Words naming the kind of place, as normaliseText writes them (Cyrillic already in Latin). */
const KIND_WORDS: Readonly<Record<PlaceKind, readonly string[]>> = {
  city: ['shahri', 'shahar', 'shaxar', 'shaxri', 'sh', 'gorod', 'g', 'city', 'town'],
  district: ['tumani', 'tuman', 'rayon', 'rayoni', 'district', 'r n'],
  region: ['viloyati', 'viloyat', 'vil', 'oblast', 'obl', 'region', 'respublikasi', 'respublika', 'republic', 'of'],
};
// Russian adjectival forms: Ташкентская (область), Алтынкульский (район); the stem must stay ≥ 3 letters.
const ADJECTIVE_ENDING = /(?<=\p{L}{3})sk(?:iy|ii|y|i|aya|oe|ogo|om)$/u;
const kindPattern = (words: readonly string[]) => new RegExp(`(^| )(?:${words.join('|')})(?= |$)`, 'g');
const KIND_PATTERNS = Object.entries(KIND_WORDS).map(([kind, words]) => [kind as PlaceKind, kindPattern(words)] as const);

interface Parsed {
  kind: PlaceKind | null;
  wholeKey: string; // spelling key of the whole text
  stem: string; // the name without kind words or adjective ending, normalised
  stemKey: string;
}

// Some Russian names carry Latin look-alikes for Cyrillic letters (Шиpин, Мингбулакский pайон).
const LOOKALIKES: Readonly<Record<string, string>> = { a: 'а', c: 'с', e: 'е', o: 'о', p: 'р', x: 'х', y: 'у' };
const fixLookalikes = (text: string) =>
  text.replace(/\S+/g, (word) => (/[а-яё]/i.test(word) ? word.replace(/[aceopxy]/g, (ch) => LOOKALIKES[ch]) : word));

function parsePlace(text: string): Parsed {
  const normalised = normaliseText(fixLookalikes(text.toLowerCase()));
  let kind: PlaceKind | null = null;
  let stem = normalised;
  for (const [k, pattern] of KIND_PATTERNS) {
    const without = stem.replace(pattern, '$1').replace(/ {2,}/g, ' ').trim();
    if (without !== stem && kind === null) kind = k;
    stem = without;
  }
  stem = stem.replace(ADJECTIVE_ENDING, '');
  return { kind, wholeKey: spellingKey(normalised), stem, stemKey: spellingKey(stem) };
}

/** key → region, or null once two regions claim the key. */
class PlaceTable {
  private readonly regions = new Map<string, RegionId | null>();
  add(key: string, region: RegionId | null): void {
    if (key === '') return;
    const known = this.regions.get(key);
    this.regions.set(key, known === undefined || known === region ? region : null);
  }
  get(key: string): RegionId | null | undefined {
    return this.regions.get(key);
  }
}

const byKind: Record<PlaceKind, PlaceTable> = { city: new PlaceTable(), district: new PlaceTable(), region: new PlaceTable() };
/** Whole spellings from ./region-aliases.ts: checked first, they override the SOATO names. */
const explicit = new Map<string, RegionId | null>();
const typoCandidates: FuzzyCandidate<RegionId | null>[] = [];

type SoatoRow = Record<string, string>;
const readGeo = (file: string): SoatoRow[] => parse(readFileSync(join(DATA_DIR, 'geo', file)), { columns: true, bom: true });
const NAME_COLUMNS = ['name_uz', 'name_oz', 'name_ru'] as const;

function addPlace(name: string, region: RegionId | null, defaultKind: PlaceKind): void {
  if (!name || name === 'null') return;
  const place = parsePlace(name);
  byKind[place.kind ?? defaultKind].add(place.stemKey, region);
  typoCandidates.push({ key: place.stem.replace(/ /g, ''), value: region });
}

const regionBySoatoRowId = new Map<string, RegionId>();
for (const row of readGeo('uz_regions.csv')) {
  const region = REGION_BY_SOATO[row.soato_id];
  if (region === undefined) throw new Error(`uz_regions.csv: unknown SOATO region ${row.soato_id}`);
  regionBySoatoRowId.set(row.id, region);
  for (const column of NAME_COLUMNS) addPlace(row[column], region, 'region');
}
for (const row of readGeo('uz_districts.csv')) {
  const region = regionBySoatoRowId.get(row.region_id);
  if (region === undefined) throw new Error(`uz_districts.csv: unknown region id ${row.region_id}`);
  // Tashkent city's districts are listed as one row without names; matchDistrict knows them.
  if (region === 'tashkent_city') continue;
  for (const column of NAME_COLUMNS) addPlace(row[column], region, 'city');
}
for (const [region, names] of Object.entries(REGION_ALIASES) as [RegionId, readonly string[]][]) {
  for (const name of names) {
    const place = parsePlace(name);
    explicit.set(place.wholeKey, region);
    typoCandidates.push({ key: place.stem.replace(/ /g, ''), value: region });
  }
}
for (const [name, region] of Object.entries(TOWN_REGIONS)) {
  // A namesake (null) is refused only when named bare: "Yangiobod tumani" is still the district.
  if (region === null) explicit.set(parsePlace(name).wholeKey, null);
  else addPlace(name, region, 'city');
}
const typos = typoIndex(typoCandidates);

/** Which tables to consult, in order, given the kind of place the text says it is. */
const LOOKUP_ORDER: Readonly<Record<PlaceKind | 'none', readonly PlaceKind[]>> = {
  none: ['city', 'district', 'region'],
  city: ['city', 'district'],
  district: ['district', 'city'],
  region: ['region'],
};

/**
 * "Toshkent", "Ташкент", "Tashkent", "Toshkent sh." → tashkent_city; "Olmaliq", "Toshkent tumani",
 * "Ташкентская область" → tashkent_region; "Farg'ona", "Фергана", "Qo'qon" → fergana; "Chilonzor" →
 * tashkent_city. Small typos are tolerated when one region is clearly closest. Unknown or
 * ambiguous → null.
 */
export function normaliseRegion(text: string): RegionId | null {
  const place = parsePlace(text);
  if (place.stemKey === '') return null;
  const named = explicit.get(place.wholeKey);
  if (named !== undefined) return named;
  for (const kind of LOOKUP_ORDER[place.kind ?? 'none']) {
    const region = byKind[kind].get(place.stemKey);
    if (region !== undefined) return region;
  }
  const district = matchDistrict(text);
  if (district !== null && district.via !== 'fuzzy') return 'tashkent_city';
  return typos.closest(place.stem.replace(/ /g, ''));
}
