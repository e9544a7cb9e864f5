/**
 * How a yes/no answer may be written (a request's yes/no fields, a listing's amenity columns):
 * Uzbek, Russian and English words, read under the spelling key every name matcher uses. Pure
 * data and one pure function, read by the field tables (./field-table.ts) and the listing readers.
 */
import { normaliseText, spellingKey } from './translit';

export const YES_WORDS: readonly string[] = ['ha', 'да', 'yes', 'true', '1', 'bor', 'есть'];
export const NO_WORDS: readonly string[] = ["yo'q", 'нет', 'no', 'false', '0'];

/** uybor amenity columns write the amenity's name for yes ("Мебель") and "No <amenity>" for no. */
export const AMENITY_LABELS: readonly string[] = [
  'Лифт', 'Охрана', 'Интернет', 'Детская площадка', 'Канализация', 'Санузел раздельный',
  'Видеонаблюдение', 'Парковочное место', 'Кондиционер', 'Мебель',
];
export const NEGATING_WORDS: readonly string[] = ['no', 'без'];

const keyOf = (s: string): string => spellingKey(normaliseText(s));
const yes = new Set([...YES_WORDS, ...AMENITY_LABELS].map(keyOf));
const no = new Set(NO_WORDS.map(keyOf));
const negation = new RegExp(`^(?:${NEGATING_WORDS.map(normaliseText).join('|')}) `);

/**
 * ha / yo'q / да / нет / yes / no / true / false / 1 / 0, real booleans, and uybor's amenity
 * labels ("Мебель" → true, "No furniture" → false). No typo guessing: a misread flag is worse
 * than a missing one. Anything else → null.
 */
export function parseYesNo(value: string | boolean): boolean | null {
  if (typeof value === 'boolean') return value;
  const text = normaliseText(value);
  const key = spellingKey(text);
  if (yes.has(key)) return true;
  if (no.has(key) || negation.test(text)) return false;
  return null;
}
