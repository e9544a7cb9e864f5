/**
 * Ids' random bytes come from a pooled buffer (subgraphs/common/random-pool.ts): each call gets
 * fresh bytes of its own, across refills of the pool, and the ids made from them stay unique.
 */
import { pooledRandomBytes, pooledRandomLetters } from '../../subgraphs/common/random-pool';
import { isRecordId, newRecordId, recordIdTime } from '../../subgraphs/common/valuation-records/record-ids';

test('every call gets bytes of its own, across refills; a later call does not change an earlier one', () => {
  const taken = Array.from({ length: 2_000 }, () => pooledRandomBytes(16)); // 32,000 bytes: seven refills of 4 KiB
  const copy = taken.map((b) => Buffer.from(b));
  expect(new Set(taken.map((b) => b.toString('hex'))).size).toBe(2_000);
  for (let i = 0; i < 600; i++) pooledRandomBytes(9); // uneven sizes straddle the pool's end
  expect(taken).toEqual(copy);
  expect(taken.every((b) => b.length === 16)).toBe(true);
  expect(() => pooledRandomBytes(4_097)).toThrow(RangeError);
});

test('record ids made in one millisecond are valid and unique', () => {
  const ids = Array.from({ length: 10_000 }, () => newRecordId(1_795_000_000_000));
  expect(ids.every(isRecordId)).toBe(true);
  expect(new Set(ids).size).toBe(10_000);
});

test('ids made at times in turn each carry their own time (an id remembers the last time part made)', () => {
  const times = [1_795_000_000_000, 1_795_000_000_001, 1_795_000_000_000, 1_700_000_000_000, 1_700_000_000_000, 1_795_000_000_001];
  const ids = times.map((ms) => newRecordId(ms));
  expect(ids.map(recordIdTime)).toEqual(times);
  expect(ids.every(isRecordId)).toBe(true);
});

test('pooled random letters are of the alphabet, fresh on every call, across refills', () => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz012345';
  const drawn = Array.from({ length: 3_000 }, () => pooledRandomLetters(16, alphabet)); // 48,000 bytes: refills on the way
  expect(drawn.every((w) => w.length === 16 && [...w].every((c) => alphabet.includes(c)))).toBe(true);
  expect(new Set(drawn).size).toBe(3_000);
  // Every letter comes up (a byte's low five bits are uniform).
  expect(new Set(drawn.join('')).size).toBe(32);
});
