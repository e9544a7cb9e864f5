/**
 * Collected homes as a dated training source: one canonical record per flat or house (a linked
 * cross-site duplicate is left out, its kept twin is in), priced at its last asking price (for a
 * removed listing, the price before it left: the closest public signal to a sale price) and dated
 * by the month it was last seen. `npm run train` reads the export as sources of their own
 * (../collected-homes.ts).
 */
import type { ListingRecord } from '../record';
import type { ListingLife } from './listing-life';

export function trainingRecordsOf(lives: Iterable<ListingLife>, asOf: string): ListingRecord[] {
  const records: ListingRecord[] = [];
  for (const life of lives) {
    if (!life.home || life.duplicateOf !== null || life.firstSeen > asOf) continue;
    const last = life.prices[life.prices.length - 1];
    records.push({ ...life.home, sourceRow: records.length + 1, period: life.lastSeen.slice(0, 7), priceUsd: last.priceUsd });
  }
  return records;
}
