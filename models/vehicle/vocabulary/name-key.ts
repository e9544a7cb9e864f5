/**
 * Matching keys for make and model names. Car names are foreign words: Russian writes them as
 * they sound (Кобальт, Ласетти, Нексия, Эквинокс), so before the shared transliteration the Latin
 * spelling is read the same way (c → k or s, x → ks, qu → kv, w → v, ph → f). Roman numerals after a
 * name become digits (Nexia II = Nexia 2). Only for comparing; never shown.
 */
import { normaliseText, spellingKey } from '../../vocabulary';

/** Latin letter groups → how a Russian speaker writes them; Cyrillic is left to normaliseText. */
const LATIN_SOUNDS: readonly [RegExp, string][] = [
  [/ph/g, 'f'],
  [/ck/g, 'k'],
  [/qu/g, 'kv'],
  [/c(?=[eiy])/g, 's'],
  [/c(?!h)/g, 'k'], // ch stays: Chevrolet / Шевроле needs an alias either way, Chery / Чери does not
  [/x/g, 'ks'],
  [/w/g, 'v'],
  [/th/g, 't'],
];
const ROMAN = new Map([['ii', '2'], ['iii', '3'], ['iv', '4']]);

/** Normalised words of a name (Latin, lowercase, single spaces), read as sounds. */
export function nameWords(text: string): string[] {
  let latin = text.normalize('NFKC').toLowerCase();
  for (const [pattern, sound] of LATIN_SOUNDS) latin = latin.replace(pattern, sound);
  const words = normaliseText(latin).split(' ').filter((w) => w !== '');
  return words.map((word, i) => (i > 0 ? ROMAN.get(word) ?? word : word));
}

/** The key a name is looked up by: nameKey('Nexia II') === nameKey('Нексия 2') === nameKey('nexia2'). */
export function nameKey(text: string): string {
  return wordsKey(nameWords(text));
}

export function wordsKey(words: readonly string[]): string {
  return spellingKey(words.join(' '));
}
