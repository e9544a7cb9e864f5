/**
 * Ids' random bytes come from a pooled buffer (subgraphs/common/random-pool.ts): each call gets
 * fresh bytes of its own, across refills of the pool, and the ids made from them stay unique.
 */
import { pooledRandomBytes } from '../../subgraphs/common/random-pool';
import { isRecordId, newRecordId } from '../../subgraphs/common/valuation-records/record-ids';

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
