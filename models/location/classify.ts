/** Applying the tables of ./categories.ts to one feature. */
import { LANDMARK_CATEGORIES, OSM_TAG_RULES, type Category, type TagRule } from './categories';

export type Tags = Readonly<Record<string, unknown>>;

function matches(rule: TagRule, tags: Tags): boolean {
  return Object.entries(rule.when).every(([key, values]) => {
    const value = tags[key];
    return typeof value === 'string' && (values.includes('*') || values.includes(value));
  });
}

/** The first rule that matches, among the `keep` categories when given; null: not scored. */
export function categoryOfTags(tags: Tags, keep?: readonly Category[]): Category | null {
  for (const rule of OSM_TAG_RULES) {
    if (keep !== undefined && !keep.includes(rule.category)) continue;
    if (matches(rule, tags)) return rule.category;
  }
  return null;
}

/** A category column's value through its table (./categories.ts); null: deliberately unscored, a value the table does not know, or not kept. */
export function categoryOfValue(table: Readonly<Record<string, Category | null>>, value: string, keep?: readonly Category[]): Category | null {
  const key = value.trim();
  const category = Object.hasOwn(table, key) ? table[key] : null;
  return category !== null && (keep === undefined || keep.includes(category)) ? category : null;
}

/** The landmarks' Category column; null: deliberately unscored, or a value the table does not know. */
export const categoryOfLandmark = (value: string, keep?: readonly Category[]): Category | null => categoryOfValue(LANDMARK_CATEGORIES, value, keep);
