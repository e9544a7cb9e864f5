/**
 * The one behaviour every observation store must show (subgraphs/common/observation-store/types.ts), run
 * against the store in memory, in files, on Redis and in PostgreSQL (each skipped, with the run's
 * notice, when the run has no such server: test/jest-global-setup.js).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { createObservationRedisClient, FileObservationStore, InvalidObservationError, PostgresObservationStore, RedisObservationStore, RetentionSweep, type ObservationRedisClient, type ObservationStore, type StoredObservation } from '../../subgraphs/common/observation-store';
import { DATABASE_URL, describeWithPostgres, TestSchemas } from '../support/postgres';
import { REDIS_URL, describeWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { observation, observations } from './fixtures/observations';

const RUN_PREFIX = `test:observations:${process.pid}:${randomBytes(4).toString('hex')}:`;
let storeCount = 0;

type MakeStore = () => Promise<ObservationStore>;

const ids = (records: readonly StoredObservation[]) => records.map((record) => record.id);

/** Organisation ids an encoding could fold together, or that could reach outside a directory. */
const LOOKALIKE_ORGANISATIONS = ['a/b', 'a_b', 'a%2Fb', 'a%252Fb', 'a:b', 'a b', 'a+b', 'A/B', '../x', '..', '.', 'x/..', 'home:a', 'index', 'ä', 'a\u0308', '💰', 'a\\b', 'a\nb'];

function observationStoreContract(makeStore: MakeStore): void {
  let stores: ObservationStore[] = [];
  async function open(): Promise<ObservationStore> {
    const store = await makeStore();
    stores.push(store);
    return store;
  }
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    stores = [];
  });

  test('lists what was appended, equal in every field, newest observedAt first and newest id first within a day', async () => {
    const store = await open();
    const records = [
      observation({ id: 'obs_b', observedAt: '2024-03-10', reference: 'R-1', priceType: 'appraisal', base: null }),
      observation({ id: 'obs_a', observedAt: '2024-03-12', priceUsd: 70_250.5 }),
      observation({ id: 'obs_d', observedAt: '2024-03-10', groups: { district: 'Yunusobod', segment: 'new-build' } }),
      observation({ id: 'obs_c', observedAt: '2023-12-31', priceType: 'listing', input: { nested: { deep: [1, 'two', null] } } }),
    ];
    await store.append('org-a', 'home', records);
    const listed = await store.list('org-a', 'home');
    expect(ids(listed)).toEqual(['obs_a', 'obs_d', 'obs_b', 'obs_c']);
    expect(listed).toEqual([records[1], records[2], records[0], records[3]]);
  });

  test('ids order as plain strings within a day, prefixes first (obs_1 < obs_10 < obs_2)', async () => {
    const store = await open();
    await store.append('org-a', 'home', ['obs_10', 'obs_2', 'obs_1', 'obs_1-x', 'obs_1.x', 'obs_1_x', 'obs_1:x'].map((id) => observation({ id })));
    expect(ids(await store.list('org-a', 'home'))).toEqual(['obs_2', 'obs_1_x', 'obs_1:x', 'obs_10', 'obs_1.x', 'obs_1-x', 'obs_1']);
  });

  test('since and until bound observedAt, both inclusive; limit keeps the newest', async () => {
    const store = await open();
    const days = ['2024-01-01', '2024-01-15', '2024-02-01', '2024-02-01', '2024-03-01'];
    await store.append('org-a', 'home', days.map((observedAt, i) => observation({ id: `obs_${i}`, observedAt })));
    const listed = async (query: object) => ids(await store.list('org-a', 'home', query));
    expect(await listed({ since: '2024-01-15' })).toEqual(['obs_4', 'obs_3', 'obs_2', 'obs_1']);
    expect(await listed({ until: '2024-02-01' })).toEqual(['obs_3', 'obs_2', 'obs_1', 'obs_0']);
    expect(await listed({ since: '2024-01-02', until: '2024-02-29' })).toEqual(['obs_3', 'obs_2', 'obs_1']);
    expect(await listed({ since: '2024-02-01', until: '2024-02-01' })).toEqual(['obs_3', 'obs_2']);
    expect(await listed({ limit: 2 })).toEqual(['obs_4', 'obs_3']);
    expect(await listed({ until: '2024-02-01', limit: 3 })).toEqual(['obs_3', 'obs_2', 'obs_1']);
    expect(await listed({ since: '2024-03-02' })).toEqual([]);
    expect(await listed({ limit: 0 })).toEqual([]);
    expect(await listed({ limit: 99 })).toHaveLength(5);
  });

  test('offset pages in list order, within the bounds', async () => {
    const store = await open();
    const days = ['2024-01-01', '2024-01-15', '2024-02-01', '2024-02-01', '2024-03-01'];
    await store.append('org-a', 'home', days.map((observedAt, i) => observation({ id: `obs_${i}`, observedAt })));
    const listed = async (query: object) => ids(await store.list('org-a', 'home', query));
    expect(await listed({ offset: 1, limit: 2 })).toEqual(['obs_3', 'obs_2']);
    expect(await listed({ offset: 3 })).toEqual(['obs_1', 'obs_0']);
    expect(await listed({ until: '2024-02-01', offset: 1, limit: 2 })).toEqual(['obs_2', 'obs_1']);
    expect(await listed({ since: '2024-01-15', offset: 3 })).toEqual(['obs_1']);
    expect(await listed({ offset: 5 })).toEqual([]);
    await expect(store.list('org-a', 'home', { offset: -1 })).rejects.toThrow(/offset/);
  });

  test('a bad query is refused', async () => {
    const store = await open();
    await expect(store.list('org-a', 'home', { since: '2024-02-30' })).rejects.toThrow(InvalidObservationError);
    await expect(store.list('org-a', 'home', { until: '1 May 2024' })).rejects.toThrow(/until must be an ISO date/);
    await expect(store.list('org-a', 'home', { limit: -1 })).rejects.toThrow(/limit/);
    await expect(store.list('org-a', 'flat' as 'home')).rejects.toThrow(/kind/);
  });

  test('kinds are kept apart', async () => {
    const store = await open();
    await store.append('org-a', 'home', [observation({ id: 'obs_home' })]);
    await store.append('org-a', 'vehicle', [observation({ id: 'obs_car', kind: 'vehicle' })]);
    expect(ids(await store.list('org-a', 'home'))).toEqual(['obs_home']);
    expect(ids(await store.list('org-a', 'vehicle'))).toEqual(['obs_car']);
    expect(await store.revision('org-a', 'home')).toBe(1);
    expect(await store.revision('org-a', 'vehicle')).toBe(1);
  });

  test('an organisation reads its own observations only, whatever characters tell its id from another', async () => {
    const store = await open();
    for (const [i, org] of LOOKALIKE_ORGANISATIONS.entries()) {
      for (let call = 0; call <= i % 3; call++) await store.append(org, 'home', [observation({ id: `obs_${i}_${call}`, reference: org })]);
    }
    for (const [i, org] of LOOKALIKE_ORGANISATIONS.entries()) {
      const listed = await store.list(org, 'home');
      expect({ org, references: listed.map((record) => record.reference) }).toEqual({ org, references: Array(1 + (i % 3)).fill(org) });
      expect({ org, revision: await store.revision(org, 'home') }).toEqual({ org, revision: 1 + (i % 3) });
      expect(await store.list(org, 'vehicle')).toEqual([]);
    }
    expect(await store.list('a', 'home')).toEqual([]);
    expect(await store.revision('never-sent', 'home')).toBe(0);
  });

  test('organisation ids no store can keep apart are refused', async () => {
    const store = await open();
    const record = [observation({ id: 'obs_1' })];
    await expect(store.append('', 'home', record)).rejects.toThrow(/non-empty/);
    await expect(store.append('a\uD800', 'home', record)).rejects.toThrow(/lone surrogate/);
    await expect(store.append('x'.repeat(257), 'home', record)).rejects.toThrow(/longer than/);
    await expect(store.list('', 'home')).rejects.toThrow(InvalidObservationError);
  });

  test('a call with one record that cannot be serialised stores nothing, and the revision stays', async () => {
    const store = await open();
    await store.append('org-a', 'home', [observation({ id: 'obs_kept' })]);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const bad = [
      [...observations('big', 300), observation({ id: 'obs_bigint', input: { area: BigInt(70) } })],
      [observation({ id: 'obs_circular', input: circular }), ...observations('c', 10)],
    ];
    for (const records of bad) {
      await expect(store.append('org-a', 'home', records)).rejects.toThrow(/cannot be serialised: .+; nothing of the call was stored/);
    }
    expect(ids(await store.list('org-a', 'home'))).toEqual(['obs_kept']);
    expect(await store.revision('org-a', 'home')).toBe(1);
  });

  test('a call with one invalid record stores nothing, and says which record', async () => {
    const store = await open();
    const cases: Array<[Partial<StoredObservation>, RegExp]> = [
      [{ observedAt: '2024-02-30' }, /observation 3 of 3 \(id "obs_bad"\): observedAt must be an ISO date/],
      [{ kind: 'vehicle' }, /kind "vehicle" is not the call's \(home\)/],
      [{ priceUsd: Number.NaN }, /priceUsd must be a finite number/],
      [{ priceType: 'auction' as 'sale' }, /priceType/],
      [{ recordedAt: 'yesterday' }, /recordedAt/],
      [{ id: 'obs "quoted"' }, /the id must be/],
      [{ id: '' }, /the id must be/],
    ];
    for (const [fields, message] of cases) {
      await expect(store.append('org-a', 'home', [...observations('ok', 2), observation({ id: 'obs_bad', ...fields })])).rejects.toThrow(message);
    }
    expect(await store.list('org-a', 'home')).toEqual([]);
    expect(await store.revision('org-a', 'home')).toBe(0);
  });

  test('append returns the new revision; revision() reads it; an empty call changes nothing', async () => {
    const store = await open();
    expect(await store.revision('org-a', 'home')).toBe(0);
    const first = await store.append('org-a', 'home', observations('one', 3));
    const second = await store.append('org-a', 'home', observations('two', 3));
    expect(second).not.toBe(first);
    expect(await store.revision('org-a', 'home')).toBe(second);
    expect(await store.append('org-a', 'home', [])).toBe(second);
    expect(await store.revision('org-a', 'home')).toBe(second);
    expect(await store.append('org-b', 'home', [])).toBe(0);
    expect(await store.revision('org-b', 'home')).toBe(0);
    expect(await store.list('org-a', 'home')).toHaveLength(6);
  });

  test('concurrent appends all land, each with a revision of its own', async () => {
    const store = await open();
    const revisions = await Promise.all(Array.from({ length: 20 }, (_, call) => store.append('org-a', 'home', observations(`c${String(call).padStart(2, '0')}`, 25))));
    expect(new Set(revisions).size).toBe(20);
    expect(await store.revision('org-a', 'home')).toBe(Math.max(...revisions));
    expect(await store.list('org-a', 'home')).toHaveLength(500);
  });

  test('prune drops what was observed before the date across organisations, and changes the revision of those it changed only', async () => {
    const store = await open();
    const dated = (tag: string, days: string[]) => days.map((observedAt, i) => observation({ id: `obs_${tag}_${i}`, observedAt }));
    await store.append('org-a', 'home', dated('a', ['2022-01-01', '2023-05-31', '2023-06-01', '2024-01-01']));
    await store.append('org-b', 'home', dated('b', ['2021-07-07']));
    await store.append('org-b', 'vehicle', dated('bv', ['2023-01-01', '2024-02-02']).map((record) => ({ ...record, kind: 'vehicle' as const })));
    await store.append('org-c', 'home', dated('c', ['2024-03-03']));
    const before = await Promise.all([['org-a', 'home'], ['org-b', 'home'], ['org-b', 'vehicle'], ['org-c', 'home']].map(([org, kind]) => store.revision(org, kind as 'home')));

    expect(await store.prune('2023-06-01')).toBe(4);
    expect(ids(await store.list('org-a', 'home'))).toEqual(['obs_a_3', 'obs_a_2']);
    expect(await store.list('org-b', 'home')).toEqual([]);
    expect(ids(await store.list('org-b', 'vehicle'))).toEqual(['obs_bv_1']);
    expect(ids(await store.list('org-c', 'home'))).toEqual(['obs_c_0']);
    expect(await store.revision('org-a', 'home')).not.toBe(before[0]);
    expect(await store.revision('org-b', 'home')).not.toBe(before[1]);
    expect(await store.revision('org-b', 'vehicle')).not.toBe(before[2]);
    expect(await store.revision('org-c', 'home')).toBe(before[3]);

    const after = await store.revision('org-a', 'home');
    expect(await store.prune('2023-06-01')).toBe(0);
    expect(await store.revision('org-a', 'home')).toBe(after);
    // Appends after a prune go on from its revision.
    const next = await store.append('org-a', 'home', [observation({ id: 'obs_a_9', observedAt: '2024-09-09' })]);
    expect(next).not.toBe(after);
    expect(ids(await store.list('org-a', 'home'))).toEqual(['obs_a_9', 'obs_a_3', 'obs_a_2']);
  });

  test('remove takes the organisation\'s own observations of the kind by id, all at once; count counts what is kept (issue 33, findings 6 and 8)', async () => {
    const store = await open();
    await store.append('org-a', 'home', ['obs_1', 'obs_2', 'obs_3'].map((id) => observation({ id })));
    await store.append('org-b', 'home', [observation({ id: 'obs_b' })]);
    await store.append('org-a', 'vehicle', [observation({ id: 'obs_v', kind: 'vehicle' })]);
    const revision = await store.revision('org-a', 'home');
    expect(await store.count('org-a', 'home')).toBe(3);
    // Another organisation's id, another kind's, and an unknown one are not found; nothing changes.
    expect(await store.remove('org-a', 'home', ['obs_b', 'obs_v', 'obs_none'])).toEqual([]);
    expect(await store.revision('org-a', 'home')).toBe(revision);
    expect((await store.remove('org-a', 'home', ['obs_3', 'obs_1', 'obs_b'])).sort()).toEqual(['obs_1', 'obs_3']);
    expect(await store.revision('org-a', 'home')).toBeGreaterThan(revision);
    expect(ids(await store.list('org-a', 'home'))).toEqual(['obs_2']);
    expect(await store.count('org-a', 'home')).toBe(1);
    expect(ids(await store.list('org-b', 'home'))).toEqual(['obs_b']);
    expect(await store.count('org-a', 'vehicle')).toBe(1);
    expect(await store.count('org-c', 'home')).toBe(0);
  });

  test('the retention sweep drops what is older than the retention by the injected clock', async () => {
    const store = await open();
    const logs: string[] = [];
    await store.append('org-a', 'home', ['2022-06-01', '2023-06-01', '2023-06-02', '2024-05-31'].map((observedAt, i) => observation({ id: `obs_${i}`, observedAt })));
    let now = Date.parse('2024-06-01T23:59:00Z'); // 2024 is a leap year: 365 days before is 2023-06-02
    const sweep = new RetentionSweep(store, { retentionDays: 365, now: () => now, log: (message) => logs.push(message) });
    expect(await sweep.sweep()).toBe(2);
    expect(ids(await store.list('org-a', 'home'))).toEqual(['obs_3', 'obs_2']);
    expect(logs).toEqual(['retention: dropped 2 observations observed before 2023-06-02']);
    expect(await sweep.sweep()).toBe(0);
    now += 24 * 3600 * 1000; // a day on: 2023-06-02 is out
    expect(await sweep.sweep()).toBe(1);
    expect(ids(await store.list('org-a', 'home'))).toEqual(['obs_3']);
  });

  test('what list() returns is a copy: changing it changes nothing stored', async () => {
    const store = await open();
    await store.append('org-a', 'home', [observation({ id: 'obs_1' })]);
    const [listed] = await store.list('org-a', 'home');
    listed.priceUsd = 1;
    (listed.input as Record<string, unknown>).rooms = 99;
    const [again] = await store.list('org-a', 'home');
    expect(again.priceUsd).toBe(61_500);
    expect(again.input.rooms).toBe(3);
  });
}

describe('observation store in memory', () => {
  observationStoreContract(() => FileObservationStore.open({ directory: null }));
});

describe('observation store in files', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  observationStoreContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'observations-'));
    dirs.push(dir);
    return FileObservationStore.open({ directory: join(dir, 'store'), log: () => undefined });
  });
});

describeWithRedis('observation store on Redis', () => {
  const clients: ObservationRedisClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await deleteKeysUnder(RUN_PREFIX, REDIS_URL);
  });
  observationStoreContract(async () => {
    const client = createObservationRedisClient(REDIS_URL);
    await client.connect();
    clients.push(client);
    return new RedisObservationStore(client, { keyPrefix: `${RUN_PREFIX}${storeCount++}:` });
  });
});

describeWithPostgres('observation store in PostgreSQL', () => {
  const schemas = new TestSchemas();
  let pool: Pool;
  beforeAll(() => {
    pool = new Pool({ connectionString: DATABASE_URL, max: 8 });
  });
  afterAll(async () => {
    await pool.end();
    await schemas.dropAll();
  });
  observationStoreContract(() => PostgresObservationStore.open({ pool, schema: schemas.next() }));

  test('a point-in-time read takes the organisation\'s kind up to the day from the index, in list order', async () => {
    const schema = schemas.next();
    const store = await PostgresObservationStore.open({ pool, schema });
    await store.append('org-a', 'home', observations('a', 50));
    await pool.query(`ANALYZE ${schema}.observations`);
    await pool.query('SET enable_seqscan = off');
    try {
      const plan = (await pool.query(`EXPLAIN SELECT record FROM ${schema}.observations WHERE org = 'org-a' AND kind = 'home' AND observed_on <= '2024-01-01' ORDER BY observed_on DESC, id DESC`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index Scan using observations_by_day/);
      expect(plan).not.toMatch(/Sort/);
    } finally {
      await pool.query('RESET enable_seqscan');
    }
  });
});
