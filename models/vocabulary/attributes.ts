/** Listing attributes (renovation, building type, bathroom, yes/no flags) → canonical codes. */
import {
  AMENITY_LABELS, BATHROOM_LABELS, BUILDING_TYPE_LABELS, NEGATING_WORDS, NO_WORDS, RENOVATION_LABELS, YES_WORDS,
} from './attribute-labels';
import type { Bathroom, BuildingType, Renovation } from './codes';
import { labelMatcher } from './label-matcher';
import { normaliseText, spellingKey } from './translit';

export const matchRenovation: (text: string) => Renovation | null = labelMatcher(RENOVATION_LABELS);
export const matchBuildingType: (text: string) => BuildingType | null = labelMatcher(BUILDING_TYPE_LABELS);
export const matchBathroom: (text: string) => Bathroom | null = labelMatcher(BATHROOM_LABELS);

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
