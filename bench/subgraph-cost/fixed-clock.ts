/**
 * Preloaded (`node --require`) into a subgraph by ./fingerprint.ts: a clock stopped at FIXED_CLOCK and
 * random bytes from a counter, so that a build's replies and records (ids, times) are the same from
 * one run to the next and can be compared byte for byte with another build's.
 */
import crypto from 'node:crypto';

const fixed = Date.parse(process.env.FIXED_CLOCK ?? '2026-11-29T12:00:00.000Z');
const RealDate = Date;

class FixedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(fixed);
    else super(...(args as [number]));
  }

  static now(): number {
    return fixed;
  }
}
globalThis.Date = FixedDate as DateConstructor;

let counter = 0;
/** Each byte the next of a counter's: ids are distinct and the same in every run. */
function countedFill<T extends NodeJS.ArrayBufferView>(buffer: T, offset = 0, size?: number): T {
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const end = size === undefined ? bytes.length : offset + size;
  for (let i = offset; i < end; i++) bytes[i] = (counter = (counter * 1103515245 + 12345) >>> 0) >>> 16;
  return buffer;
}
(crypto as { randomFillSync: unknown }).randomFillSync = countedFill;
(crypto as { randomBytes: unknown }).randomBytes = (n: number) => countedFill(Buffer.alloc(n));
