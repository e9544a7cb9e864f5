/**
 * Amenity blocks → Record<key, boolean>. A block with nothing ticked is "not filled in" (null),
 * not "has none of these": the same listings scraped twice show an empty block in one scrape and
 * ticked amenities in the other.
 */
import type { RawRow } from './csv';

export type Amenities = Record<string, boolean>;

function nullWhenNothingTicked(amenities: Amenities): Amenities | null {
  return Object.values(amenities).some(Boolean) ? amenities : null;
}

/** uybor: one 0/1 column per amenity. */
export function amenitiesFromFlags(row: RawRow, columns: Readonly<Record<string, string>>): Amenities | null {
  const amenities: Amenities = {};
  for (const [column, key] of Object.entries(columns)) amenities[key] = row[column]?.trim() === '1';
  return nullWhenNothingTicked(amenities);
}

/** uybor_2025_b: one column per amenity holding its name when present. */
export function amenitiesFromWords(
  row: RawRow,
  columns: Readonly<Record<string, { word: string; key: string }>>,
): Amenities | null {
  const amenities: Amenities = {};
  for (const [column, { word, key }] of Object.entries(columns)) amenities[key] = row[column]?.trim() === word;
  return nullWhenNothingTicked(amenities);
}

/**
 * olx: a comma-separated list of ticked labels, where some labels contain a comma themselves
 * ("Больница, поликлиника"), so the list is read label by label rather than split on commas.
 */
export function amenitiesFromLabelList(text: string, labels: Readonly<Record<string, string>>): Amenities | null {
  const items = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  const ticked = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const pair = i + 1 < items.length ? `${items[i]}, ${items[i + 1]}` : null;
    if (pair !== null && pair in labels) {
      ticked.add(labels[pair]);
      i++;
    } else if (items[i] in labels) {
      ticked.add(labels[items[i]]);
    }
  }
  const amenities: Amenities = {};
  for (const key of Object.values(labels)) amenities[key] = ticked.has(key);
  return nullWhenNothingTicked(amenities);
}

/** Several blocks of one listing; null only when none of them was filled in. */
export function mergeAmenityBlocks(...blocks: (Amenities | null)[]): Amenities | null {
  const filled = blocks.filter((block): block is Amenities => block !== null);
  return filled.length === 0 ? null : Object.assign({}, ...filled);
}
