/**
 * Matching keys of place names: one key for the Russian, Uzbek and English spellings and the
 * grammatical forms of one name ("Бабура" / "Бобур", "Нукусская" / "Нукус", "Чиланзара" / Chilonzor).
 * Builds on the vocabulary's spelling key; only for comparing, never shown.
 */
import { normaliseText, spellingKey } from '../../vocabulary';
import { MASSIF_ALIASES } from './place-words';

// Russian adjectival forms of a name: Нукусская / Паркентский проезд / Сарыкульский тупик.
const ADJECTIVE_ENDING = /(?<=[a-z]{3})(?:skiy|skii|skaya|skoy|skoe|skogo|skie|sky|ski)$/;
// Uzbek -iy where Russian writes -и: Мукимий / Мукими, Ражабий / Раджаби.
const UZBEK_IY = /(?<=[a-z]{3})i[yi]$/;
// One final vowel of a longer word: the Russian genitive (Бабура, Тараса Шевченко, Абдуллы Каххара) and locative (Чиланзаре).
const FINAL_VOWEL = /(?<=[a-z]{4})[aeiouy]$/;

function foldWord(word: string): string {
  return word.replace(ADJECTIVE_ENDING, '').replace(UZBEK_IY, 'i').replace(FINAL_VOWEL, '');
}

/** Key of a name given as normalised words. */
export function nameKey(words: readonly string[]): string {
  return spellingKey(words.map(foldWord).join(' '));
}

/** Key of each massif alias → the key of its first name. */
const massifKeyOf = new Map<string, string>();
for (const [name, ...aliases] of MASSIF_ALIASES) {
  const key = nameKey(normaliseText(name).split(' '));
  for (const alias of aliases) massifKeyOf.set(nameKey(normaliseText(alias).split(' ')), key);
}

/** A massif's key, its aliases (ТТЗ → Городок Тракторостроителей) resolved. */
export function massifKey(words: readonly string[]): string {
  const key = nameKey(words);
  return massifKeyOf.get(key) ?? key;
}
