/**
 * A seeded random sample without replacement (partial Fisher–Yates on a copy), so that a review
 * sample can be drawn again from its seed. The generator is SplitMix32 seeded by the seed's
 * SHA-256: uniform enough for drawing reviews, and the same in every process.
 */
import { createHash, randomBytes } from 'node:crypto';

export function drawSample<T>(population: readonly T[], n: number, seed: string = randomBytes(6).toString('hex')): { chosen: T[]; seed: string } {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  const next = () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
  const pool = [...population];
  const count = Math.min(n, pool.length);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return { chosen: pool.slice(0, count), seed };
}
