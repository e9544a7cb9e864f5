/**
 * What the file store adds to the contract: the files survive the process (reopening sees every
 * call, and revisions go on), a torn append at a file's end is dropped whole and cut off, and the
 * files are private and named so that no organisation id reaches another file or another folder.
 */
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileObservationStore, type ObservationStore } from '../../subgraphs/common/observation-store';
import { observation, observations } from './fixtures/observations';

let root: string;
let dir: string;
let logs: string[];
const opened: ObservationStore[] = [];

async function open(): Promise<FileObservationStore> {
  const store = await FileObservationStore.open({ directory: dir, log: (message) => logs.push(message) });
  opened.push(store);
  return store;
}

/** The only file in the directory (the tests write one organisation's one kind). */
function onlyFile(): string {
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  return join(dir, files[0]);
}

const ids = (records: readonly { id: string }[]) => records.map((record) => record.id);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'observations-file-'));
  dir = join(root, 'observations');
  logs = [];
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  rmSync(root, { recursive: true, force: true });
});

test('a reopened store sees every call, and its revisions go on from where they were', async () => {
  const first = await open();
  await first.append('bank/1', 'home', observations('a', 700));
  await first.append('bank/1', 'home', observations('b', 3));
  await first.append('bank/1', 'vehicle', observations('v', 2, { kind: 'vehicle' }));
  await first.append('bank/2', 'home', observations('c', 1));
  const listed = await first.list('bank/1', 'home');
  const revision = await first.revision('bank/1', 'home');
  await first.close();

  const second = await open();
  expect(await second.list('bank/1', 'home')).toEqual(listed);
  expect(await second.list('bank/1', 'home')).toHaveLength(703);
  expect(ids(await second.list('bank/1', 'vehicle'))).toEqual(['obs_v_000001', 'obs_v_000000']);
  expect(ids(await second.list('bank/2', 'home'))).toEqual(['obs_c_000000']);
  expect(await second.revision('bank/1', 'home')).toBe(revision);
  expect(await second.append('bank/1', 'home', observations('d', 1))).toBe(revision + 1);
  expect(logs).toEqual([]);
});

test('a prune is kept on disk, with its revision', async () => {
  const first = await open();
  await first.append('bank/1', 'home', [observation({ id: 'obs_old', observedAt: '2020-01-01' }), observation({ id: 'obs_new', observedAt: '2024-01-01' })]);
  expect(await first.prune('2023-01-01')).toBe(1);
  const revision = await first.revision('bank/1', 'home');
  await first.close();
  const second = await open();
  expect(ids(await second.list('bank/1', 'home'))).toEqual(['obs_new']);
  expect(await second.revision('bank/1', 'home')).toBe(revision);
  // A prune that empties a file keeps the revision too.
  expect(await second.prune('2025-01-01')).toBe(1);
  await second.close();
  const third = await open();
  expect(await third.list('bank/1', 'home')).toEqual([]);
  expect(await third.revision('bank/1', 'home')).toBe(revision + 1);
});

test('a removal is kept on disk, with its revision', async () => {
  const first = await open();
  await first.append('bank/1', 'home', [observation({ id: 'obs_kept' }), observation({ id: 'obs_wrong' })]);
  expect(await first.remove('bank/1', 'home', ['obs_wrong'])).toEqual(['obs_wrong']);
  const revision = await first.revision('bank/1', 'home');
  await first.close();
  const second = await open();
  expect(ids(await second.list('bank/1', 'home'))).toEqual(['obs_kept']);
  expect(await second.revision('bank/1', 'home')).toBe(revision);
});

describe('a torn append at the end of a file (a process killed mid-write)', () => {
  /** Two complete calls on disk, then `tail` written by hand after them, as a killed writer would leave it. */
  async function tornAfterTwoCalls(tail: (recordLines: string[]) => string) {
    const store = await open();
    await store.append('bank/1', 'home', observations('a', 3));
    await store.append('bank/1', 'home', observations('b', 2));
    await store.close();
    const file = onlyFile();
    const sound = readFileSync(file);
    const recordLines = observations('torn', 4).map((record) => JSON.stringify(record));
    appendFileSync(file, tail(recordLines));
    return { file, sound };
  }

  const cases: Array<[string, (lines: string[]) => string]> = [
    ['half a record line', (lines) => lines[0].slice(0, 40)],
    ['whole record lines, then half a line', (lines) => `${lines[0]}\n${lines[1]}\n${lines[2].slice(0, 25)}`],
    ['every record line but no commit line', (lines) => `${lines.join('\n')}\n`],
    ['every record line and half the commit line', (lines) => `${lines.join('\n')}\n{"commit":4,"organisa`],
  ];
  test.each(cases)('%s: the complete calls load, the torn one is dropped whole and cut off the file, with a warning', async (_, tail) => {
    const { file, sound } = await tornAfterTwoCalls(tail);
    const store = await open();
    expect(ids(await store.list('bank/1', 'home')).sort()).toEqual([...ids(observations('a', 3)), ...ids(observations('b', 2))].sort());
    expect(await store.revision('bank/1', 'home')).toBe(2);
    expect(readFileSync(file)).toEqual(sound);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/dropped a torn append at its end/);
    // The store goes on after the repair, and the next opening finds nothing to repair.
    expect(await store.append('bank/1', 'home', observations('c', 1))).toBe(3);
    await store.close();
    const again = await open();
    expect(await again.list('bank/1', 'home')).toHaveLength(6);
    expect(logs).toHaveLength(1);
  });

  test('whatever byte the last write was cut at, the call before loads whole and the cut one not at all', async () => {
    // A SIGKILL rarely lands inside write() itself (crash.test.ts kills real processes): here, every cut.
    const store = await open();
    await store.append('bank/1', 'home', observations('a', 2));
    await store.close();
    const file = onlyFile();
    const first = readFileSync(file);
    const second = await open();
    await second.append('bank/1', 'home', observations('b', 2));
    await second.close();
    const both = readFileSync(file);
    expect(both.length).toBeGreaterThan(first.length + 400);
    for (let cut = first.length; cut < both.length; cut++) {
      writeFileSync(file, both.subarray(0, cut));
      logs = [];
      const reopened = await open();
      expect({ cut, ids: ids(await reopened.list('bank/1', 'home')) }).toEqual({ cut, ids: ['obs_a_000001', 'obs_a_000000'] });
      expect({ cut, size: statSync(file).size, warned: logs.length }).toEqual({ cut, size: first.length, warned: cut > first.length ? 1 : 0 });
      await reopened.close();
    }
    writeFileSync(file, both);
    const whole = await open();
    expect(await whole.list('bank/1', 'home')).toHaveLength(4);
  });

  test('a file holding only a torn first call is removed: as if the call had never been made', async () => {
    await open();
    writeFileSync(join(dir, `${'0'.repeat(64)}.home.ndjson`), `${JSON.stringify(observation({ id: 'obs_1' }))}\n{"comm`);
    const store = await open();
    expect(readdirSync(dir)).toEqual([]);
    expect(logs[0]).toMatch(/dropped a torn append/);
    expect(await store.prune('2030-01-01')).toBe(0);
  });

  test('a call whose lines do not match its commit line is dropped, the calls around it kept', async () => {
    const store = await open();
    await store.append('bank/1', 'home', observations('a', 2));
    await store.close();
    const file = onlyFile();
    const commit = (count: number, revision: number) => `${JSON.stringify({ commit: count, organisation: 'bank/1', kind: 'home', revision })}\n`;
    const lines = (records: object[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');
    appendFileSync(file, lines(observations('short', 2)) + commit(3, 2)); // says 3, holds 2
    appendFileSync(file, `${lines(observations('garbled', 1))}{not json\n${commit(2, 3)}`);
    appendFileSync(file, lines(observations('fine', 1)) + commit(1, 4));
    const reopened = await open();
    expect(ids(await reopened.list('bank/1', 'home')).sort()).toEqual(['obs_a_000000', 'obs_a_000001', 'obs_fine_000000']);
    expect(await reopened.revision('bank/1', 'home')).toBe(4);
    expect(logs.filter((line) => /do not match its commit line/.test(line))).toHaveLength(2);
  });
});

test('files are 0600 in a 0700 directory, named by a hash: no organisation id reaches another file or folder', async () => {
  const store = await open();
  const organisations = ['../x', '../../etc/passwd', '/abs', 'a/b', 'a_b', 'A_B', '.', 'x\u0000y'];
  for (const org of organisations) await store.append(org, 'home', [observation({ id: 'obs_1', reference: org })]);
  const files = readdirSync(dir).sort();
  expect(files).toHaveLength(organisations.length);
  for (const name of files) {
    expect(name).toMatch(/^[0-9a-f]{64}\.home\.ndjson$/);
    expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  }
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(readdirSync(root)).toEqual(['observations']);
  for (const org of organisations) expect((await store.list(org, 'home')).map((record) => record.reference)).toEqual([org]);
  // A rewrite by prune keeps the file private.
  await store.append('a/b', 'home', [observation({ id: 'obs_0', observedAt: '2000-01-01' })]);
  expect(await store.prune('2001-01-01')).toBe(1);
  for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
});

test('a prune rewrite a crash left half done (its temporary file) is removed at opening; the file it was to replace is intact', async () => {
  const store = await open();
  await store.append('bank/1', 'home', observations('a', 2));
  await store.close();
  const file = onlyFile();
  writeFileSync(`${file}.12345.0123456789ab.tmp`, 'half a rewrite');
  const reopened = await open();
  expect(readdirSync(dir)).toEqual([file.slice(dir.length + 1)]);
  expect(await reopened.list('bank/1', 'home')).toHaveLength(2);
  expect(logs[0]).toMatch(/removed .*\.tmp/);
  expect(existsSync(file)).toBe(true);
});

describe('memory holds an index, the records stay in the file (issue 33, finding 8)', () => {
  test('list() reads its records from the file: a file cut short outside the service fails the read, it is not answered from memory', async () => {
    const store = await open();
    await store.append('bank/1', 'home', observations('a', 50));
    expect(await store.list('bank/1', 'home')).toHaveLength(50);
    writeFileSync(onlyFile(), readFileSync(onlyFile()).subarray(0, 200));
    await expect(store.list('bank/1', 'home')).rejects.toThrow(/ends before byte/);
  });

  test('reads under way while records are removed and appended each read one whole state: every record of theirs whole and in order', async () => {
    const store = await open();
    const first = observations('a', 3_000);
    await store.append('bank/1', 'home', first);
    const everything = await store.list('bank/1', 'home');
    const reads = Array.from({ length: 20 }, () => store.list('bank/1', 'home'));
    const removed = store.remove('bank/1', 'home', ids(first.slice(0, 1_500)));
    const later = Array.from({ length: 20 }, () => store.list('bank/1', 'home'));
    const appended = store.append('bank/1', 'home', observations('b', 10));
    await Promise.all([removed, appended]);
    const asStored = new Map(everything.map((record) => [record.id, JSON.stringify(record)]));
    for (const read of await Promise.all([...reads, ...later])) {
      expect([3_000, 1_500, 1_510]).toContain(read.length);
      // One comparison per read (40 × 3,000 toEqual calls took 20 s): a record read from the wrong offsets would not match.
      expect(read.filter((record) => record.id.startsWith('obs_a_') && JSON.stringify(record) !== asStored.get(record.id)).map((record) => record.id)).toEqual([]);
    }
    const after = await store.list('bank/1', 'home');
    expect(after).toHaveLength(1_510);
    await store.close();
    expect(await (await open()).list('bank/1', 'home')).toEqual(after);
  });
});
