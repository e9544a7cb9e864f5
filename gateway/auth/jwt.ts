import { errors, jwtVerify, SignJWT } from 'jose';
import { jwtSecret } from './jwt-secret';
import type { KeyStore } from './key-store';
import type { Principal } from './principal';

export const TOKEN_ISSUER = 'tashkent-valuation';
export const TOKEN_AUDIENCE = 'tashkent-valuation-api';
const DEFAULT_TTL_SECONDS = 900;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export interface JwtOptions {
  /** Defaults to jwtSecret() (JWT_SECRET, else the generated file). */
  secret?: Uint8Array;
  clock?: () => number;
}

export interface IssueTokenOptions extends JwtOptions {
  /** Defaults to JWT_TTL_SECONDS, else 900. */
  ttlSeconds?: number;
}

export interface VerifyTokenOptions extends JwtOptions {
  /** When given, tokens of revoked or deleted keys are refused even before they expire. */
  keyStore?: Pick<KeyStore, 'principalForKeyId'>;
}

export type InvalidTokenReason = 'malformed' | 'bad_signature' | 'expired' | 'bad_claims' | 'revoked';

export class InvalidTokenError extends Error {
  constructor(
    readonly reason: InvalidTokenReason,
    options?: { cause?: unknown },
  ) {
    super(`invalid token: ${reason.replace('_', ' ')}`, options);
    this.name = 'InvalidTokenError';
  }
}

/** A short-lived HS256 token standing for the key behind `principal`. */
export async function issueToken(principal: Principal, options: IssueTokenOptions = {}): Promise<TokenResponse> {
  const ttlSeconds = options.ttlSeconds ?? ttlFromEnv();
  const issuedAt = Math.floor((options.clock ?? Date.now)() / 1000);
  const token = await new SignJWT({ org: principal.org, plan: principal.plan })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(principal.keyId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(options.secret ?? jwtSecret());
  return { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds };
}

/** The caller a token stands for; throws InvalidTokenError for anything else. */
export async function verifyToken(token: string, options: VerifyTokenOptions = {}): Promise<Principal> {
  const secret = options.secret ?? jwtSecret(); // a configuration error, not the token's fault
  let payload;
  try {
    ({ payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'], // never let the token choose its own algorithm
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp'],
      currentDate: new Date((options.clock ?? Date.now)()),
    }));
  } catch (error) {
    throw new InvalidTokenError(reasonFor(error), { cause: error });
  }
  const { sub, org, plan } = payload;
  if (typeof sub !== 'string' || typeof org !== 'string' || typeof plan !== 'string') {
    throw new InvalidTokenError('bad_claims');
  }
  if (!options.keyStore) return { keyId: sub, org, plan };
  // The key store is the authority on what the key may do now.
  const current = options.keyStore.principalForKeyId(sub);
  if (!current) throw new InvalidTokenError('revoked');
  return current;
}

function reasonFor(error: unknown): InvalidTokenReason {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
  if (error instanceof errors.JWTClaimValidationFailed) return 'bad_claims';
  return 'malformed';
}

function ttlFromEnv(): number {
  const configured = process.env.JWT_TTL_SECONDS;
  if (configured === undefined) return DEFAULT_TTL_SECONDS;
  const ttl = Number(configured);
  if (!Number.isInteger(ttl) || ttl <= 0) throw new Error(`JWT_TTL_SECONDS must be a positive integer, got '${configured}'`);
  return ttl;
}
