/**
 * Generates mahallas.json, the mahalla gazetteer, from the listing addresses.
 * Run after the data snapshot changes: `node <outDir>/tools/models/vocabulary/build-gazetteer.js` (the command
 * that writes it).
 *
 * 1. Every Tashkent address naming a mahalla ("махаллинский сход граждан Инокобод", "махалля Ракат",
 *    "Ракат махалля") adds a listing to (district, name).
 * 2. Spellings of one name within a district are merged: equal spelling keys (Мирабад / Миробод,
 *    Юнус Раджаби / Юнус Ражабий, Кухна-Чапаната / Кухна-Чупонота), or one edit apart on long
 *    names (Семург / Симург, Карасу / Корасув).
 * 3. The English file's "Makhalinsky gathering of citizens X" rows count for the mahalla X matches in
 *    their stated district; the others are reported, not guessed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DATA_DIR, PROJECT_ROOT } from '../paths';
import { mahallaInAddress, mahallaNameIn } from './address';
import { DISTRICT_IDS, type DistrictId } from './codes';
import { matchDistrict } from './districts';
import { editDistance } from './fuzzy';
import { createMahallaIndex, mahallaStem, type Mahalla, type MahallaIndex } from './mahalla-index';
import type { GazetteerFile } from './mahallas';
import { normaliseText, spellingKey, toLatinName } from '../../schema/translit';

const GENERATOR = 'models/vocabulary/build-gazetteer.ts';
export const GAZETTEER_PATH = join(PROJECT_ROOT, 'models', 'vocabulary', 'mahallas.json');

/** Listing files whose address column names the mahalla (relative to data/). */
const ADDRESS_SOURCES: readonly { file: string; column: string }[] = [
  { file: 'listings/uybor_apartments_2025.csv', column: 'Address' },
  { file: 'listings/uybor_apartments_2025_b.csv', column: 'addresses' },
  { file: 'listings/uybor_houses_2025.csv', column: 'Address' },
  // olx_apartments_2021_geocoded.csv repeats these listings, so it is left out to count them once.
  { file: 'listings/olx_apartments_2021.csv', column: 'location' },
];
/** The machine-translated English file: district and street ("Makhalinsky gathering of citizens X") in columns of their own. */
const ENGLISH_SOURCE = { file: 'listings/uybor_apartments_2025_en.csv', district: 'district', street: 'street' };

type Row = Record<string, string>;
const readRows = (dataDir: string, file: string): Row[] =>
  parse(readFileSync(join(dataDir, file)), { columns: true, bom: true, relax_column_count: true, skip_empty_lines: true });

/** One mahalla being assembled: its Cyrillic spellings with their listing counts, and English-file spellings. */
interface Group {
  district: DistrictId;
  key: string;
  spellings: Map<string, number>;
  translations: Set<string>;
  listings: number;
}

const digitsOf = (key: string): string => key.replace(/\D/g, '');
/** Two spellings one edit apart are one mahalla only if long enough for that to be a spelling variant and numbered alike. */
const sameMahalla = (a: string, b: string): boolean =>
  Math.min(a.length, b.length) >= 6 && digitsOf(a) === digitsOf(b) && editDistance(a, b, 1) <= 1;

function mostUsed(spellings: Map<string, number>): string {
  const capitalised = (s: string) => (s[0] === s[0].toUpperCase() ? 1 : 0);
  return [...spellings].sort(([a, na], [b, nb]) => nb - na || capitalised(b) - capitalised(a) || a.localeCompare(b))[0][0];
}

function toMahalla(group: Group): Mahalla {
  const cyrillic = mostUsed(group.spellings);
  const name = toLatinName(cyrillic);
  return {
    id: `${group.district}/${normaliseText(name).replace(/ /g, '-')}`,
    name,
    cyrillic,
    district: group.district,
    listings: group.listings,
    // Spellings that normalise like the name itself add nothing.
    variants: [...group.spellings.keys(), ...group.translations].filter((s) => normaliseText(s) !== normaliseText(name)).sort(),
  };
}

/**
 * English MT spellings no spelling rule reaches, resolved by hand.
 * "Kitik Hirmantep": Kitik is the MT's rendering of Кичик (small); Кичик Хирмантепа is a Chilanzar
 * mahalla with 82 Russian-file listings, and the English file puts 31 of its 49 rows in Chilanzar.
 */
const TRANSLATED_NAMES: readonly { district: DistrictId; english: string; cyrillic: string }[] = [
  { district: 'chilanzar', english: 'Kitik Hirmantep', cyrillic: 'Кичик Хирмантепа' },
];

/** The id of the mahalla an English-file name stands for in its stated district. */
function resolveTranslation(index: MahallaIndex, english: string, district: DistrictId): string | null {
  const byHand = TRANSLATED_NAMES.find((t) => t.district === district && t.english === english);
  return index.match(byHand?.cyrillic ?? english, district)?.id ?? null;
}

export interface GazetteerReport {
  gazetteer: GazetteerFile;
  merged: string[]; // "district: A + B" for spellings merged by edit distance
  unresolved: string[]; // English-file names with no mahalla in their district
}

export function buildGazetteer(dataDir: string = DATA_DIR): GazetteerReport {
  const groups: Group[] = [];
  const merged: string[] = [];
  const add = (district: DistrictId, spelling: string, count: number) => {
    const key = spellingKey(mahallaStem(spelling));
    const sameDistrict = groups.filter((g) => g.district === district);
    let group = sameDistrict.find((g) => g.key === key);
    if (group === undefined) {
      group = sameDistrict.find((g) => sameMahalla(g.key, key));
      if (group !== undefined) merged.push(`${district}: ${mostUsed(group.spellings)} + ${spelling}`);
    }
    if (group === undefined) groups.push((group = { district, key, spellings: new Map(), translations: new Set(), listings: 0 }));
    group.spellings.set(spelling, (group.spellings.get(spelling) ?? 0) + count);
    group.listings += count;
  };

  // Most used spellings first, so a rare variant joins its common form rather than the reverse.
  const mentions = new Map<string, { district: DistrictId; spelling: string; count: number }>();
  for (const { file, column } of ADDRESS_SOURCES) {
    for (const row of readRows(dataDir, file)) {
      const found = mahallaInAddress(row[column] ?? '');
      if (found === null) continue;
      const id = `${found.district}\t${found.mahalla}`;
      const seen = mentions.get(id) ?? { district: found.district, spelling: found.mahalla, count: 0 };
      seen.count++;
      mentions.set(id, seen);
    }
  }
  for (const { district, spelling, count } of [...mentions.values()].sort((a, b) => b.count - a.count || a.spelling.localeCompare(b.spelling))) {
    add(district, spelling, count);
  }

  const groupOf = new Map(groups.map((g) => [toMahalla(g).id, g]));
  const index = createMahallaIndex(groups.map(toMahalla));
  const unresolved = new Map<string, number>();
  for (const row of readRows(dataDir, ENGLISH_SOURCE.file)) {
    const name = mahallaNameIn(row[ENGLISH_SOURCE.street] ?? '');
    const district = matchDistrict(row[ENGLISH_SOURCE.district] ?? '');
    if (name === null || district === null) continue;
    const group = groupOf.get(resolveTranslation(index, name, district.id) ?? '');
    if (group !== undefined) {
      group.translations.add(name);
      group.listings++;
    } else {
      const label = `${district.id}: ${name}`;
      unresolved.set(label, (unresolved.get(label) ?? 0) + 1);
    }
  }

  const order = (d: DistrictId) => DISTRICT_IDS.indexOf(d);
  const mahallas = groups.map(toMahalla).sort((a, b) => order(a.district) - order(b.district) || a.name.localeCompare(b.name));
  const sources = [...ADDRESS_SOURCES.map((s) => s.file), ENGLISH_SOURCE.file].map((file) => ({
    file: `data/${file}`,
    sha256: createHash('sha256').update(readFileSync(join(dataDir, file))).digest('hex'),
  }));
  return {
    gazetteer: {
      generated: `Generated by ${GENERATOR} from the listing files below; do not edit by hand. Rerun: tsc, then node <outDir>/tools/models/vocabulary/build-gazetteer.js`,
      sources,
      mahallas,
    },
    merged,
    unresolved: [...unresolved].map(([label, n]) => `${label} (${n} rows)`),
  };
}
