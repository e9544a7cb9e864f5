/**
 * platform/json-bytes.ts: an answer made into JSON bytes a piece at a time is byte for byte what
 * `Buffer.from(JSON.stringify(value) + suffix)` gives, whatever the value holds (what JSON.stringify
 * leaves out or writes as null, toJSON, prototypes, key order, text beyond ASCII), and one larger
 * than its buffer, followed by a small one, comes out whole both times.
 */
import { jsonBody, jsonBytes } from '../../platform/json-bytes';

class Point {
  constructor(readonly x: number, readonly y: number) {}
}
const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 'ʻ' });

const VALUES: object[] = [
  {},
  [],
  { data: { homeValuations: [] } },
  { data: { homeValuations: [{ index: 0, error: null, valuation: { estimate: 88_600, drivers: ['FSD 0.262: −34% to +57% (FSD ≤ 0.3)'], group: 'Tashkent › Chilanzar' } }, { index: 1, error: { code: 'UNKNOWN_DISTRICT', message: 'Unknown district "Atlantis"' }, valuation: null }] } },
  // Left out of objects, null in arrays, at every level walked and below it.
  { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('s'), 1], e: { f: { g: { h: undefined, i: [undefined] } } } },
  // Integer-like keys first, ascending; then the others in insertion order.
  { z: 1, 10: 'ten', 2: 'two', a: { 3: 3, b: 2, 1: 1 } },
  { when: new Date(Date.UTC(2026, 10, 29)), at: [new Date(0)], nested: { p: new Point(1, 2), q: [new Point(3, 4)] } },
  { numbers: [0, -0, 1.5e300, -1e-7, NaN, Infinity, -Infinity, 0.1 + 0.2], bare, list: [bare], bool: [true, false], nothing: null },
  // toJSON is called with the key its value is held under, and what it gives is written (or left out).
  { custom: { toJSON: (key: string) => `toJSON of ${key}` }, list: [{ toJSON: (key: string) => ({ at: key }) }], gone: { toJSON: () => undefined }, none: [{ toJSON: () => undefined }], deep: { deeper: { deepest: { custom: { toJSON: () => 'x' } } } } },
  { text: 'escapes " \\ \n \t \u0000 \u2028 \ud800 lone surrogate, emoji 😀, Oʻzbekiston', keys: { 'quote"key': 1, 'ʻ': 2 } },
];

test.each(VALUES.map((v, i) => [i, v] as const))('value %i: the same bytes as Buffer.from(JSON.stringify(value))', (_i, value) => {
  expect(jsonBytes(value, '\n').equals(Buffer.from(`${JSON.stringify(value)}\n`))).toBe(true);
  expect(jsonBytes(value).equals(Buffer.from(JSON.stringify(value)))).toBe(true);
});

test('answers without a list (a single valuation, { __typename }) are the same bytes too', () => {
  for (const value of [{ data: { __typename: 'Query' } }, { data: { homeValuation: { estimate: 1, drivers: ['≤'], nested: { list: [1, 2] } } } }, { data: { a: { b: { c: [1] } } } }]) {
    expect(jsonBytes(value, '\n').equals(Buffer.from(`${JSON.stringify(value)}\n`))).toBe(true);
  }
});

test('an answer body is the text as a string without a list to walk (node writes it with the head), else its bytes', () => {
  const single = { data: { homeValuation: { estimate: 1, drivers: ['≤'] } } };
  expect(jsonBody(single, '\n')).toBe(`${JSON.stringify(single)}\n`);
  const bulk = { data: { homeValuations: [{ index: 0, valuation: { drivers: ['≤'] } }] } };
  const body = jsonBody(bulk, '\n');
  expect(Buffer.isBuffer(body) && body.equals(Buffer.from(`${JSON.stringify(bulk)}\n`))).toBe(true);
});

test('an answer larger than the buffer, then a small one: both whole', () => {
  const large = { data: { items: Array.from({ length: 300 }, (_, i) => ({ i, text: `−${i}% ≤ `.repeat(400) })) } };
  const big = jsonBytes(large, '\n');
  expect(big.length).toBeGreaterThan(1 << 20);
  expect(big.equals(Buffer.from(`${JSON.stringify(large)}\n`))).toBe(true);
  const small = jsonBytes({ data: { ok: true } }, '\n');
  expect(small.toString()).toBe('{"data":{"ok":true}}\n');
  // An earlier answer is its own copy: a later one does not change it.
  expect(big.equals(Buffer.from(`${JSON.stringify(large)}\n`))).toBe(true);
});
