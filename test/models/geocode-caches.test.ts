/**
 * The caches behind geocoding a batch: bounded in size, and giving exactly what an uncached
 * geocoder gives (answers and refusals alike) on real listing addresses and gazetteer places.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { loadDistrictBoundaries } from '../../models/location/districts';
import { createGeocoder, geocode, loadGazetteer } from '../../models/location/geocode';
import { addressPartCache, readAddress } from '../../models/location/geocode/address-read';
import { DATA_DIR } from '../../models/paths';

type Outcome = { value: unknown } | { thrown: Record<string, unknown> };

function outcome(f: () => unknown): Outcome {
  try {
    return { value: JSON.parse(JSON.stringify(f())) };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return { thrown: { ...(error as object), name: error.name, message: error.message } };
  }
}

describe('geocoding with its caches', () => {
  const gazetteer = loadGazetteer();
  const polygons = loadDistrictBoundaries();
  /** An uncached answer: no part read before, a geocoder with nothing kept. */
  const cold = (address: string): Outcome => {
    addressPartCache.clear();
    return outcome(() => createGeocoder(gazetteer, polygons).geocode(address));
  };

  const readCsv = (file: string): Record<string, string>[] =>
    parse(readFileSync(join(DATA_DIR, 'listings', file)), { columns: true, bom: true, relax_column_count: true, skip_empty_lines: true });
  const listings = [
    ...readCsv('olx_apartments_2021_geocoded.csv').map((r) => r['address']),
    ...readCsv('uybor_apartments_2025.csv').map((r) => r['Address']),
    ...readCsv('olx_apartments_2021.csv').map((r) => r['location']),
  ].filter((a): a is string => typeof a === 'string' && a.trim() !== '');
  const distinctListings = [...new Set(listings)].filter((_, i) => i % 6 === 0);
  const district = new Map(gazetteer.districts.map((d) => [d.id, d.names]));
  const places = gazetteer.places.filter((_, i) => i % 4 === 0)
    .flatMap((p, i) => [`${district.get(p.district)![i % 3]}, ${p.name}, ${1 + (i % 97)}-uy`, `${p.name}, ${2 + (i % 60)}`, `город Ташкент, ${p.name} д. 5, кв. ${i % 70}`]);
  const sample = [...distinctListings, ...places, 'Самарканд, улица Навои', 'qwzx blorf', '', ' , ;', 'Chilonzor tumani, 13-kvartal, 7-uy'];

  test('answers and refusals are those of an uncached geocoder, cold or warm, whatever the order', () => {
    expect(sample.length).toBeGreaterThan(1_000);
    const expected = sample.map(cold);
    const warm = createGeocoder(gazetteer, polygons);
    addressPartCache.clear();
    for (const pass of [sample, [...sample].reverse(), sample]) {
      const got = pass.map((address) => outcome(() => warm.geocode(address)));
      const want = pass === sample ? expected : [...expected].reverse();
      got.forEach((answer, i) => {
        if (JSON.stringify(answer) !== JSON.stringify(want[i])) expect({ address: pass[i], answer }).toEqual({ address: pass[i], answer: want[i] });
      });
    }
    // Some of each: placed, refused.
    expect(expected.filter((o) => 'value' in o).length).toBeGreaterThan(sample.length / 2);
    expect(expected.filter((o) => 'thrown' in o).length).toBeGreaterThan(10);
  });

  test('house and flat numbers in their own part share the answer of the address without them', () => {
    const a = geocode('Chilonzor tumani, Qatortol, 12-uy');
    const b = geocode('Chilonzor tumani, Qatortol, 14-uy');
    expect(b).toBe(a);
    expect(geocode('Chilonzor tumani, Qatortol')).toBe(a);
    expect(cold('Chilonzor tumani, Qatortol, 99-uy')).toEqual({ value: JSON.parse(JSON.stringify(a)) });
  });

  test('answers are frozen, so that sharing them is safe', () => {
    const answer = geocode('город Ташкент, Yakkasaroy район, 1-й тупик Шота Руставели');
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer.matched)).toBe(true);
    for (const candidate of answer.candidates ?? []) expect(Object.isFrozen(candidate)).toBe(true);
  });

  test('the part readings kept stay within their bound, and readings stay right once parts are dropped', () => {
    addressPartCache.clear();
    const first = JSON.stringify(readAddress('Yunusobod tumani, Yunusobod 8 kvartal, 1-uy'));
    for (let i = 0; i < addressPartCache.capacity * 1.5; i++) readAddress(`Yunusobod 8 kvartal, ${i}-uy`);
    expect(addressPartCache.size).toBeLessThanOrEqual(addressPartCache.capacity);
    expect(JSON.stringify(readAddress('Yunusobod tumani, Yunusobod 8 kvartal, 1-uy'))).toBe(first);
    const warm = outcome(() => geocode('Yunusobod tumani, Yunusobod 8 kvartal, 1-uy'));
    expect(warm).toEqual(cold('Yunusobod tumani, Yunusobod 8 kvartal, 1-uy'));
  });
});
