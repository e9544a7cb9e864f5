/**
 * The file store's own behaviour (issue 34, item 3), beyond the contract every store shares
 * (./store-contract.test.ts): nothing of the records kept stays in memory but the log being written,
 * the old one-log layout moves into month runs at opening, crashes leave nothing half-done behind,
 * ids appended out of order come back in order, and retention drops a month's run whole.
 * Small logs (a few hundred records) make the seals and merges of months of service happen here.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRecordStore, MemoryRecordStore, smallestBySampleKey, type FileRecordStoreOptions, type RecordQuery, type ValuationRecord, type ValuationRecordStore } from '../../subgraphs/common/valuation-records';
import { at, DAY, record } from '../support/valuation-records';


const newestFirst = (records: readonly ValuationRecord[]) => records.map((r) => r.id).sort().reverse();
/** The sample of these records every store must draw: all of them ordered by key (../../subgraphs/common/valuation-records/record-sample.ts), the first n. */
const expectedSample = (records: readonly ValuationRecord[], n: number, seed: string) => ({ population: records.length, ids: smallestBySampleKey(seed, n, records).map((r) => r.id) });
/** The ids of the organisation's records in a period, newest first. */
const idsOf = async (store: ValuationRecordStore, org: string, query: Pick<RecordQuery, 'since' | 'until'> = {}) => (await store.list(org, query)).map((r) => r.id);

/** A deterministic shuffle, so that a failure repeats. */
function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const dirs: string[] = [];
const stores: FileRecordStore[] = [];
function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'valuation-file-store-'));
  dirs.push(dir);
  return dir;
}
async function openStore(dir: string, options: FileRecordStoreOptions = {}, log: (message: string) => void = () => undefined): Promise<FileRecordStore> {
  const store = await FileRecordStore.open(dir, log, options);
  stores.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const runFiles = (dir: string): string[] =>
  existsSync(join(dir, 'months')) ? readdirSync(join(dir, 'months')).flatMap((month) => readdirSync(join(dir, 'months', month)).map((name) => `${month}/${name}`)).sort() : [];
const logFiles = (dir: string): string[] => readdirSync(dir).filter((name) => /^log\.\d+\.ndjson$/.test(name));

test('memory does not grow with the records kept: only the log being written is indexed, the rest is in month runs on disk', async () => {
  const dir = newDir();
  const options = { logMaxRecords: 300, fanIn: 4, cachePages: 64 };
  const store = await openStore(dir, options);
  // Three months and a half of records, four organisations, appended in calls of one to three.
  const made: ValuationRecord[] = [];
  const start = at('2025-01-01T00:00:00Z');
  for (let i = 0; i < 6000; i++) made.push(record(start + i * 25 * 60_000));
  for (let i = 0; i < made.length; ) {
    const calls: Promise<void>[] = [];
    for (let c = 0; c < 50 && i < made.length; c++) {
      const n = 1 + (i % 3);
      calls.push(store.append(`bank-${i % 4}`, made.slice(i, i + n)));
      i += n;
    }
    await Promise.all(calls);
  }
  await store.settled();
  const org = (i: number) => {
    // The organisation of record i: calls of 1 + (first % 3) records each, from `first`.
    let first = 0;
    while (first + 1 + (first % 3) <= i) first += 1 + (first % 3);
    return `bank-${first % 4}`;
  };
  const held = store.memory();
  expect(held.logRecords).toBeLessThanOrEqual(300);
  // Months over are merged into one run each; the current month keeps fewer than fanIn runs of each level.
  expect(held.runs).toBeLessThanOrEqual(3 + 3 * 3);
  await store.close();

  const reopened = await openStore(dir, options);
  expect(reopened.memory().logRecords).toBeLessThanOrEqual(300);
  expect(reopened.memory().runs).toBe(held.runs);
  for (let i = 0; i < made.length; i += 97) expect(await reopened.get(org(i), made[i].id)).toEqual(made[i]);
  expect(reopened.memory().cachedPages).toBeLessThanOrEqual(64);
  const all = (await Promise.all([0, 1, 2, 3].map((o) => idsOf(reopened, `bank-${o}`)))).flat();
  expect(all.length).toBe(made.length);
  expect(new Set(all).size).toBe(made.length);
  // A sample walks the runs' indexes a chunk at a time, the cache as bounded as ever.
  const bank0 = made.filter((_, i) => org(i) === 'bank-0');
  expect(await reopened.sample('bank-0', {}, 25, 'audit-2025')).toEqual(expectedSample(bank0, 25, 'audit-2025'));
  const february = made.filter((r) => r.createdAt.startsWith('2025-02'));
  const feb = await Promise.all([0, 1, 2, 3].map((o) => reopened.sample(`bank-${o}`, { since: '2025-02-01', until: '2025-02-28' }, 5, 'feb')));
  expect(feb.reduce((sum, x) => sum + x.population, 0)).toBe(february.length);
  expect(reopened.memory().cachedPages).toBeLessThanOrEqual(64);
  // A month over is one run; the logs on disk are at most one being written (and one being sealed).
  expect(runFiles(dir).filter((name) => name.startsWith('2025-01/'))).toHaveLength(2);
  expect(logFiles(dir).length).toBeLessThanOrEqual(2);
});

test('the old one-log layout (records.ndjson) moves into month runs at opening, is renamed aside, and nothing is lost or doubled', async () => {
  const dir = newDir();
  const orgs = ['bank-a', 'a/b', '💰 bank', 'a\nb'];
  const old: { org: string; r: ValuationRecord }[] = [];
  for (let i = 0; i < 900; i++) old.push({ org: orgs[i % orgs.length], r: record(at('2024-10-20T00:00:00Z') + i * 3 * 3_600_000 - (i % 5) * 60_000) });
  const expired = { org: 'bank-a', r: record(at('2024-10-21T00:00:00Z'), { keepUntil: '2024-12-31' }) };
  const lines = [...old, expired].map(({ org, r }) => `${JSON.stringify({ o: org, r })}\n`);
  // An id written twice (the old index kept the first) and a torn last line.
  lines.push(`${JSON.stringify({ o: old[3].org, r: { ...old[3].r, requestId: 'second' } })}\n`, '{"o":"bank-a","r":{"id":"val_');
  writeFileSync(join(dir, 'records.ndjson'), lines.join(''));

  const logs: string[] = [];
  const store = await openStore(dir, { logMaxBytes: 40_000, fanIn: 3 }, (m) => logs.push(m));
  expect(logs.join('\n')).toMatch(/torn last line of records\.ndjson/);
  expect(logs.join('\n')).toMatch(/records\.ndjson\.migrated/);
  expect(existsSync(join(dir, 'records.ndjson'))).toBe(false);
  expect(existsSync(join(dir, 'records.ndjson.migrated'))).toBe(true);
  expect(runFiles(dir).map((name) => name.slice(0, 7))).toEqual(expect.arrayContaining(['2024-10', '2024-11', '2024-12', '2025-01']));
  for (const { org, r } of old) expect(await store.get(org, r.id)).toEqual(r);
  for (const org of orgs) expect((await store.list(org)).map((r) => r.id)).toEqual(newestFirst([...old, expired].filter((o) => o.org === org).map((o) => o.r)));
  expect(await store.get('bank-a', expired.r.id)).toEqual(expired.r);
  await store.settled();
  // Retention applies to what was moved.
  expect(await store.prune('2025-01-01')).toBe(1);
  await store.close();

  // Opened again: nothing moved twice, nothing lost.
  const logs2: string[] = [];
  const reopened = await openStore(dir, { logMaxBytes: 40_000, fanIn: 3 }, (m) => logs2.push(m));
  expect(logs2.join('\n')).not.toMatch(/records\.ndjson/);
  for (const org of orgs) expect((await idsOf(reopened, org)).length).toBe(old.filter((o) => o.org === org).length);
  expect(await reopened.get('bank-a', expired.r.id)).toBeNull();
});

test('a move of the old log interrupted part way resumes from where the manifest says, without doubling what was moved', async () => {
  const dir = newDir();
  const old = Array.from({ length: 200 }, (_, i) => record(at('2025-03-01T00:00:00Z') + i * 60_000));
  const text = old.map((r) => `${JSON.stringify({ o: 'bank-a', r })}\n`).join('');
  writeFileSync(join(dir, 'records.ndjson'), text);
  const store = await openStore(dir, { logMaxBytes: 10_000 });
  await store.close();
  stores.length = 0;
  // As if the process had stopped after moving the first 120 lines: the old log still there, the manifest's offset at line 120.
  writeFileSync(join(dir, 'records.ndjson'), text);
  rmSync(join(dir, 'records.ndjson.migrated'));
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  manifest.legacyOffset = text.split('\n').slice(0, 120).join('\n').length + 1;
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const logs: string[] = [];
  const resumed = await openStore(dir, { logMaxBytes: 10_000 }, (m) => logs.push(m));
  expect(logs.join('\n')).toMatch(/from byte \d+/);
  expect(logs.join('\n')).toMatch(/80 records of records\.ndjson/);
  expect(await idsOf(resumed, 'bank-a')).toEqual(newestFirst(old));
  expect(await resumed.sample('bank-a', {}, 30, 'resumed')).toEqual(expectedSample(old, 30, 'resumed'));
  expect((await resumed.list('bank-a', { limit: 50, before: old[150].id })).map((r) => r.id)).toEqual(newestFirst(old.slice(100, 150)));
  await resumed.settled();
  expect(await idsOf(resumed, 'bank-a')).toEqual(newestFirst(old));
});

test('reopened after a torn write: the torn line is cut off, the log appended to again, nothing before it lost', async () => {
  const dir = newDir();
  const store = await openStore(dir);
  const first = Array.from({ length: 30 }, (_, i) => record(at('2025-05-01T00:00:00Z') + i * 1000));
  await Promise.all(first.map((r) => store.append('bank-a', [r])));
  await store.close();
  const [log] = logFiles(dir);
  const before = readFileSync(join(dir, log)).length;
  appendFileSync(join(dir, log), '{"o":"bank-a","r":{"id":"val_01J');

  const logs: string[] = [];
  const reopened = await openStore(dir, {}, (m) => logs.push(m));
  expect(logs.join('\n')).toMatch(/dropped a torn last line of log\.\d+\.ndjson \(\d+ bytes\)/);
  expect(readFileSync(join(dir, log)).length).toBe(before);
  const next = record(at('2025-05-02T00:00:00Z'));
  await reopened.append('bank-a', [next]);
  await reopened.close();
  const third = await openStore(dir, {}, (m) => logs.push(m));
  expect(await idsOf(third, 'bank-a')).toEqual(newestFirst([...first, next]));
  expect(await third.get('bank-a', next.id)).toEqual(next);
});

test('appends of one turn go out in one write and fsync; their lines, multi-byte and longer than the encoding buffer, read back after reopening', async () => {
  const dir = newDir();
  const store = await openStore(dir);
  const handle = await openFile(join(dir, 'probe'), 'w');
  const datasync = jest.spyOn(Object.getPrototypeOf(handle) as { datasync(): Promise<void> }, 'datasync');
  await handle.close();
  try {
    // Text beyond ASCII (a valuation's drivers and places), and one record of more than the 1 MiB the lines are first encoded into.
    const made = Array.from({ length: 20 }, (_, i) => record(at('2025-05-01T00:00:00Z') + i * 1000, { valuation: { estimate: 70_000 + i, driver: `Tashkent › Chilanzar −${i}% ≤ 0.3 Oʻzbekiston` } }));
    made.push(record(at('2025-05-01T01:00:00Z'), { valuation: { long: 'ʻ'.repeat(400_000), estimate: 1 } }));
    await Promise.all(made.map((r) => store.append(r.id.endsWith('0') ? 'bank-b' : 'bank-a', [r])));
    expect(datasync).toHaveBeenCalledTimes(1);
    await store.close();
    const reopened = await openStore(dir);
    for (const r of made) expect(await reopened.get(r.id.endsWith('0') ? 'bank-b' : 'bank-a', r.id)).toEqual(r);
    // The log's lines are the records' JSON, as before.
    const lines = readFileSync(join(dir, logFiles(dir)[0]), 'utf8').trimEnd().split('\n');
    expect(lines).toEqual(made.map((r) => JSON.stringify({ o: r.id.endsWith('0') ? 'bank-b' : 'bank-a', r })));
  } finally {
    datasync.mockRestore();
  }
});

test('ids appended out of order, across seals and a month boundary, list newest first and page without gaps', async () => {
  const dir = newDir();
  const store = await openStore(dir, { logMaxRecords: 40, fanIn: 3 });
  // Made over three days around a month's end, appended shuffled (a valuation made earlier can be recorded later).
  const made = Array.from({ length: 500 }, (_, i) => record(at('2025-06-29T00:00:00Z') + i * 517_000));
  for (const chunk of shuffled(made).reduce<ValuationRecord[][]>((calls, r, i) => (i % 5 === 0 ? [...calls, [r]] : (calls[calls.length - 1].push(r), calls)), [])) {
    await store.append('bank-a', chunk);
  }
  await store.append('bank-b', [record(at('2025-06-30T00:00:00Z'))]);
  const check = async (s: FileRecordStore) => {
    expect(await idsOf(s, 'bank-a')).toEqual(newestFirst(made));
    const paged: string[] = [];
    for (let page = await s.list('bank-a', { limit: 37 }); page.length > 0; page = await s.list('bank-a', { limit: 37, before: paged[paged.length - 1] })) {
      paged.push(...page.map((r) => r.id));
    }
    expect(paged).toEqual(newestFirst(made));
    const june30 = made.filter((r) => r.createdAt.startsWith('2025-06-30'));
    expect((await s.list('bank-a', { since: '2025-06-30', until: '2025-06-30' })).map((r) => r.id)).toEqual(newestFirst(june30));
    expect(await idsOf(s, 'bank-a', { since: '2025-07-01' })).toEqual(newestFirst(made.filter((r) => r.createdAt >= '2025-07-01')));
    expect(await s.sample('bank-a', { since: '2025-07-01' }, 40, 'july')).toEqual(expectedSample(made.filter((r) => r.createdAt >= '2025-07-01'), 40, 'july'));
    expect(await s.sample('bank-a', {}, 1000, 'all')).toEqual(expectedSample(made, 1000, 'all'));
    for (const r of made.filter((_, i) => i % 23 === 0)) expect(await s.get('bank-a', r.id)).toEqual(r);
  };
  await check(store);
  await store.settled();
  expect(runFiles(dir).some((name) => name.startsWith('2025-06/'))).toBe(true);
  expect(runFiles(dir).some((name) => name.startsWith('2025-07/'))).toBe(true);
  await check(store);
  await store.close();
  await check(await openStore(dir, { logMaxRecords: 40, fanIn: 3 }));
});

test('reads while logs are sealed and runs merged away find every record (a run merged away is deleted only after the reads that saw it)', async () => {
  const dir = newDir();
  const store = await openStore(dir, { logMaxRecords: 25, fanIn: 2, cachePages: 4 });
  const made: ValuationRecord[] = [];
  for (let i = 0; i < 600; i++) {
    const r = record(at('2025-02-01T00:00:00Z') + i * 97_000);
    made.push(r);
    const appended = store.append('bank-a', [r]);
    if (i % 10 === 9) {
      await appended;
      // Read while the seals and merges this append set off go on in the background.
      const sample = made[(i * 7) % made.length];
      const expected = newestFirst(made).slice(0, 20);
      await Promise.all([
        store.get('bank-a', sample.id).then((got) => expect(got).toEqual(sample)),
        store.list('bank-a', { limit: 20 }).then((page) => expect(page.map((p) => p.id)).toEqual(expected)),
        idsOf(store, 'bank-a').then((ids) => expect(ids.length).toBe(made.length)),
        ((expected) => store.sample('bank-a', {}, 15, `s${i}`).then((drawn) => expect(drawn).toEqual(expected)))(expectedSample(made, 15, `s${i}`)),
      ]);
    }
  }
  await store.settled();
  expect(await idsOf(store, 'bank-a')).toEqual(newestFirst(made));
});

test('retention drops a month\'s run whole when all of it is past, rewrites one holding longer-kept records, and the manifest agrees after reopening', async () => {
  const dir = newDir();
  const options = { logMaxRecords: 50 };
  const store = await openStore(dir, options);
  const january = Array.from({ length: 60 }, (_, i) => record(at('2025-01-05T00:00:00Z') + i * 3_600_000, { keepUntil: '2025-06-30' }));
  const february = Array.from({ length: 60 }, (_, i) => record(at('2025-02-05T00:00:00Z') + i * 3_600_000, { keepUntil: i % 2 ? '2026-02-01' : '2025-06-30' }));
  const june = record(at('2025-06-20T00:00:00Z'), { keepUntil: '2025-06-30' });
  await store.append('bank-a', january);
  await store.append('bank-b', february);
  await store.append('bank-a', [june]);
  await store.settled();
  const before = runFiles(dir);
  expect(before.some((name) => name.startsWith('2025-01/'))).toBe(true);
  const februaryRuns = before.filter((name) => name.startsWith('2025-02/'));

  expect(await store.prune('2025-07-01')).toBe(60 + 30 + 1);
  const after = runFiles(dir);
  expect(existsSync(join(dir, 'months', '2025-01'))).toBe(false);
  // February's run is a new one, holding only what is kept longer.
  expect(after.filter((name) => name.startsWith('2025-02/'))).not.toEqual(februaryRuns);
  expect(await idsOf(store, 'bank-b')).toEqual(newestFirst(february.filter((_, i) => i % 2)));
  expect(await store.list('bank-a')).toEqual([]);
  expect(await store.get('bank-a', june.id)).toBeNull();
  expect(await store.prune('2025-07-01')).toBe(0);
  await store.close();
  const reopened = await openStore(dir, options);
  expect(await idsOf(reopened, 'bank-b')).toEqual(newestFirst(february.filter((_, i) => i % 2)));
  expect(await idsOf(reopened, 'bank-a')).toEqual([]);
  expect(runFiles(dir)).toEqual(after);
});

test('files of an interrupted seal or merge are removed at opening; a log already sealed is not read twice', async () => {
  const dir = newDir();
  const store = await openStore(dir, { logMaxRecords: 10 });
  const made = Array.from({ length: 25 }, (_, i) => record(at('2025-04-01T00:00:00Z') + i * 1000));
  for (const r of made) await store.append('bank-a', [r]);
  await store.settled();
  await store.close();
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  // A run written but never put in the manifest, and a copy of a log the manifest counts as sealed.
  mkdirSync(join(dir, 'months', '2025-04'), { recursive: true });
  writeFileSync(join(dir, 'months', '2025-04', '99999999.dat'), 'half');
  writeFileSync(join(dir, 'months', '2025-04', '99999999.idx'), '');
  writeFileSync(join(dir, `log.${manifest.logSealedThrough}.ndjson`), `${JSON.stringify({ o: 'bank-a', r: made[0] })}\n`);
  const logs: string[] = [];
  const reopened = await openStore(dir, { logMaxRecords: 10 }, (m) => logs.push(m));
  expect(logs.join('\n')).toMatch(/removed 2 files of an interrupted seal or merge/);
  expect(runFiles(dir)).not.toContain('2025-04/99999999.dat');
  expect(logFiles(dir)).not.toContain(`log.${manifest.logSealedThrough}.ndjson`);
  expect(await idsOf(reopened, 'bank-a')).toEqual(newestFirst(made));
});

test('an id held twice (sealed in a run, and appended again to the log) is listed, counted and drawn once', async () => {
  const dir = newDir();
  const store = await openStore(dir, { logMaxRecords: 10 });
  const made = Array.from({ length: 30 }, (_, i) => record(at('2025-04-01T00:00:00Z') + i * 60_000));
  for (const r of made) await store.append('bank-a', [r]);
  await store.settled();
  expect(runFiles(dir).length).toBeGreaterThan(0);
  // The first ten again: in runs and in the current log both (the first written is what is read).
  await store.append('bank-a', made.slice(0, 10).map((r) => ({ ...r, requestId: 'again' })));
  expect(await idsOf(store, 'bank-a')).toEqual(newestFirst(made));
  expect(await store.sample('bank-a', {}, 100, 'twice')).toEqual(expectedSample(made, 100, 'twice'));
  expect(await store.sample('bank-a', {}, 3, 'twice')).toEqual(expectedSample(made, 3, 'twice'));
});

test('a sample of a month sealed into one run of more entries than a read takes walks it chunk by chunk, merged with the log', async () => {
  const dir = newDir();
  const store = await openStore(dir, { logMaxRecords: 5000 });
  const november = Array.from({ length: 20_000 }, (_, i) => record(at('2025-11-01T00:00:00Z') + i * 120_000, { input: {}, valuation: {} }));
  for (let i = 0; i < november.length; i += 2000) await store.append('bank-a', november.slice(i, i + 2000));
  // Made two days after November's end: November is over, merged into one run.
  const december = Array.from({ length: 30 }, (_, i) => record(at('2025-12-03T00:00:00Z') + i * 1000));
  await store.append('bank-a', december);
  await store.settled();
  expect(runFiles(dir).filter((name) => name.startsWith('2025-11/') && name.endsWith('.idx'))).toHaveLength(1);
  expect(await store.sample('bank-a', {}, 60, 'chunks')).toEqual(expectedSample([...november, ...december], 60, 'chunks'));
  expect(await store.sample('bank-a', { since: '2025-11-10', until: '2025-11-25' }, 60, 'chunks')).toEqual(
    expectedSample(november.filter((r) => r.createdAt >= '2025-11-10' && r.createdAt < '2025-11-26'), 60, 'chunks'),
  );
});

test('an append with an id that is not a record id is refused, and nothing of it is kept', async () => {
  const store = await openStore(newDir());
  const good = record(at('2025-04-01T00:00:00Z'));
  await expect(store.append('bank-a', [good, { ...good, id: 'val_nope' }])).rejects.toThrow(/not a valuation record id/);
  expect(await store.list('bank-a')).toEqual([]);
});

test('answers as the in-memory store does through random appends, reads, prunes and reopenings', async () => {
  const dir = newDir();
  const options = { logMaxRecords: 30, fanIn: 3, cachePages: 8, monthGraceMs: 3 * DAY };
  let store = await openStore(dir, options);
  const memory = new MemoryRecordStore();
  let s = 99;
  const rand = (n: number) => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) % n;
  const orgs = ['a', 'b', 'c/d', 'é'];
  const base = at('2025-01-20T00:00:00Z');
  const ids: string[] = [];
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  let clock = base;
  for (let step = 0; step < 400; step++) {
    const op = rand(100);
    if (op < 60) {
      clock += rand(8 * 3_600_000);
      // Up to an hour late, kept 10 to 200 days.
      const records = Array.from({ length: 1 + rand(4) }, () => record(clock - rand(3_600_000), { keepUntil: day(clock + (10 + rand(190)) * DAY) }));
      const org = orgs[rand(orgs.length)];
      await Promise.all([store.append(org, records), memory.append(org, records)]);
      ids.push(...records.map((r) => r.id));
    } else if (op < 90) {
      const org = orgs[rand(orgs.length)];
      const query: RecordQuery = {};
      if (rand(2)) query.since = day(base + rand(Math.max(1, clock - base)));
      if (rand(2)) query.until = day(base + rand(Math.max(1, clock - base)));
      if (rand(2) && ids.length > 0) query.before = ids[rand(ids.length)];
      if (rand(2)) query.limit = 1 + rand(40);
      expect(await store.list(org, query)).toEqual(await memory.list(org, query));
      expect(await idsOf(store, org, { since: query.since, until: query.until })).toEqual(await idsOf(memory, org, { since: query.since, until: query.until }));
      const n = rand(30);
      expect(await store.sample(org, { since: query.since, until: query.until }, n, `seed-${step}`)).toEqual(await memory.sample(org, { since: query.since, until: query.until }, n, `seed-${step}`));
      if (ids.length > 0) {
        const id = ids[rand(ids.length)];
        expect(await store.get(org, id)).toEqual(await memory.get(org, id));
      }
    } else if (op < 95) {
      const today = day(clock - rand(60) * DAY + 40 * DAY);
      expect(await store.prune(today)).toBe(await memory.prune(today));
    } else {
      await store.close();
      stores.length = 0;
      store = await openStore(dir, options);
    }
  }
  await store.settled();
  for (const org of orgs) expect(await store.list(org)).toEqual(await memory.list(org));
});
