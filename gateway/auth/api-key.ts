import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_ID_LENGTH = 8;
const SECRET_LENGTH = 40; // about 238 bits
const API_KEY_PATTERN = /^tvk_([0-9A-Za-z]{8})_[0-9A-Za-z]{32,128}$/;

/** A new key `tvk_<id>_<secret>`; the id is public (it names the key), the secret is not. */
export function generateApiKey(): { id: string; key: string } {
  const id = randomBase62(KEY_ID_LENGTH);
  return { id, key: `tvk_${id}_${randomBase62(SECRET_LENGTH)}` };
}

/** The key's id, or null when the string is not shaped like one of our keys. */
export function keyIdOf(apiKey: string): string | null {
  return API_KEY_PATTERN.exec(apiKey)?.[1] ?? null;
}

/**
 * SHA-256 hex of the whole key. A slow password hash (scrypt, argon2) guards guessable secrets;
 * these are 238 random bits, beyond brute force, so a fast hash is enough and keeps verification cheap.
 */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // 248 = 4 × 62: dropping bytes above it keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
