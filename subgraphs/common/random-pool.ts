/**
 * Random bytes for ids, taken from a pooled buffer that the CSPRNG refills 4 KiB at a time: one
 * randomFillSync per few hundred ids instead of one per id (2.4% of the CPU of a 100,000-row
 * observation upload went to it). The same source as randomBytes, as node's randomUUID pools too.
 */
import { randomFillSync } from 'node:crypto';

const POOL = Buffer.alloc(4096);
let used = POOL.length;

/** Where `n` (at most 4,096) fresh random bytes lie in the pool, to be read before the next take (which may refill it). */
function take(n: number): number {
  if (n > POOL.length) throw new RangeError(`at most ${POOL.length} pooled random bytes at once`);
  if (used + n > POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  used += n;
  return used - n;
}

/** `n` (at most 4,096) fresh random bytes, a copy of its own. */
export function pooledRandomBytes(n: number): Buffer {
  const at = take(n);
  return Buffer.from(POOL.subarray(at, at + n));
}

/** `n` fresh random bytes as letters of a 32-letter alphabet (each byte's low five bits), read from the pool without a Buffer of their own. */
export function pooledRandomLetters(n: number, alphabet: string): string {
  const at = take(n);
  let out = '';
  for (let i = at; i < at + n; i++) out += alphabet[POOL[i] & 31];
  return out;
}
