import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { InvalidTokenError, issueToken, verifyToken, type InvalidTokenReason } from '../../gateway/auth/jwt';
import { KeyStore } from '../../gateway/auth/key-store';

const savedEnv = { ...process.env };
const secret = randomBytes(32);
const principal = { keyId: 'Ab3dEf9h', org: 'hamkorbank', plan: 'standard' };
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'valuation-home-'));
  process.env.VALUATION_HOME = home;
  delete process.env.JWT_SECRET;
  delete process.env.JWT_TTL_SECONDS;
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  process.env = { ...savedEnv };
});

async function rejection(promise: Promise<unknown>): Promise<InvalidTokenReason> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidTokenError);
  return (error as InvalidTokenError).reason;
}

test('a token round-trips to its principal with the agreed claims', async () => {
  const issued = await issueToken(principal, { secret });
  expect(issued.token_type).toBe('Bearer');
  expect(issued.expires_in).toBe(900);
  const claims = decodeJwt(issued.access_token);
  expect(claims).toMatchObject({
    sub: 'Ab3dEf9h',
    org: 'hamkorbank',
    plan: 'standard',
    iss: 'tashkent-valuation',
    aud: 'tashkent-valuation-api',
  });
  expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(900);
  expect(await verifyToken(issued.access_token, { secret })).toEqual(principal);
});

test('JWT_TTL_SECONDS sets the lifetime', async () => {
  process.env.JWT_TTL_SECONDS = '60';
  const issued = await issueToken(principal, { secret });
  expect(issued.expires_in).toBe(60);
  const claims = decodeJwt(issued.access_token);
  expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(60);
});

test('an expired token is rejected', async () => {
  const issuedAt = Date.UTC(2025, 0, 1, 12, 0, 0);
  const { access_token } = await issueToken(principal, { secret, ttlSeconds: 1, clock: () => issuedAt });
  expect(await verifyToken(access_token, { secret, clock: () => issuedAt + 500 })).toEqual(principal);
  expect(await rejection(verifyToken(access_token, { secret, clock: () => issuedAt + 1000 }))).toBe('expired');
});

test('a token signed with another secret is rejected', async () => {
  const { access_token } = await issueToken(principal, { secret: randomBytes(32) });
  expect(await rejection(verifyToken(access_token, { secret }))).toBe('bad_signature');
});

test('a token for another audience or issuer is rejected', async () => {
  const signed = (issuer: string, audience: string) =>
    new SignJWT({ org: 'hamkorbank', plan: 'pilot' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('Ab3dEf9h')
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(secret);
  expect(await rejection(verifyToken(await signed('tashkent-valuation', 'other-api'), { secret }))).toBe('bad_claims');
  expect(await rejection(verifyToken(await signed('someone-else', 'tashkent-valuation-api'), { secret }))).toBe(
    'bad_claims',
  );
});

test('malformed and unsigned tokens are rejected', async () => {
  expect(await rejection(verifyToken('not-a-token', { secret }))).toBe('malformed');
  const unsigned = new UnsecuredJWT({ org: 'hamkorbank', plan: 'pilot' })
    .setSubject('Ab3dEf9h')
    .setIssuer('tashkent-valuation')
    .setAudience('tashkent-valuation-api')
    .setExpirationTime('5m')
    .encode();
  expect(await rejection(verifyToken(unsigned, { secret }))).toBe('malformed');
});

test("a revoked key's tokens stop working", async () => {
  const store = new KeyStore();
  const { key, record } = store.create({ org: 'hamkorbank', plan: 'pilot' });
  const keyPrincipal = store.verify(key);
  expect(keyPrincipal).not.toBeNull();
  const { access_token } = await issueToken(keyPrincipal!, { secret });
  expect(await verifyToken(access_token, { secret, keyStore: store })).toEqual(keyPrincipal);
  store.revoke(record.id);
  expect(await rejection(verifyToken(access_token, { secret, keyStore: store }))).toBe('revoked');
});

test('without JWT_SECRET a private secret is generated once and reused', async () => {
  const { access_token } = await issueToken(principal);
  const file = join(home, 'jwt-secret');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const stored = readFileSync(file, 'utf8');
  expect(await verifyToken(access_token)).toEqual(principal);
  expect(await verifyToken(access_token, { secret: Buffer.from(stored.trim(), 'base64url') })).toEqual(principal);
  await issueToken(principal);
  expect(readFileSync(file, 'utf8')).toBe(stored);
});

test('JWT_SECRET is used when set and must be long enough', async () => {
  process.env.JWT_SECRET = 'k'.repeat(40);
  const { access_token } = await issueToken(principal);
  expect(await verifyToken(access_token, { secret: Buffer.from('k'.repeat(40)) })).toEqual(principal);
  process.env.JWT_SECRET = 'short';
  await expect(issueToken(principal)).rejects.toThrow('JWT_SECRET must be at least 32 bytes');
});
