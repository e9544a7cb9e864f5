import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateFileOnce, valuationHome } from '../../platform/local-state';

// HS256 needs a key at least as long as its 256-bit hash output (RFC 7518, section 3.2).
const MIN_SECRET_BYTES = 32;

const secretsByFile = new Map<string, Uint8Array>();

/**
 * The token signing secret: JWT_SECRET when set (shared by all gateway instances), else a random
 * one made on first use and kept in `${VALUATION_HOME}/jwt-secret` (0600) so restarts keep tokens valid.
 */
export function jwtSecret(): Uint8Array {
  const fromEnv = process.env.JWT_SECRET;
  if (fromEnv !== undefined) {
    const secret = new TextEncoder().encode(fromEnv);
    if (secret.length < MIN_SECRET_BYTES) throw new Error(`JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes`);
    return secret;
  }
  const file = join(valuationHome(), 'jwt-secret');
  let secret = secretsByFile.get(file);
  if (!secret) {
    // If another process creates it first, its secret wins and both read the same file.
    createPrivateFileOnce(file, `${randomBytes(MIN_SECRET_BYTES).toString('base64url')}\n`);
    secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
    if (secret.length < MIN_SECRET_BYTES) throw new Error(`${file} holds fewer than ${MIN_SECRET_BYTES} bytes`);
    secretsByFile.set(file, secret);
  }
  return secret;
}
