/**
 * The one behaviour every valuation record store must show (subgraphs/common/valuation-records/types.ts),
 * in memory, in files, on Redis and in PostgreSQL (each skipped, with the run's notice, when the run
 * has no such server).
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool, type QueryConfig } from 'pg';
import {
  createRecordRedisClient, FileRecordStore, MemoryRecordStore, newRecordId, PostgresRecordStore, recordIdTime, RedisRecordStore, sampleKey, sampleKeyPrefix,
  smallestBySampleKey, type RecordRedisClient, type RecordSample, type ValuationRecord, type ValuationRecordStore,
} from '../../subgraphs/common/valuation-records';
import { at, record } from '../support/valuation-records';
import { DATABASE_URL, describeWithPostgres, TestSchemas } from '../support/postgres';
import { REDIS_URL, describeWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';

const RUN_PREFIX = `test:valuations:${process.pid}:${randomBytes(4).toString('hex')}:`;
let storeCount = 0;


/**
 * The records every store's sampling cases hold, made once for the file so that the stores can be
 * compared with each other (the last test): bank-a's November 2026 with its bounds' neighbours,
 * and another organisation's records in the same days.
 */
const NOVEMBER = {
  inside: [
    '2026-11-01T00:00:00Z',
    ...Array.from({ length: 38 }, (_, i) => new Date(at('2026-11-01T07:00:00Z') + i * 17.3 * 3_600_000).toISOString()),
    '2026-11-30T23:59:59.999Z',
  ].map((t) => record(at(t))),
  outside: ['2026-10-31T23:59:59.999Z', '2026-12-01T00:00:00Z', '2025-11-15T12:00:00Z'].map((t) => record(at(t))),
  otherOrg: ['2026-11-01T00:00:00Z', '2026-11-10T09:00:00Z', '2026-11-20T18:00:00Z'].map((t) => record(at(t))),
};
/** A seed beyond ASCII: every store hashes its UTF-8 as JS does. */
const SEED = 'audit 2026/Q4 · sëed 💰';
/** What each store drew for the same records and seeds (the stores this run has). */
const drawnBy = new Map<string, RecordSample[]>();
/** The sample of these records: all of them by key (subgraphs/common/valuation-records/record-sample.ts), the first n. */
const expectedSample = (records: readonly ValuationRecord[], n: number, seed: string): RecordSample => ({ population: records.length, ids: smallestBySampleKey(seed, n, records).map((r) => r.id) });

function contract(name: string, makeStore: () => Promise<ValuationRecordStore>): void {
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
    expect(await store.sample('bank-a', { since: '2026-11-03' }, 10, 'x')).toEqual({ population: 2, ids: smallestBySampleKey('x', 10, [made[4], made[3]]).map((r) => r.id) });
    expect(await store.list('bank-b')).toEqual([]);
  });

  describe('a seeded sample of a period', () => {
    const stocked = async () => {
      const store = await open();
      // Shuffled across calls: the draw does not depend on the order the records came in.
      const { inside, outside, otherOrg } = NOVEMBER;
      await store.append('bank-a', [...inside.slice(20), outside[0]]);
      await store.append('bank-b', otherOrg);
      await store.append('bank-a', [outside[2], ...inside.slice(0, 20).reverse(), outside[1]]);
      return store;
    };
    const november = { since: '2026-11-01', until: '2026-11-30' };

    test('draws the n ids of smallest SHA-256(seed:id), by that key, the same again for the same seed', async () => {
      const store = await stocked();
      const drawn = await store.sample('bank-a', november, 7, SEED);
      expect(drawn).toEqual(expectedSample(NOVEMBER.inside, 7, SEED));
      expect(await store.sample('bank-a', november, 7, SEED)).toEqual(drawn);
      // A sample of fewer is the start of a sample of more: the same keys, smallest first.
      expect((await store.sample('bank-a', november, 3, SEED)).ids).toEqual(drawn.ids.slice(0, 3));
      const other = await store.sample('bank-a', november, 7, 'another seed');
      expect(other).toEqual(expectedSample(NOVEMBER.inside, 7, 'another seed'));
      expect(other.ids).not.toEqual(drawn.ids);
      drawnBy.set(name, [drawn, other, await store.sample('bank-a', {}, 12, SEED)]);
    });

    test('n larger than the period holds: all of it, by key; n = 0: none, counted all the same', async () => {
      const store = await stocked();
      const all = await store.sample('bank-a', november, 1000, SEED);
      expect(all).toEqual(expectedSample(NOVEMBER.inside, 1000, SEED));
      expect(all.ids).toHaveLength(NOVEMBER.inside.length);
      expect(await store.sample('bank-a', november, 0, SEED)).toEqual({ population: NOVEMBER.inside.length, ids: [] });
      expect(await store.sample('bank-a', {}, 1000, SEED)).toEqual(expectedSample([...NOVEMBER.inside, ...NOVEMBER.outside], 1000, SEED));
    });

    test('the period is its days, both inclusive, to the millisecond', async () => {
      const store = await stocked();
      const [lastOfOctober, firstOfDecember] = NOVEMBER.outside;
      expect(await store.sample('bank-a', { since: '2026-10-31', until: '2026-10-31' }, 5, SEED)).toEqual({ population: 1, ids: [lastOfOctober.id] });
      expect(await store.sample('bank-a', { since: '2026-12-01', until: '2026-12-01' }, 5, SEED)).toEqual({ population: 1, ids: [firstOfDecember.id] });
      expect(await store.sample('bank-a', { since: '2026-11-01', until: '2026-11-01' }, 5, SEED)).toEqual(expectedSample(NOVEMBER.inside.filter((r) => r.createdAt.startsWith('2026-11-01')), 5, SEED));
      expect(await store.sample('bank-a', { since: '2026-11-30' }, 50, SEED)).toEqual(expectedSample([NOVEMBER.inside[NOVEMBER.inside.length - 1], firstOfDecember], 50, SEED));
      expect(await store.sample('bank-a', { until: '2026-10-31' }, 50, SEED)).toEqual(expectedSample([NOVEMBER.outside[2], lastOfOctober], 50, SEED));
      expect(await store.sample('bank-a', { since: '2027-01-01', until: '2027-12-31' }, 5, SEED)).toEqual({ population: 0, ids: [] });
    });

    test("another organisation's records are never drawn nor counted", async () => {
      const store = await stocked();
      const mine = new Set([...NOVEMBER.inside, ...NOVEMBER.outside].map((r) => r.id));
      for (const seed of ['a', 'b', 'c', SEED]) for (const id of (await store.sample('bank-a', november, 1000, seed)).ids) expect(mine.has(id)).toBe(true);
      expect(await store.sample('bank-b', november, 1000, SEED)).toEqual(expectedSample(NOVEMBER.otherOrg, 1000, SEED));
      expect(await store.sample('bank-c', november, 10, SEED)).toEqual({ population: 0, ids: [] });
    });

    test('a period of more records than a store reads at a time (25,000, two months) is drawn whole', async () => {
      const store = await open();
      const start = at('2026-10-20T00:00:00Z');
      const many = Array.from({ length: 25_000 }, (_, i) => record(start + i * 150_000, { input: {}, valuation: { estimate: i } }));
      for (let i = 0; i < many.length; i += 2500) await store.append('bank-a', many.slice(i, i + 2500));
      expect(await store.sample('bank-a', {}, 50, SEED)).toEqual(expectedSample(many, 50, SEED));
      expect(await store.sample('bank-a', november, 20, SEED)).toEqual(expectedSample(many.filter((r) => r.createdAt.startsWith('2026-11')), 20, SEED));
    });

    test('records pruned are no longer drawn nor counted', async () => {
      const store = await open();
      const kept = NOVEMBER.inside.slice(0, 10);
      const expiring = NOVEMBER.inside.slice(10, 20).map((r) => ({ ...r, keepUntil: '2026-12-31' }));
      await store.append('bank-a', [...kept, ...expiring]);
      expect((await store.sample('bank-a', november, 100, SEED)).population).toBe(20);
      expect(await store.prune('2027-01-01')).toBe(10);
      expect(await store.sample('bank-a', november, 100, SEED)).toEqual(expectedSample(kept, 100, SEED));
    });
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
  contract('memory', async () => new MemoryRecordStore());
});

describe('valuation records in files', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'valuation-records-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  contract('files', async () => FileRecordStore.open(newDir()));

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
  contract('redis', async () => {
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
  contract('postgres', () => PostgresRecordStore.open({ pool, kind: 'home', schema: schemas.next() }));

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

  test("a record is read from its month's partition by name, by a statement its connection prepares and plans once; a month without one reads as none", async () => {
    const schema = schemas.next();
    // One connection, so that its prepared statements can be looked at; the store's statements kept as it sends them.
    const single = new Pool({ connectionString: DATABASE_URL, max: 1 });
    const statements: QueryConfig[] = [];
    const spied = new Proxy(single, {
      get(target, prop) {
        if (prop === 'query') return (config: QueryConfig | string, values?: unknown[]) => (typeof config === 'object' && statements.push(config), target.query(config as string, values));
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    try {
      const store = await PostgresRecordStore.open({ pool: spied, kind: 'home', schema });
      const made = ['2025-01-10', '2025-02-10', '2025-03-10'].map((day) => record(at(`${day}T12:00:00Z`), { keepUntil: '2026-01-01' }));
      await store.append('bank-a', made);
      for (let i = 0; i < 8; i++) expect(await store.get('bank-a', made[1].id)).toEqual(made[1]);
      const names = new Set(statements.map((s) => s.name));
      expect(names.size).toBe(1);
      expect(statements[0].text).toBe(`SELECT record FROM ${schema}.valuations_home_2025_02 WHERE org = $1 AND id = $2`);
      // Planned once: after its first five calls PostgreSQL keeps the generic plan (a single partition's costs no more than a custom one).
      const { rows } = await single.query<{ generic: number }>('SELECT generic_plans AS generic FROM pg_prepared_statements WHERE name = $1', [[...names][0]]);
      expect(Number(rows[0].generic)).toBeGreaterThan(0);
      // A month never made, and a month retention dropped after its statement was prepared.
      const never = record(at('2024-06-10T12:00:00Z')).id;
      expect(await store.get('bank-a', never)).toBeNull();
      expect(await store.get('bank-a', never)).toBeNull();
      expect(await store.get('bank-a', made[0].id)).toEqual(made[0]);
      expect(await store.prune('2026-06-01')).toBe(3);
      expect(await partitionsOf(schema)).toEqual([]);
      expect(await store.get('bank-a', made[0].id)).toBeNull();
      await store.close();
    } finally {
      await single.end();
    }
  });

  test("a page of a period is read from that period's months only", async () => {
    const schema = schemas.next();
    const store = await PostgresRecordStore.open({ pool, kind: 'home', schema });
    const made = ['2025-01-10', '2025-02-10', '2025-03-10', '2025-04-10'].map((day) => record(at(`${day}T12:00:00Z`)));
    await store.append('bank-a', made);
    expect((await store.list('bank-a', { since: '2025-02-01', until: '2025-03-31' })).map((r) => r.id)).toEqual([made[2].id, made[1].id]);
    // Keyset paging across months: the previous page's last id is the next page's bound.
    const first = await store.list('bank-a', { limit: 3 });
    const second = await store.list('bank-a', { limit: 3, before: first[first.length - 1].id });
    expect([...first, ...second].map((r) => r.id)).toEqual([...made].reverse().map((r) => r.id));
  });

  test("a sample is one statement over the period's months only, from the primary key's (org, id…) range, never the records", async () => {
    const schema = schemas.next();
    const statements: { text: string; values: unknown[] }[] = [];
    // The pool as the store sees it, keeping what it is asked.
    const spied = new Proxy(pool, {
      get(target, prop) {
        if (prop === 'query') return (text: string, values: unknown[]) => (statements.push({ text, values }), target.query(text, values));
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = await PostgresRecordStore.open({ pool: spied, kind: 'home', schema });
    const made = ['2025-01-10', '2025-02-10', '2025-02-20', '2025-03-10', '2025-04-10'].map((day) => record(at(`${day}T12:00:00Z`)));
    await store.append('bank-a', made);
    statements.length = 0;
    expect(await store.sample('bank-a', { since: '2025-02-01', until: '2025-03-31' }, 2, SEED)).toEqual(expectedSample(made.slice(1, 4), 2, SEED));
    expect(statements).toHaveLength(1);
    const [{ text, values }] = statements;
    expect(text).toMatch(/sha256\(\$\d+::bytea \|\| convert_to\(id, 'UTF8'\)\)/);
    // With so few rows a sequential scan is cheapest; with it off, what the planner can use shows: the primary key alone, of February and March.
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL enable_bitmapscan = off');
      const plan = (await client.query(`EXPLAIN ${text}`, values)).rows.map((r) => r['QUERY PLAN']).join('\n');
      await client.query('ROLLBACK');
      expect([...new Set(plan.match(/valuations_home_\d{4}_\d{2}/g))].sort()).toEqual(['valuations_home_2025_02', 'valuations_home_2025_03']);
      expect(plan).toMatch(/Index Only Scan using valuations_home_2025_02_pkey/);
      expect(plan).not.toMatch(/Seq Scan|Index Scan using/);
    } finally {
      client.release();
    }
  });
});

describe('the sample key', () => {
  test('is SHA-256 of the seed, a colon and the id, in UTF-8 (a value worked out apart)', () => {
    const id = 'val_01JD8Z6Q4S00000000000000AB';
    expect(sampleKey(sampleKeyPrefix('sëed 💰'), id).toString('hex')).toBe('58b6e9db9b0594aa04d2e5d7cb239ce26b7bfa00ef20f783b52aa063cfff3b53');
    expect(sampleKey(sampleKeyPrefix('x'), id).toString('hex')).toBe('61a78e1563fa2f876255052abb33978db2ca6508bdde93ba2c0f2fffbd669280');
    expect(sampleKey(sampleKeyPrefix(SEED), id)).toEqual(createHash('sha256').update(`${SEED}:${id}`).digest());
  });

  test('orders as unsigned bytes: a key starting 0x80 or above comes after one starting below it', () => {
    // Found by trying ids: one whose key starts at or above 0x80, one below (a signed compare would order them the other way).
    const prefix = sampleKeyPrefix('bytes');
    const ids = Array.from({ length: 64 }, (_, i) => `val_01JD8Z6Q4S${String(i).padStart(16, '0')}`);
    const high = ids.find((id) => sampleKey(prefix, id)[0] >= 0x80)!;
    const low = ids.find((id) => sampleKey(prefix, id)[0] < 0x80)!;
    expect(smallestBySampleKey('bytes', 2, [{ id: high }, { id: low }]).map((x) => x.id)).toEqual([low, high]);
  });
});

// Last in the file: the stores this run has, each given the same records and seeds, drew the same ids.
describe('every store', () => {
  test('draws the same sample for the same records and seed', () => {
    const drawn = [...drawnBy.entries()];
    expect(drawn.map(([name]) => name)).toEqual(expect.arrayContaining(['memory', 'files', ...(REDIS_URL ? ['redis'] : []), ...(DATABASE_URL ? ['postgres'] : [])]));
    for (const [name, samples] of drawn) expect({ name, samples }).toEqual({ name, samples: drawn[0][1] });
  });
});
