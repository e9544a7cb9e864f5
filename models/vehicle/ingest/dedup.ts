/**
 * Repeats within a file. Where the file keeps the site's listing id (2020), a row repeating an
 * earlier id is the same listing scraped twice and goes first, unread.
 *
 * Then exact repeats: dealers post one price list hundreds of times (the 2023 file's
 * 2023 Cobalt, trim 4, automatic, Tashkent, $11,090 stands there 428 times). Two rows of one file
 * that agree on every listing field and on the town are one listing; the first is kept. Names are
 * compared as read ("GentraGaz-benzin" with gas-petrol is "Gentra" with gas-petrol).
 *
 * The 2023 file records no mileage, body or colour, so two different cars of one model, year, trim
 * and price in one town collapse as well: the price of less over-counting of dealer lists.
 * Across the files nothing is merged: the scrapes are 14 months apart and share only the 2023 file's
 * fields. 113 of the 3,381 Chevrolet records of 2022 equal a 2023 record on all of them (model,
 * year, fuel, gearbox, engine, region, price), all at prices rounded to $100 and 84 in Tashkent, the
 * biggest market: as likely two cars as one relisted, so both are kept.
 */
import type { RawRow } from '../../ingest/csv';
import { groupBy } from '../../ingest/outliers';
import { isBlank } from '../../ingest/parse';
import type { VehicleCandidate, VehicleSplit } from './candidate';
import { LISTING_FIELDS, type VehicleRecord } from './record';

/** Per row: does it repeat the id of an earlier row? Blank ids repeat nothing. */
export function repeatsEarlierId(rows: readonly RawRow[], idColumn: string): boolean[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    const id = row[idColumn];
    if (isBlank(id)) return false;
    if (seen.has(id)) return true;
    seen.add(id);
    return false;
  });
}

export function listingKey(record: VehicleRecord, locality: string): string {
  return JSON.stringify([...LISTING_FIELDS.map((field) => record[field]), locality]);
}

export function dropRepeats(candidates: readonly VehicleCandidate[]): VehicleSplit {
  const split: VehicleSplit = { kept: [], dropped: [] };
  for (const [first, ...repeats] of groupBy(candidates, (c) => listingKey(c.record, c.locality)).values()) {
    split.kept.push(first);
    split.dropped.push(...repeats);
  }
  return split;
}
