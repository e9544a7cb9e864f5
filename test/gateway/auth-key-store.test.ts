import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashApiKey } from '../../gateway/auth/api-key';
import { InvalidKeyRequestError, KeyNotFoundError, KeyStore } from '../../gateway/auth/key-store';
import { createFirstStartKey } from '../../gateway/auth/local-key';
import { UnknownPlanError } from '../../platform/plans';

const KEY_FORMAT = /^tvk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}$/;
const savedHome = process.env.VALUATION_HOME;
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'valuation-home-'));
  process.env.VALUATION_HOME = home;
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  if (savedHome === undefined) delete process.env.VALUATION_HOME;
  else process.env.VALUATION_HOME = savedHome;
});

/** Replaces one character of the key's secret with a different one. */
function tamper(key: string): string {
  const last = key.at(-1);
  return key.slice(0, -1) + (last === 'a' ? 'b' : 'a');
}

test('a created key verifies to its organisation and plan', () => {
  const store = new KeyStore();
  const { key, record } = store.create({ org: 'hamkorbank', plan: 'standard', label: 'branch scoring' });
  expect(key).toMatch(KEY_FORMAT);
  expect(key.startsWith(`tvk_${record.id}_`)).toBe(true);
  expect(record).toEqual({
    id: record.id,
    org: 'hamkorbank',
    plan: 'standard',
    label: 'branch scoring',
    created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    revoked_at: null,
  });
  expect(store.verify(key)).toEqual({ keyId: record.id, org: 'hamkorbank', plan: 'standard' });
});

test('the key file lives in VALUATION_HOME, is private and holds only the hash', () => {
  const store = new KeyStore();
  const { key } = store.create({ org: 'hamkorbank', plan: 'pilot' });
  expect(store.file).toBe(join(home, 'keys.json'));
  expect(statSync(store.file).mode & 0o777).toBe(0o600);
  const text = readFileSync(store.file, 'utf8');
  const secret = key.split('_')[2];
  expect(text).not.toContain(secret);
  expect(text).toContain(hashApiKey(key));
});

test('tampered, unknown and malformed keys are rejected', () => {
  const store = new KeyStore();
  const { key } = store.create({ org: 'hamkorbank', plan: 'pilot' });
  const other = store.create({ org: 'ipakyuli', plan: 'pilot' });
  expect(store.verify(tamper(key))).toBeNull();
  // A valid secret presented under another key's id.
  expect(store.verify(key.replace(/^tvk_[^_]+_/, `tvk_${other.record.id}_`))).toBeNull();
  expect(store.verify(`tvk_ZZZZZZZZ_${key.split('_')[2]}`)).toBeNull();
  expect(store.verify('')).toBeNull();
  expect(store.verify('Bearer nonsense')).toBeNull();
  expect(store.verify(`${key} `)).toBeNull();
});

test('revoked keys are rejected and listed with their revocation time', () => {
  const store = new KeyStore({ clock: () => Date.UTC(2025, 5, 1, 12, 0, 0) });
  const { key, record } = store.create({ org: 'hamkorbank', plan: 'pilot' });
  expect(store.revoke(record.id).revoked_at).toBe('2025-06-01T12:00:00.000Z');
  expect(store.verify(key)).toBeNull();
  expect(store.principalForKeyId(record.id)).toBeNull();
  expect(store.list()).toEqual([{ ...record, revoked_at: '2025-06-01T12:00:00.000Z' }]);
  expect(() => store.revoke('nokey123')).toThrow(KeyNotFoundError);
});

test('list shows every key oldest first and never a hash', () => {
  let now = Date.UTC(2025, 0, 1);
  const store = new KeyStore({ clock: () => now });
  const first = store.create({ org: 'bank-b', plan: 'pilot' });
  now += 1000;
  const second = store.create({ org: 'bank-a', plan: 'enterprise', label: 'batch' });
  const listed = store.list();
  expect(listed.map((r) => r.id)).toEqual([first.record.id, second.record.id]);
  expect(JSON.stringify(listed)).not.toContain(hashApiKey(first.key));
  expect(Object.keys(listed[0]).sort()).toEqual(['created_at', 'id', 'label', 'org', 'plan', 'revoked_at']);
});

test('a key created by another process verifies at once, and its revocation lands within a second', () => {
  let now = Date.UTC(2025, 0, 1);
  const server = new KeyStore({ clock: () => now });
  const cli = new KeyStore();
  const earlier = cli.create({ org: 'ipakyuli', plan: 'pilot' });
  expect(server.verify(earlier.key)).not.toBeNull(); // the server has just looked at the file

  const { key, record } = cli.create({ org: 'hamkorbank', plan: 'pilot' });
  // Same instant: only the re-check on an unknown id can find the new key.
  expect(server.verify(key)).toEqual({ keyId: record.id, org: 'hamkorbank', plan: 'pilot' });

  new KeyStore().revoke(record.id);
  expect(server.verify(key)).not.toBeNull(); // within the second the server does not stat the file again
  now += 1000;
  expect(server.verify(key)).toBeNull();
  expect(server.verify(earlier.key)).not.toBeNull();
});

test('bad requests are refused before anything is written', () => {
  const store = new KeyStore();
  expect(() => store.create({ org: 'hamkorbank', plan: 'gold' })).toThrow(UnknownPlanError);
  expect(() => store.create({ org: 'Hamkor Bank', plan: 'pilot' })).toThrow(InvalidKeyRequestError);
  expect(() => store.create({ org: '', plan: 'pilot' })).toThrow(InvalidKeyRequestError);
  expect(() => store.create({ org: 'hamkorbank', plan: 'pilot', label: 'two\nlines' })).toThrow(InvalidKeyRequestError);
  expect(store.list()).toEqual([]);
});

test('a corrupt key file is reported, not treated as empty', () => {
  writeFileSync(join(home, 'keys.json'), '{"version":1,"keys":[{"id":"x"}]}');
  expect(() => new KeyStore()).toThrow('is not a valid key file');
});

describe('createFirstStartKey', () => {
  test('creates a development-plan key for organisation local when there is no key file, and never again', () => {
    const store = new KeyStore();
    const created = createFirstStartKey(store);
    expect(created).not.toBeNull();
    expect(created?.record).toMatchObject({ org: 'local', plan: 'development' });
    expect(store.verify(created?.key ?? '')).toEqual({ keyId: created?.record.id, org: 'local', plan: 'development' });
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(createFirstStartKey(store)).toBeNull();
    expect(createFirstStartKey(new KeyStore())).toBeNull();
    expect(store.list()).toHaveLength(1);
  });

  test('creates nothing when the key file exists without a local organisation (made by the keys CLI for a bank)', () => {
    const store = new KeyStore();
    store.create({ org: 'hamkorbank', plan: 'standard' });
    const before = readFileSync(store.file, 'utf8');
    expect(createFirstStartKey(new KeyStore())).toBeNull();
    expect(readFileSync(store.file, 'utf8')).toBe(before);
    expect(store.list().map((record) => record.org)).toEqual(['hamkorbank']);
  });

  test('does not replace a revoked or deleted local key', () => {
    const store = new KeyStore();
    const created = createFirstStartKey(store);
    store.revoke(created?.record.id ?? '');
    expect(createFirstStartKey(store)).toBeNull();
    writeFileSync(store.file, '{"version":1,"keys":[]}');
    expect(createFirstStartKey(new KeyStore())).toBeNull();
  });

  test('a store opened before another created the file creates nothing', () => {
    const results = [new KeyStore(), new KeyStore()].map((store) => createFirstStartKey(store));
    expect(results.filter((created) => created !== null)).toHaveLength(1);
    expect(new KeyStore().list()).toHaveLength(1);
  });
});
