/**
 * Addresses for the batch benches (./run.ts, ./worker-cpu.ts) and the golden output (./golden.ts):
 * the gazetteer's quarters and streets under a district's name plus a house number, as a
 * portfolio would write them, and the distinct addresses the listing files write.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { GazetteerFile } from '../../models/location/geocode';

/** Quarters and streets with at least `minListings` listings, under the district's Uzbek name: "Chilonzor tumani, Qatortol". */
export function gazetteerBases(gazetteer: GazetteerFile, minListings = 2): string[] {
  const district = new Map(gazetteer.districts.map((d) => [d.id, d.names.find((n) => n.endsWith('tumani')) ?? d.names[0]]));
  return gazetteer.places.filter((p) => p.listings >= minListings).map((p) => `${district.get(p.district)}, ${p.name}`);
}

/** The bases the geocoder places (what ./run.ts submits: every item geocoded, none failing). */
export function placeableBases(gazetteer: GazetteerFile, geocode: (address: string) => unknown): string[] {
  return gazetteerBases(gazetteer).filter((address) => {
    try {
      geocode(address);
      return true;
    } catch {
      return false; // not placeable on its own: left out
    }
  });
}

/** Item i of a bench job: base i mod n with house number 1–97 ("Chilonzor tumani, Qatortol, 12-uy"). */
export const benchAddress = (bases: readonly string[], i: number): string => `${bases[i % bases.length]}, ${1 + (i % 97)}-uy`;

/** The address columns of the listing files (data/listings), as written. */
const LISTING_ADDRESS_COLUMNS: readonly (readonly [file: string, columns: readonly string[]])[] = [
  ['olx_apartments_2021.csv', ['location']],
  ['olx_apartments_2021_geocoded.csv', ['address']],
  ['uybor_apartments_2025.csv', ['Address']],
  ['uybor_apartments_2025_b.csv', ['addresses']],
  ['uybor_apartments_2025_en.csv', ['street']],
  ['uybor_houses_2025.csv', ['Address']],
];

/** Every distinct non-empty address the listing files write, in file order. */
export function listingAddresses(dataDir: string): string[] {
  const seen = new Set<string>();
  for (const [file, columns] of LISTING_ADDRESS_COLUMNS) {
    const rows = parse(readFileSync(join(dataDir, 'listings', file)), { columns: true, bom: true, skip_empty_lines: true }) as Record<string, string>[];
    for (const row of rows) for (const column of columns) if (row[column]?.trim()) seen.add(row[column]);
  }
  return [...seen];
}
