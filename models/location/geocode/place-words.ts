/**
 * The words addresses use around place names, in the form models/vocabulary normaliseText gives
 * them (lowercase Latin: "квартал" → "kvartal", "ko'chasi" → "kochasi", "пр-т" → "pr t").
 * Pure data; ./address-read.ts and ./place-parse.ts read addresses with them.
 */

/** Tashkent city's name, and the words written around a city's name ("город Ташкент", "Toshkent sh.", "Tashkent city"). */
export const CITY_NAMES: readonly string[] = ['tashkent', 'toshkent'];
export const CITY_WORDS: ReadonlySet<string> = new Set(['gorod', 'g', 'shahri', 'shahar', 'sh', 'city', 'sity']);
/** Region words: "Ташкентская область" is the region around the city, not the city; "Samarqand viloyati". */
export const REGION_WORDS: ReadonlySet<string> = new Set(['oblast', 'oblasti', 'viloyati', 'viloyat', 'region', 'respublika', 'respublikasi']);

/** Multi-word markers, rewritten to one word before tokens are read. */
export const MARKER_PHRASES: readonly (readonly [phrase: string, word: string])[] = [
  ['jiloy kompleks', 'jk'], // жилой комплекс
  ['turar joy majmuasi', 'jk'],
  ['residential complex', 'jk'],
  ['jiloy massiv', 'massiv'],
  ['m v', 'massiv'], // м-в
  ['shoh kochasi', 'kochasi'], // Amir Temur shoh ko'chasi
  ['berk kochasi', 'tupik'], // berk ko'cha: a dead end
  ['berk kocha', 'tupik'],
  ['tor kochasi', 'proezd'], // tor ko'cha: a side passage
  ['tor kocha', 'proezd'],
  ['dead end', 'tupik'],
  ['pr t', 'prospekt'], // пр-т
  ['pr kt', 'prospekt'],
];

/** Words saying the name is a massif or one of its numbered quarters. */
export const QUARTER_WORDS: ReadonlySet<string> = new Set([
  'kvartal', 'kvartala', 'kvartali', 'kv', 'kvl', 'mavze', 'mavzesi', 'mavzei', 'mkr', 'mikrorayon', 'mikrorayoni', 'quarter',
  'daha', 'dahasi',
]);
export const MASSIF_WORDS: ReadonlySet<string> = new Set(['massiv', 'massivi', 'massiva', 'massive', 'jilmassiv', 'mv']);

/** Words saying the name is a street (or a square, embankment, avenue: a line or point in the city). */
export const STREET_WORDS: ReadonlySet<string> = new Set([
  'ulitsa', 'ulitsi', 'ul', 'kochasi', 'kocha', 'kuchasi', 'kucha', 'street', 'st', 'prospekt', 'prospekti', 'avenue',
  'shosse', 'naberejnaya', 'ploshad', 'maydoni', 'bulvar', 'bulvari',
]);

/** Residential complexes: a group of buildings, as precise as a street. */
export const COMPLEX_WORDS: ReadonlySet<string> = new Set(['jk', 'tjm']); // ЖК, turar-joy majmuasi

/** Numbered side streets ("1-й тупик Шота Руставели", "3-й проезд Навбахор"): each kind names different streets. */
export type SideStreet = 'tupik' | 'proezd' | 'pereulok';
export const SIDE_STREET_WORDS: ReadonlyMap<string, SideStreet> = new Map([
  ['tupik', 'tupik'], ['proezd', 'proezd'], ['proyezd', 'proezd'], ['proyezdi', 'proezd'], ['passage', 'proezd'],
  ['pereulok', 'pereulok'], ['per', 'pereulok'],
] as const);

/** Endings written after a number: "8-й", "8-chi", "8th". */
export const ORDINAL_SUFFIXES: ReadonlySet<string> = new Set(['y', 'ya', 'ye', 'oy', 'iy', 'go', 'chi', 'inchi', 'nchi', 'st', 'nd', 'rd', 'th']);

/** A number after these words (or before "дом") is a house, not a quarter. */
export const HOUSE_WORDS: ReadonlySet<string> = new Set(['dom', 'd', 'uy', 'house']);

/** Words after which the listing describes a landmark or the flat, not the place: the rest of the segment is dropped. */
export const TRAILING_NOTE_WORDS: ReadonlySet<string> = new Set(['orientir', 'or', 'ryadom', 'okolo', 'vozle', 'naprotiv', 'prodam', 'prodaetsya']);

/**
 * Other names of one massif, written as they occur; the first is the one keys are built from.
 * Spelling differences the vocabulary folds (Чиланзар / Chilonzor, Юнусабад / Yunusobod) need no entry.
 */
export const MASSIF_ALIASES: readonly (readonly string[])[] = [
  ['Городок Тракторостроителей', 'ТТЗ', 'Traktorsozlar'],
  ['Чиланзар', 'Chil'], // "Chil 20"
  ['Карасу', 'Qorasuv', 'Корасув', 'Karasuv'],
  ['Куйлюк', "Qo'yliq", 'Куйлик'],
  ['Ц', 'C', 'Центр', 'Markaz'], // Ц-1 … Ц-7, the city-centre quarters
];

/** Uppercase Roman numerals in quarter numbers ("Сергели-IV", "Сергели-Vа"). */
export const ROMAN_NUMERALS: Readonly<Record<string, number>> = {
  I: 1, II: 2, III: 3, IV: 4, V: 5, VI: 6, VII: 7, VIII: 8, IX: 9, X: 10,
};
