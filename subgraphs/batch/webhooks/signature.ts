/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, "Signature scheme"): an HMAC-SHA256
 * over `id.timestamp.body` with the organisation's secret, sent as `v1,<base64>`. Secrets are
 * `whsec_` + base64 of random bytes, the form the spec's libraries take, so a receiver verifies
 * with `new Webhook(secret).verify(body, headers)` in any language. Signed by the spec's own
 * package (standardwebhooks), so what we send is what its verifiers check. No I/O.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const SECRET_PREFIX = 'whsec_';

/** The organisation's Standard Webhooks secret (`whsec_…`); the gateway's store persists one per organisation. */
export interface WebhookSecretSource {
  secretFor(organisation: string): Promise<string>;
}

/** The spec asks for 24 to 64 random bytes. */
const SECRET_BYTES = 32;

/** The three headers a signed delivery carries. */
export interface WebhookHeaders {
  'webhook-id': string;
  /** Unix seconds of this attempt. */
  'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256>`; the spec allows several, space-separated (for key rotation). */
  'webhook-signature': string;
}

/** A new per-organisation secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * The headers for one delivery attempt. `body` must be the exact bytes sent: the receiver
 * verifies the raw body, not a re-serialisation of it.
 * @param timestamp Unix seconds; a fraction is dropped, as receivers parse an integer.
 * @throws TypeError when the secret is not `whsec_` + base64 of at least one byte.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string | Buffer): WebhookHeaders {
  const seconds = Math.floor(timestamp);
  checkSecret(secret);
  const signature = new Webhook(secret).sign(id, new Date(seconds * 1000), typeof body === 'string' ? body : body.toString('utf8'));
  return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signature };
}

function checkSecret(secret: string): void {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : '';
  // Buffer.from(…, 'base64') skips bad characters silently; a mangled secret must fail loudly instead.
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length === 0) throw new TypeError(`A webhook secret is ${SECRET_PREFIX} followed by base64`);
}
