/**
 * Reads a free-text address into what it names: Tashkent city, the district, places elsewhere,
 * mahallas and places (streets, quarters, bare names). Parts are comma-separated; inside a part,
 * "<district> район", "массив", "махалля" and "жилой комплекс" start new segments
 * ("Uchtepa район массив Чиланзар 11-й квартал", "Чиланзар 13-й квартал махалля Кухна-Чупонота").
 * District and mahalla names are the vocabulary's to recognise; this module only finds where they are.
 * Each distinct part is read once and kept (a bounded cache): addresses repeat their parts.
 */
import { LRUCache } from 'lru-cache';
import { DISTRICT_WORDS, districtInAddress, mahallaNameIn, matchDistrict, normaliseText, OTHER_PLACE_NAMES, type DistrictId } from '../../vocabulary';
import { nameKey } from './place-key';
import { arabicQuarterNumbers, readPlace, type PlaceMention } from './place-parse';
import { CITY_NAMES, CITY_WORDS, REGION_WORDS } from './place-words';

export interface PlaceSegment {
  text: string; // as written
  mention: PlaceMention;
}

export interface AddressReading {
  /** Names Tashkent city ("город Ташкент", "Toshkent sh.", "Tashkent city"). */
  tashkent: boolean;
  /** Districts named with a district word or as a whole part, in order. */
  districts: DistrictId[];
  /** The part naming a place outside Tashkent city, as written; null when none does. */
  elsewhere: string | null;
  /** Mahalla names as written ("махаллинский сход граждан Инокобод" → "Инокобод"). */
  mahallas: string[];
  places: PlaceSegment[];
}

const DISTRICT_WORD = new RegExp(`(?:^| )(?:${DISTRICT_WORDS.map(normaliseText).join('|')})(?: |$)`);
// Splits before a marker followed by a name; Latin "mahalla" stays, it follows its name ("Dahana mahalla fuqarolar yig'ini").
const SEGMENT_START = /(?<=\S)\s+(?=(?:махалл[яа]|массив|massiv|жилой комплекс)\s+\S)/iu;

const tokenKey = (tokens: string[]) => nameKey(tokens.filter((t) => !CITY_WORDS.has(t) && !REGION_WORDS.has(t)));
const TASHKENT_KEYS = new Set(CITY_NAMES.map((name) => tokenKey([name])));
/** Keys of Uzbekistan's regions, towns and districts outside Tashkent city (from the vocabulary's SOATO names). */
const ELSEWHERE_KEYS = new Set(
  OTHER_PLACE_NAMES.map((name) => tokenKey(normaliseText(name).replace(DISTRICT_WORD, ' ').trim().split(' ')))
    .filter((key) => key !== '' && !TASHKENT_KEYS.has(key)),
);

type PartReading =
  | { what: 'city' }
  | { what: 'elsewhere' }
  | { what: 'district'; district: DistrictId; rest: string }
  | { what: 'named elsewhere' } // a bare name of a town elsewhere, or a Tashkent street named after it
  | { what: 'text' };

function readPart(part: string): PartReading {
  const normalised = normaliseText(part);
  const tokens = normalised.split(' ');
  if (tokens.some((t) => REGION_WORDS.has(t))) return { what: 'elsewhere' };
  const cityNamed = tokens.some((t) => TASHKENT_KEYS.has(tokenKey([t])));
  if (tokens.every((t) => CITY_WORDS.has(t) || TASHKENT_KEYS.has(tokenKey([t])))) return cityNamed ? { what: 'city' } : { what: 'text' };
  // "город Самарканд", "Samarqand shahri": a city word with another city's name.
  if (tokens.some((t) => CITY_WORDS.has(t)) && ELSEWHERE_KEYS.has(tokenKey(tokens))) return { what: 'elsewhere' };
  const whole = districtInAddress(part);
  if (whole !== null) return { what: 'district', district: whole.id, rest: '' };
  const word = DISTRICT_WORD.exec(normalised);
  if (word !== null) {
    const before = normalised.slice(0, word.index).split(' ').filter((t) => t !== '' && !CITY_WORDS.has(t) && !TASHKENT_KEYS.has(tokenKey([t])));
    // The district's name is the last one to three words before the district word ("Mirzo Ulugbek tumani").
    for (let n = Math.min(3, before.length); n >= 1; n--) {
      const district = matchDistrict(before.slice(-n).join(' '));
      if (district !== null) return { what: 'district', district: district.id, rest: restAfterDistrictWord(part) };
    }
    if (ELSEWHERE_KEYS.has(tokenKey(before))) return { what: 'elsewhere' };
  }
  return ELSEWHERE_KEYS.has(tokenKey(tokens)) ? { what: 'named elsewhere' } : { what: 'text' };
}

/** The text after the first district word of a part, as written ("Chilonzor район массив X" → "массив X"). */
function restAfterDistrictWord(part: string): string {
  const words = part.trim().split(/\s+/);
  const at = words.findIndex((w) => DISTRICT_WORD.test(normaliseText(w)));
  return at < 0 ? '' : words.slice(at + 1).join(' ');
}

/**
 * What one comma-separated part of an address contributes to its reading: a pure function of the
 * part as written, so it is read once per distinct spelling and kept in a bounded cache. Frozen: readings share it.
 */
interface PartContribution {
  /** Unique to this reading of the part: readings with the same contributions in the same order are the same. */
  id: number;
  read: PartReading['what'];
  /** part.trim(), after Roman quarter numbers became Arabic. */
  trimmed: string;
  district?: DistrictId;
  mahallas: readonly string[];
  places: readonly PlaceSegment[];
}

const NOTHING: readonly never[] = Object.freeze([]);

/** The mahallas and place segments of a text: split at markers ("махалля", "массив"), each segment a mahalla or a place. */
function readSegments(text: string): Pick<PartContribution, 'mahallas' | 'places'> {
  const mahallas: string[] = [];
  const places: PlaceSegment[] = [];
  for (const segment of text.split(SEGMENT_START)) {
    const mahalla = mahallaNameIn(segment);
    if (mahalla !== null) {
      mahallas.push(mahalla);
      continue;
    }
    const mention = readPlace(segment);
    if (mention !== null) places.push(frozenSegment({ text: segment.trim(), mention }));
  }
  return { mahallas: mahallas.length === 0 ? NOTHING : Object.freeze(mahallas), places: places.length === 0 ? NOTHING : Object.freeze(places) };
}

function frozenSegment(segment: PlaceSegment): PlaceSegment {
  Object.freeze(segment.mention.words);
  Object.freeze(segment.mention.alternates);
  Object.freeze(segment.mention);
  return Object.freeze(segment);
}

let contributions = 0;

/** Whether the part changes nothing in a reading: text naming no place or mahalla ("12-uy", "кв. 34"). */
const inert = (part: PartContribution): boolean => part.read === 'text' && part.mahallas.length === 0 && part.places.length === 0;

/** null for a part with nothing in it. */
function readWrittenPart(written: string): PartContribution | null {
  // Before district names are looked for: "Сергели-III" is a quarter, not a spelling of Sergeli.
  const part = arabicQuarterNumbers(written);
  const trimmed = part.trim();
  if (trimmed === '') return null;
  const read = readPart(part);
  const segments =
    read.what === 'district' ? (read.rest === '' ? null : readSegments(read.rest))
    : read.what === 'text' || read.what === 'named elsewhere' ? readSegments(part)
    : null;
  return Object.freeze({
    id: ++contributions,
    read: read.what,
    trimmed,
    ...(read.what === 'district' && { district: read.district }),
    mahallas: segments?.mahallas ?? NOTHING,
    places: segments?.places ?? NOTHING,
  });
}

/** Distinct parts read and kept: a portfolio repeats its streets and districts; house numbers and flats vary. */
const PART_CACHE_SIZE = 10_000;
const EMPTY_PART = 0;
const partCache = new LRUCache<string, PartContribution | typeof EMPTY_PART>({
  max: PART_CACHE_SIZE,
  memoMethod: (written) => readWrittenPart(written) ?? EMPTY_PART,
});

/** The cache of part readings, for tests and benches: its bound, what it holds, and a way to start cold. */
export const addressPartCache = {
  capacity: PART_CACHE_SIZE,
  get size(): number {
    return partCache.size;
  },
  clear(): void {
    partCache.clear();
  },
};

export function readAddress(address: string): AddressReading {
  return readAddressKeyed(address).reading;
}

/**
 * The reading, and a key that only addresses with the same reading share: the ids of the parts
 * that contribute to it, in order (what the key leaves out, house and flat numbers, changes
 * nothing in the reading). Part readings are kept in a bounded cache; one read again after it
 * left the cache has a new id, so a key is never reused for another reading.
 */
export function readAddressKeyed(address: string): { reading: AddressReading; key: string } {
  const reading: AddressReading = { tashkent: false, districts: [], elsewhere: null, mahallas: [], places: [] };
  let key = '';
  let leadingTownName: string | null = null;
  for (const written of address.split(/[,;]/)) {
    const part = partCache.memo(written);
    if (part === EMPTY_PART || inert(part)) continue;
    key = key === '' ? String(part.id) : `${key},${part.id}`;
    if (part.read === 'city') reading.tashkent = true;
    else if (part.read === 'elsewhere') reading.elsewhere ??= part.trimmed;
    else if (part.read === 'district') {
      if (!reading.districts.includes(part.district!)) reading.districts.push(part.district!);
    } else if (part.read === 'named elsewhere' && reading.places.length === 0) leadingTownName ??= part.trimmed;
    for (const mahalla of part.mahallas) reading.mahallas.push(mahalla);
    for (const place of part.places) reading.places.push(place);
  }
  // A bare town name leading an address with no Tashkent city or district in it ("Самарканд, улица …") is that town;
  // inside a Tashkent address it is a street named after it ("Нукус", "Паркент").
  if (reading.elsewhere === null && !reading.tashkent && reading.districts.length === 0) reading.elsewhere = leadingTownName;
  return { reading, key };
}
