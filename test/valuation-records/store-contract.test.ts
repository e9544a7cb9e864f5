/**
 * The one behaviour every valuation record store must show (subgraphs/common/valuation-records/types.ts),
 * in memory, in files, on Redis and in PostgreSQL (each skipped, with the run's notice, when the run
 * has no such server).
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import {
  createRecordRedisClient, FileRecordStore, MemoryRecordStore, newRecordId, PostgresRecordStore, recordIdTime, RedisRecordStore,
  type RecordRedisClient, type ValuationRecord, type ValuationRecordStore,
} from '../../subgraphs/common/valuation-records';
import { DATABASE_URL, describeWithPostgres, TestSchemas } from '../support/postgres';
import { REDIS_URL, describeWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';

const RUN_PREFIX = `test:valuations:${process.pid}:${randomBytes(4).toString('hex')}:`;
let storeCount = 0;

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

function record(made: number, over: Partial<ValuationRecord> = {}): ValuationRecord {
  return {
    id: newRecordId(made),
    kind: 'home',
    createdAt: new Date(made).toISOString(),
    keepUntil: new Date(made + 365 * DAY).toISOString().slice(0, 10),
    requestId: 'req-1',
    input: { district: 'Chilanzar', area: 65, rooms: 3, nested: { list: [1, 'two', null] } },
    valuation: { estimate: 78_500, interval: { low: 71_000, high: 86_500, coverage: 0.9 }, modelVersion: '2026.11.14' },
    ...over,
  };
}

function contract(makeStore: () => Promise<ValuationRecordStore>): void {
  let stores: ValuationRecordStore[] = [];
  const open = async () => {
    const store = await makeStore();
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.map((s) => s.close()));
    stores = [];
  });

  test('gets a record by id, equal in every field, for its organisation only', async () => {
    const store = await open();
    const mine = record(at('2026-11-20T10:00:00Z'));
    await store.append('bank-a', [mine]);
    expect(await store.get('bank-a', mine.id)).toEqual(mine);
    expect(await store.get('bank-b', mine.id)).toBeNull();
    expect(await store.get('bank-a', newRecordId())).toBeNull();
  });

  test('lists newest first, within since…until (inclusive days), before an id, up to a limit', async () => {
    const store = await open();
    const made = ['2026-11-01T23:59:59Z', '2026-11-02T00:00:00Z', '2026-11-02T12:00:00Z', '2026-11-03T08:00:00Z', '2026-11-05T00:00:01Z'].map((t) => record(at(t)));
    // Appended out of order, in two calls.
    await store.append('bank-a', [made[3], made[0], made[4]]);
    await store.append('bank-a', [made[2], made[1]]);
    const ids = async (query: object) => (await store.list('bank-a', query)).map((r) => r.id);
    const newestFirst = [...made].reverse().map((r) => r.id);
    expect(await ids({})).toEqual(newestFirst);
    expect(await ids({ since: '2026-11-02', until: '2026-11-03' })).toEqual([made[3].id, made[2].id, made[1].id]);
    expect(await ids({ until: '2026-11-01' })).toEqual([made[0].id]);
    expect(await ids({ limit: 2 })).toEqual(newestFirst.slice(0, 2));
    expect(await ids({ before: made[3].id, limit: 2 })).toEqual([made[2].id, made[1].id]);
    expect(await ids({ before: made[0].id })).toEqual([]);
    expect(await store.ids('bank-a', { since: '2026-11-03' })).toEqual([made[4].id, made[3].id]);
    expect(await store.list('bank-b')).toEqual([]);
  });

  test('organisations that look alike stay apart', async () => {
    const store = await open();
    const orgs = ['a/b', 'a_b', 'a%2Fb', 'a b', 'a:b', 'ä', '💰', 'a\nb'];
    for (const [i, org] of orgs.entries()) await store.append(org, [record(at('2026-11-20T10:00:00Z') + i, { requestId: org })]);
    for (const org of orgs) {
      const listed = await store.list(org);
      expect(listed.map((r) => r.requestId)).toEqual([org]);
    }
  });

  test('prune drops what is kept until before today, and nothing else', async () => {
    const store = await open();
    const old = record(at('2024-01-01T00:00:00Z'), { keepUntil: '2026-11-23' });
    const lastDay = record(at('2024-01-02T00:00:00Z'), { keepUntil: '2026-11-24' });
    const fresh = record(at('2026-11-24T00:00:00Z'));
    await store.append('bank-a', [old, lastDay]);
    await store.append('bank-b', [fresh]);
    expect(await store.prune('2026-11-24')).toBe(1);
    expect(await store.get('bank-a', old.id)).toBeNull();
    expect((await store.list('bank-a')).map((r) => r.id)).toEqual([lastDay.id]);
    expect(await store.get('bank-b', fresh.id)).toEqual(fresh);
    expect(await store.prune('2026-11-24')).toBe(0);
  });

  test('an id sorts and dates as it was made', () => {
    const a = newRecordId(at('2026-11-24T10:00:00Z'));
    const b = newRecordId(at('2026-11-24T10:00:00.001Z'));
    expect(a < b).toBe(true);
    expect(recordIdTime(a)).toBe(at('2026-11-24T10:00:00Z'));
    expect(a).toMatch(/^val_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
}

describe('valuation records in memory', () => {
  contract(async () => new MemoryRecordStore());
});

describe('valuation records in files', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'valuation-records-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  contract(async () => FileRecordStore.open(newDir()));

  test('what was answered survives a restart; concurrent appends share writes; a torn last line is dropped', async () => {
    const dir = newDir();
    const store = await FileRecordStore.open(dir);
    const many = Array.from({ length: 200 }, (_, i) => record(at('2026-11-20T00:00:00Z') + i));
    await Promise.all(many.map((r, i) => store.append(`bank-${i % 3}`, [r])));
    await store.close();
    // The log being written (the records not yet sealed into month runs) is torn.
    const logFile = () => join(dir, readdirSync(dir).find((name) => /^log\.\d+\.ndjson$/.test(name))!);
    appendFileSync(logFile(), '{"o":"bank-0","r":{"id":"val_torn');
    const logs: string[] = [];
    const reopened = await FileRecordStore.open(dir, (m) => logs.push(m));
    expect(logs.join('\n')).toMatch(/torn last line/);
    for (const [i, r] of many.entries()) expect(await reopened.get(`bank-${i % 3}`, r.id)).toEqual(r);
    expect(readFileSync(logFile(), 'utf8').endsWith('\n')).toBe(true);
    // Pruned and appended to after the rewrite, then read back again: the index follows the log.
    const expiring = record(at('2024-01-01T00:00:00Z'), { keepUntil: '2025-01-01' });
    await reopened.append('bank-1', [expiring]);
    expect(await reopened.prune('2026-11-24')).toBe(1);
    const later = record(at('2026-11-24T00:00:00Z'));
    await reopened.append('bank-1', [later]);
    for (const [i, r] of many.entries()) expect(await reopened.get(`bank-${i % 3}`, r.id)).toEqual(r);
    await reopened.close();
    const third = await FileRecordStore.open(dir);
    expect(await third.get('bank-1', later.id)).toEqual(later);
    expect(await third.get('bank-1', expiring.id)).toBeNull();
    expect((await third.list('bank-0')).length).toBe(67);
    await third.close();
  });
});

describeWithRedis('valuation records on Redis', () => {
  const clients: RecordRedisClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await deleteKeysUnder(RUN_PREFIX, REDIS_URL);
  });
  contract(async () => {
    const client = createRecordRedisClient(REDIS_URL);
    await client.connect();
    clients.push(client);
    return new RedisRecordStore(client, { keyPrefix: `${RUN_PREFIX}${storeCount++}:` });
  });
});

describeWithPostgres('valuation records in PostgreSQL', () => {
  const schemas = new TestSchemas();
  let pool: Pool;
  beforeAll(() => {
    pool = new Pool({ connectionString: DATABASE_URL, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
    await schemas.dropAll();
  });
  contract(() => PostgresRecordStore.open({ pool, kind: 'home', schema: schemas.next() }));

  const partitionsOf = async (schema: string) =>
    (await pool.query<{ name: string }>(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '${schema}.valuations_home'::regclass ORDER BY 1`)).rows.map((r) => r.name);

  test('records go in a partition per month made; retention drops a month whole once all of it is past its day', async () => {
    const schema = schemas.next();
    const store = await PostgresRecordStore.open({ pool, kind: 'home', schema });
    const january = [record(at('2025-01-03T10:00:00Z'), { keepUntil: '2026-01-03' }), record(at('2025-01-31T23:59:59.999Z'), { keepUntil: '2026-01-31' })];
    const february = [record(at('2025-02-01T00:00:00Z'), { keepUntil: '2026-02-01' }), record(at('2025-02-20T00:00:00Z'), { keepUntil: '2027-02-20' })];
    await store.append('bank-a', [...january, february[0]]);
    await store.append('bank-b', [february[1]]);
    expect(await partitionsOf(schema)).toEqual(['valuations_home_2025_01', 'valuations_home_2025_02']);

    // January's records are all past on 2026-02-01: its partition goes; February keeps one kept longer, so only its expired row goes.
    expect(await store.prune('2026-02-02')).toBe(3);
    expect(await partitionsOf(schema)).toEqual(['valuations_home_2025_02']);
    expect(await store.get('bank-a', january[0].id)).toBeNull();
    expect(await store.get('bank-b', february[1].id)).toEqual(february[1]);
    // A month dropped is made again when a record of it comes (a late write, or another process that had it).
    const late = record(at('2025-01-15T00:00:00Z'), { keepUntil: '2030-01-01' });
    await store.append('bank-a', [late]);
    expect(await store.get('bank-a', late.id)).toEqual(late);
    await store.close();
  });

  test('another process dropping a month this one has written to does not lose the next write', async () => {
    const schema = schemas.next();
    const [one, other] = await Promise.all([PostgresRecordStore.open({ pool, kind: 'home', schema }), PostgresRecordStore.open({ pool, kind: 'home', schema })]);
    await one.append('bank-a', [record(at('2025-03-01T00:00:00Z'), { keepUntil: '2025-04-01' })]);
    expect(await other.prune('2025-05-01')).toBe(1);
    const next = record(at('2025-03-02T00:00:00Z'), { keepUntil: '2030-01-01' });
    await one.append('bank-a', [next]);
    expect(await other.get('bank-a', next.id)).toEqual(next);
  });

  test('a record is read from its own month only, and a page of a period from that period\'s months only', async () => {
    const schema = schemas.next();
    const store = await PostgresRecordStore.open({ pool, kind: 'home', schema });
    const made = ['2025-01-10', '2025-02-10', '2025-03-10', '2025-04-10'].map((day) => record(at(`${day}T12:00:00Z`)));
    await store.append('bank-a', made);
    const plan = async (sql: string, params: unknown[]) => (await pool.query(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const byId = await plan(`SELECT record FROM ${schema}.valuations_home WHERE org = $1 AND id = $2 AND made_at = $3`, ['bank-a', made[1].id, new Date(recordIdTime(made[1].id)).toISOString()]);
    expect([...new Set(byId.match(/valuations_home_\d{4}_\d{2}/g))]).toEqual(['valuations_home_2025_02']);
    expect((await store.list('bank-a', { since: '2025-02-01', until: '2025-03-31' })).map((r) => r.id)).toEqual([made[2].id, made[1].id]);
    // Keyset paging across months: the previous page's last id is the next page's bound.
    const first = await store.list('bank-a', { limit: 3 });
    const second = await store.list('bank-a', { limit: 3, before: first[first.length - 1].id });
    expect([...first, ...second].map((r) => r.id)).toEqual([...made].reverse().map((r) => r.id));
  });
});
