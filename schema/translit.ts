/**
 * Text normalisation shared by every matcher: one transliteration scheme for Russian,
 * Uzbek Cyrillic and Uzbek Latin, plus a coarser spelling key under which the usual
 * Russian/Uzbek/English spellings of one name coincide. Pure; in schema/ because the field tables
 * read yes/no answers with it (./yes-no.ts), and models/vocabulary builds its matchers on it.
 */
import { APOSTROPHES, CYRILLIC_TO_LATIN } from './alphabet';

/** CYRILLIC_TO_LATIN indexed by UTF-16 code: the per-character lookup is the hot path. */
const latinByCode: string[] = [];
for (const [cyrillic, latin] of Object.entries(CYRILLIC_TO_LATIN)) latinByCode[cyrillic.charCodeAt(0)] = latin;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const COMBINING_MARK = /^\p{M}$/u;

/**
 * NFKC, lowercase, Cyrillic → Latin, apostrophes dropped, "kh" → "x" (English renders х as kh),
 * punctuation and whitespace collapsed to single spaces.
 * "G'ishtli", "Gishtli", "Gʻishtli" and "Гиштли" all give "gishtli".
 */
export function normaliseText(s: string): string {
  // Apostrophes go before NFKC, which would turn ´ into a space plus a combining accent.
  const text = s.replace(APOSTROPHES, '').normalize('NFKC').toLowerCase().replace(/дж/g, 'ж');
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) out += text[i]; // a-z, 0-9
    else if (code < 128) out += ' ';
    else if (latinByCode[code] !== undefined) out += latinByCode[code];
    else if (LETTER_OR_DIGIT.test(text[i])) out += text[i];
    else if (!COMBINING_MARK.test(text[i])) out += ' '; // stress marks vanish, other symbols separate
  }
  return out.replace(/'/g, '').replace(/kh/g, 'x').replace(/ {2,}/g, ' ').trim();
}

/** Latin display form of a Cyrillic name, capitalised word by word: "Катта Чиланзар-3" → "Katta Chilanzar-3". */
export function toLatinName(s: string): string {
  const lower = s.normalize('NFKC').toLowerCase().replace(/дж/g, 'ж');
  let latin = '';
  for (const ch of lower) latin += CYRILLIC_TO_LATIN[ch] ?? ch;
  return latin.replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, first: string) => sep + first.toUpperCase());
}

/** Letters that Russian-, Uzbek- and English-made spellings use interchangeably. */
const SPELLING_FOLDS: Readonly<Record<string, string>> = {
  x: 'h', // Shayxontohur / Shayhontohur / Шайхантахур
  q: 'k', // Qatortol / Катартал
  w: 'v',
  a: 'o', // Russian writes a where Uzbek has o: Чиланзар / Chilonzor, Яшнабад / Yashnobod
  y: 'i', // Yakkasarai / Yakkasaray, Сергелий / Sergeli
  u: 'o', // Russian writes у for Uzbek oʻ: Кухна / Koʻhna, Мингурик / Mingoʻrik
};

/**
 * Matching key of already normalised text: spaces removed, the letter folds above, word-initial
 * "ye" → "e" (Yevro / Evro), дж/zh → j, gh → g, and doubled letters collapsed (digits are
 * kept as they are: Atchapar-1 and Atchapar-11 are different places).
 * Only for comparing; never shown.
 */
export function spellingKey(normalised: string): string {
  const s = normalised.replace(/(^| )ye/g, '$1e').replace(/dzh|dj|zh/g, 'j').replace(/gh/g, 'g');
  let out = '';
  let last = '';
  for (const ch of s) {
    if (ch === ' ') continue;
    const folded = SPELLING_FOLDS[ch] ?? ch;
    if (folded !== last || (folded >= '0' && folded <= '9')) out += folded;
    last = folded;
  }
  return out;
}
