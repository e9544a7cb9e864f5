/**
 * Mahallas no geocoded listing names, placed by the streets named with them. The uybor files
 * (no coordinates) write "…, махаллинский сход граждан Ракат, улица Шота Руставели": once the
 * gazetteer places Шота Руставели, that address is a vote for Ракат lying near it.
 */
// The ingestion modules themselves, not its index: ingestion geocodes listings with this geocoder.
import { loadCsv } from '../../ingest/csv';
import { matchMahalla } from '../../vocabulary';
import { readAddress } from './address-read';
import type { LatLon } from './geo';
import { createGazetteerIndex } from './gazetteer-index';
import type { GazetteerFile } from './types';

/** uybor files whose address column names the mahalla and often a street (relative to data/). */
const CO_NAMED_SOURCES: readonly { file: string; column: string }[] = [
  { file: 'listings/uybor_apartments_2025.csv', column: 'Address' },
  { file: 'listings/uybor_apartments_2025_b.csv', column: 'addresses' },
  { file: 'listings/uybor_houses_2025.csv', column: 'Address' },
];

export interface CoNamedAddresses {
  sources: { file: string; sha256: string }[];
  /** Distinct addresses: the files repeat listings, and a repeat is no new vote. */
  addresses: string[];
}

export function loadCoNamedAddresses(): CoNamedAddresses {
  const sources: CoNamedAddresses['sources'] = [];
  const addresses = new Set<string>();
  for (const { file, column } of CO_NAMED_SOURCES) {
    const { path, sha256, rows } = loadCsv(file);
    sources.push({ file: `data/${path}`, sha256 });
    for (const row of rows) if (row[column]) addresses.add(row[column]);
  }
  return { sources, addresses: [...addresses].sort() };
}

/**
 * Per mahalla, the centres of the places named with it: streets and numbered quarters of the same
 * district, matched exactly or by another name (nothing looser: a vote must be sure of its place).
 */
export function coNamedPoints(addresses: readonly string[], places: GazetteerFile['places']): Map<string, LatLon[]> {
  const index = createGazetteerIndex({ districts: [], places, mahallas: [] });
  const points = new Map<string, LatLon[]>();
  for (const address of addresses) {
    const reading = readAddress(address);
    const district = reading.districts[0];
    if (district === undefined || reading.elsewhere !== null || reading.mahallas.length !== 1) continue;
    const mahalla = matchMahalla(reading.mahallas[0], district);
    if (mahalla === null) continue;
    for (const { mention } of reading.places) {
      const hit = index.placesFor(mention).find(({ place, match }) =>
        place.district === district && (match === 'exact' || match === 'alias') && (place.kind === 'street' || place.number !== undefined));
      if (hit === undefined) continue;
      const list = points.get(mahalla.id);
      if (list === undefined) points.set(mahalla.id, [hit.place]);
      else list.push(hit.place);
    }
  }
  return points;
}
