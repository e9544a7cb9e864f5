import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashApiKey } from '../../gateway/auth/api-key';
import { KeyStore } from '../../gateway/auth/key-store';
import { runKeysCli } from '../../tools/keys';

let dir: string;
let store: KeyStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keys-cli-'));
  store = new KeyStore({ file: join(dir, 'keys.json') });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runKeysCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) }, store);
  return { code, out, err };
}

test('create prints the key once, with a warning, and the key works', () => {
  const { code, out, err } = run('create', '--org', 'hamkorbank', '--plan', 'standard', '--label', 'scoring team');
  expect(code).toBe(0);
  expect(err).toEqual([]);
  const key = out.find((line) => /^tvk_/.test(line));
  expect(key).toMatch(/^tvk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}$/);
  expect(out.join('\n')).toMatch(/will not be shown again/);
  expect(store.verify(key!)).toMatchObject({ org: 'hamkorbank', plan: 'standard' });
});

test('list prints a table without keys or hashes', () => {
  run('create', '--org', 'hamkorbank', '--plan', 'pilot', '--label', 'scoring team');
  const key = run('create', '--org', 'ipakyuli', '--plan', 'enterprise').out[1];
  const { code, out } = run('list');
  expect(code).toBe(0);
  expect(out[0].split(/\s+/)).toEqual(['ID', 'ORG', 'PLAN', 'LABEL', 'CREATED', 'REVOKED']);
  expect(out).toHaveLength(3);
  expect(out[1]).toMatch(/^[0-9A-Za-z]{8}\s+hamkorbank\s+pilot\s+scoring team\s+\d{4}-\d\d-\d\dT\S+\s+-$/);
  expect(out[2]).toMatch(/\s+ipakyuli\s+enterprise\s+-\s+/);
  const printed = out.join('\n');
  expect(printed).not.toContain(key);
  expect(printed).not.toContain(hashApiKey(key));
});

test('list says so when there are no keys', () => {
  expect(run('list').out).toEqual(['ID  ORG  PLAN  LABEL  CREATED  REVOKED', '(no keys yet)']);
});

test('revoke makes the key fail and shows in the list', () => {
  const key = run('create', '--org', 'hamkorbank', '--plan', 'pilot').out[1];
  const id = key.split('_')[1];
  const revoked = run('revoke', id);
  expect(revoked.code).toBe(0);
  expect(revoked.out[0]).toMatch(new RegExp(`^Revoked key ${id} `));
  expect(store.verify(key)).toBeNull();
  expect(run('list').out[1]).toMatch(/\d{4}-\d\d-\d\dT\S+Z$/);
});

test('revoking an unknown id fails with exit code 1', () => {
  const { code, err } = run('revoke', 'nokey123');
  expect(code).toBe(1);
  expect(err).toEqual(["error: no key with id 'nokey123'"]);
});

test('an unknown plan is a usage error and creates nothing', () => {
  const { code, out, err } = run('create', '--org', 'hamkorbank', '--plan', 'gold');
  expect(code).toBe(2);
  expect(out).toEqual([]);
  expect(err[0]).toBe("error: unknown plan 'gold' (known plans: pilot, standard, enterprise, development)");
  expect(store.list()).toEqual([]);
});

test.each([
  [['create', '--plan', 'pilot'], 'error: create needs --org NAME and --plan PLAN'],
  [['create', '--org', 'hamkorbank', '--plan', 'pilot', '--colour', 'red'], "error: Unknown option '--colour'"],
  [['create', '--org', 'Hamkor Bank', '--plan', 'pilot'], "error: invalid organisation 'Hamkor Bank'"],
  [['revoke'], 'error: revoke needs exactly one key id'],
  [['rotate'], "unknown command 'rotate'"],
  [[], 'missing command'],
])('%j is a usage error (exit code 2)', (argv, message) => {
  const { code, err } = run(...argv);
  expect(code).toBe(2);
  expect(err[0].startsWith(message)).toBe(true);
  expect(store.list()).toEqual([]);
});
