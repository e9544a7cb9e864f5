/**
 * Collected listings as dated training sources, one record per listing, each priced at its last
 * asking price (for a removed listing, the price before it left: the closest public signal to a
 * sale price) and dated by the month it was last seen.
 * - Homes (`trainingRecordsOf`): one canonical record per flat or house (a linked cross-site
 *   duplicate is left out, its kept twin is in). `npm run train` reads the export as sources of their
 *   own (../collected-homes.ts).
 * - Cars (`carTrainingRecordsOf`): one canonical vehicle record per avtoelon listing, the same rule;
 *   the vehicle trainer reads the export as the source `avtoelon_collected`
 *   (../../vehicle/ingest/collected-cars.ts).
 */
import type { VehicleRecord } from '../../vehicle/ingest/record';
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

/**
 * The collected cars as of `asOf`: each avtoelon listing once (the store keeps one life per site id),
 * its price the last asking price of its life (a removed listing's prices stop at its removal, so
 * that is its last asking price before it left; a live one's is its current price), in USD as the
 * site showed it, and its period the month it was last seen (`lastSeen`, never the card's posting
 * day, which avtoelon shows without a year), as for homes. A listing first seen after `asOf` is not
 * in it.
 */
export function carTrainingRecordsOf(lives: Iterable<ListingLife>, asOf: string): VehicleRecord[] {
  const records: VehicleRecord[] = [];
  for (const life of lives) {
    if (!life.vehicle || life.duplicateOf !== null || life.firstSeen > asOf) continue;
    const last = life.prices[life.prices.length - 1];
    records.push({ ...life.vehicle, source: 'avtoelon_collected', sourceRow: records.length + 1, period: life.lastSeen.slice(0, 7), priceUsd: last.priceUsd });
  }
  return records;
}
