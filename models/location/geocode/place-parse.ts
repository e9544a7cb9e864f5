/**
 * One place mention read out of an address segment: is it a street, a side street, a massif
 * quarter, or a bare name, and what are its key and number.
 * "Юнусабад 8-й квартал", "Yunusobod 8 kvartal", "Юнусабад-8" and "квартал 8 Юнусабад" give one mention.
 */
import { normaliseText } from '../../vocabulary';
import { massifKey, nameKey } from './place-key';
import {
  COMPLEX_WORDS, HOUSE_WORDS, MARKER_PHRASES, MASSIF_WORDS, ORDINAL_SUFFIXES, QUARTER_WORDS, ROMAN_NUMERALS,
  SIDE_STREET_WORDS, STREET_WORDS, TRAILING_NOTE_WORDS, type SideStreet,
} from './place-words';

/** What the words around the name say it is; 'named' when nothing does ("Кушбеги", "Госпитальный"). */
export type MentionKind = 'street' | 'quarter' | 'named';

export interface PlaceMention {
  kind: MentionKind;
  /** Matching key of the name; '' for a quarter number without its massif ("13-kvartal"). */
  key: string;
  /** The name's normalised words, to match a name followed by extras ("Кунаева Габус Новастрой") by its start. */
  words: string[];
  /** A numbered side street of the street `key`. */
  side?: SideStreet;
  /** Quarter designation ("8", "20a", "ts") or side-street number; '' when none. */
  number: string;
  /** Keys of other names given in parentheses: "Фидокор (Чехова)", "Буз-1 (Буз базар)". */
  alternates: string[];
}

/** Quarter numbers above this are house numbers or prices, not quarters. */
const MAX_QUARTER_NUMBER = 60;
const PARENTHESES = /\(([^)]*)\)?/g;
// "Ц-7", "Водник-2": a name then its number, nothing else (unlike "60 школа", a landmark).
const NAME_THEN_NUMBER = /^\s*\p{L}[\p{L}\s.-]*?[-\s]?\d+\s*$/u;
// "2/2/4": rooms / floor / floors, listed in place of an address.
const FLAT_SHAPE = /\d+\s*\/\s*\d+\s*\/\s*\d+/g;
// "Сергели-IV", "Сергели-Vа": a Roman numeral after a hyphen or space, optionally with a letter.
const ROMAN_QUARTER = /(?<=[-\s])(VIII|VII|VI|IV|IX|III|II|I|V|X)(?=[аa]?(?:$|[^\p{L}]))/gu;
// "Чиланзар-Ц": a massif and a lettered quarter joined by a hyphen.
const LETTERED_QUARTER = /(?<=\p{L}{3})-(\p{Lu}{1,2})(?!\p{L})/gu;
// Tokens that glue a number to a word: "7кв", "Чиланзар17", "17квартал", "Ц7".
const NUMBER_THEN_WORD = /^(\d+)([a-z]{3,})$/;
const WORD_THEN_NUMBER = /^([a-z]{3,}|ts)(\d+[a-z]?)$/;
const NUMBER_WITH_SUFFIX = /^(\d+)(y|chi|inchi|kv)$/;
const DESIGNATION_NUMBER = /^(?:\d+[a-z]{0,2}|[a-z]\d+[a-z]?)$/;
const LETTER_DESIGNATION = /^[a-z]{1,2}$/;

const isMarker = (t: string): boolean =>
  QUARTER_WORDS.has(t) || MASSIF_WORDS.has(t) || STREET_WORDS.has(t) || COMPLEX_WORDS.has(t) || SIDE_STREET_WORDS.has(t);
const isNumber = (t: string): boolean => DESIGNATION_NUMBER.test(t) && /\d/.test(t);
const quarterNumber = (t: string): boolean => isNumber(t) && parseInt(t.replace(/^\D/, ''), 10) <= MAX_QUARTER_NUMBER;

/** Roman quarter numbers as Arabic ones ("Сергели-IV" → "Сергели-4"), before the text is normalised. */
export function arabicQuarterNumbers(text: string): string {
  return text.replace(ROMAN_QUARTER, (roman) => String(ROMAN_NUMERALS[roman]));
}

function tokensOf(text: string): string[] {
  let normalised = ` ${normaliseText(text.replace(FLAT_SHAPE, ' ').replace(LETTERED_QUARTER, ' квартал $1'))} `;
  for (const [phrase, word] of MARKER_PHRASES) normalised = normalised.replaceAll(` ${phrase} `, ` ${word} `);
  const tokens: string[] = [];
  for (const token of normalised.trim().split(' ')) {
    const glued = NUMBER_WITH_SUFFIX.exec(token) ?? NUMBER_THEN_WORD.exec(token) ?? WORD_THEN_NUMBER.exec(token);
    if (glued !== null) tokens.push(glued[1], glued[2]);
    else if (token !== '') tokens.push(token);
  }
  const noteAt = tokens.findIndex((t) => TRAILING_NOTE_WORDS.has(t));
  return noteAt > 0 ? tokens.slice(0, noteAt) : tokens;
}

/** Drops the ordinal ending after each number ("8 y" → "8") and house numbers ("23 dom", "dom 23"). */
function withoutOrdinalsAndHouses(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (ORDINAL_SUFFIXES.has(t) && i > 0 && isNumber(tokens[i - 1])) continue;
    if (HOUSE_WORDS.has(t)) {
      if (out.length > 0 && isNumber(out[out.length - 1])) out.pop();
      else if (i + 1 < tokens.length && isNumber(tokens[i + 1])) i++;
      continue;
    }
    out.push(t);
  }
  return out;
}

const nameWords = (tokens: readonly string[]): string[] => tokens.filter((t) => !isMarker(t) && !isNumber(t));

function sideStreet(tokens: string[], at: number): PlaceMention {
  const before = tokens[at - 1];
  const number = before !== undefined && isNumber(before) ? before : (tokens.find(isNumber) ?? '');
  const words = nameWords(tokens);
  return { kind: 'street', key: nameKey(words), words, side: SIDE_STREET_WORDS.get(tokens[at]), number, alternates: [] };
}

/** The designation's index: before a quarter word, after one, or the first number (right after the massif's name). */
function designationAt(tokens: readonly string[]): number {
  const quarterWord = tokens.findIndex((t) => QUARTER_WORDS.has(t));
  if (quarterWord >= 0) {
    const before = tokens[quarterWord - 1];
    if (before !== undefined && (quarterNumber(before) || (LETTER_DESIGNATION.test(before) && !isMarker(before)))) return quarterWord - 1;
    const after = tokens[quarterWord + 1];
    if (after !== undefined && (quarterNumber(after) || LETTER_DESIGNATION.test(after))) return quarterWord + 1;
  }
  return tokens.findIndex(quarterNumber);
}

function quarter(tokens: string[]): PlaceMention {
  const at = designationAt(tokens);
  const number = at >= 0 ? tokens[at] : '';
  // The massif's name runs up to the designation ("Чиланзар 13"), or follows it ("13 квартал Чилонзор").
  let words: string[] = [];
  if (at >= 0) {
    for (let i = at - 1; i >= 0 && !isNumber(tokens[i]); i--) if (!isMarker(tokens[i])) words.unshift(tokens[i]);
    if (words.length === 0) words = nameWords(tokens.slice(at + 1));
  } else {
    words = nameWords(tokens);
  }
  return { kind: 'quarter', key: massifKey(words), words, number, alternates: [] };
}

function mentionOf(text: string): PlaceMention | null {
  const tokens = withoutOrdinalsAndHouses(tokensOf(text));
  if (tokens.length === 0) return null;
  const sideAt = tokens.findIndex((t) => SIDE_STREET_WORDS.has(t));
  if (sideAt >= 0) return sideStreet(tokens, sideAt);
  if (tokens.some((t) => STREET_WORDS.has(t) || COMPLEX_WORDS.has(t))) {
    const words = nameWords(tokens);
    return words.length === 0 ? null : { kind: 'street', key: nameKey(words), words, number: '', alternates: [] };
  }
  if (tokens.some((t) => QUARTER_WORDS.has(t) || MASSIF_WORDS.has(t) || quarterNumber(t))) {
    const mention = quarter(tokens);
    return mention.key === '' && mention.number === '' ? null : mention;
  }
  const words = nameWords(tokens);
  return words.length === 0 ? null : { kind: 'named', key: massifKey(words), words, number: '', alternates: [] };
}

/**
 * The place one address segment names, or null when it names none. A name in parentheses is
 * another name of the same place ("Фидокор (Чехова)"), unless it is the numbered quarter a bare
 * name stands in ("ЦУМ (Ц-7)"): then the quarter is the place.
 */
export function readPlace(segment: string): PlaceMention | null {
  const inParentheses: PlaceMention[] = [];
  let quarterInside: PlaceMention | undefined;
  const outside = segment.replace(PARENTHESES, (_, inner: string) => {
    const mention = mentionOf(inner);
    if (mention === null) return ' ';
    if (mention.kind === 'quarter' && mention.key !== '' && NAME_THEN_NUMBER.test(inner)) quarterInside ??= mention;
    else inParentheses.push(mention);
    return ' ';
  });
  let main = mentionOf(outside);
  if (quarterInside !== undefined && (main === null || (main.kind === 'named' && main.number === ''))) {
    if (main !== null) inParentheses.push(main);
    main = quarterInside;
  }
  if (main === null) return null;
  const key = main.key;
  const alternates = inParentheses.filter((m) => m.number === '' && m.key !== '' && m.key !== key).map((m) => m.key);
  return { ...main, alternates: [...new Set(alternates)] };
}
