import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * How a chunk's items and results are stored, by both stores: one gzipped JSON array. Addresses
 * and result objects repeat their keys item after item, so this cuts storage several times over,
 * and one chunk is the most the engine ever decodes at once. Level 1: nearly the same ratio on
 * such repetitive text at a fraction of the default level's CPU time.
 */
export function encodeChunk(values: readonly unknown[]): Buffer {
  return gzipSync(JSON.stringify(values), { level: 1 });
}

export function decodeChunk<T>(blob: Buffer): T[] {
  const values: unknown = JSON.parse(gunzipSync(blob).toString('utf8'));
  if (!Array.isArray(values)) throw new Error('a stored chunk is not a JSON array');
  return values as T[];
}
