/**
 * Reads a free-text address into what it names: Tashkent city, the district, places elsewhere,
 * mahallas and places (streets, quarters, bare names). Parts are comma-separated; inside a part,
 * "<district> район", "массив", "махалля" and "жилой комплекс" start new segments
 * ("Uchtepa район массив Чиланзар 11-й квартал", "Чиланзар 13-й квартал махалля Кухна-Чупонота").
 * District and mahalla names are the vocabulary's to recognise; this module only finds where they are.
 */
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

export function readAddress(address: string): AddressReading {
  const reading: AddressReading = { tashkent: false, districts: [], elsewhere: null, mahallas: [], places: [] };
  let leadingTownName: string | null = null;
  const readSegments = (text: string) => {
    for (const segment of text.split(SEGMENT_START)) {
      const mahalla = mahallaNameIn(segment);
      if (mahalla !== null) {
        reading.mahallas.push(mahalla);
        continue;
      }
      const mention = readPlace(segment);
      if (mention !== null) reading.places.push({ text: segment.trim(), mention });
    }
  };
  for (const written of address.split(/[,;]/)) {
    // Before district names are looked for: "Сергели-III" is a quarter, not a spelling of Sergeli.
    const part = arabicQuarterNumbers(written);
    if (part.trim() === '') continue;
    const read = readPart(part);
    if (read.what === 'city') reading.tashkent = true;
    else if (read.what === 'elsewhere') reading.elsewhere ??= part.trim();
    else if (read.what === 'district') {
      if (!reading.districts.includes(read.district)) reading.districts.push(read.district);
      if (read.rest !== '') readSegments(read.rest);
    } else {
      if (read.what === 'named elsewhere' && reading.places.length === 0) leadingTownName ??= part.trim();
      readSegments(part);
    }
  }
  // A bare town name leading an address with no Tashkent city or district in it ("Самарканд, улица …") is that town;
  // inside a Tashkent address it is a street named after it ("Нукус", "Паркент").
  if (reading.elsewhere === null && !reading.tashkent && reading.districts.length === 0) reading.elsewhere = leadingTownName;
  return reading;
}
