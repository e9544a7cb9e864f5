import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { createQuotaStore } from '../../gateway/quota/create-quota-store';
import { InMemoryQuotaStore } from '../../gateway/quota/in-memory-quota-store';
import { QuotaUnavailableError, type QuotaStore } from '../../gateway/quota/quota-store';
import { QUOTA_SCRIPTS, RedisQuotaStore, type QuotaRedisClient } from '../../gateway/quota/redis-quota-store';
import { HAS_REDIS_SERVER, freePort, sendCommand, startRedisServer } from '../support/redis-server';
import { REDIS_URL, describeWithRedis, testWithRedis } from '../support/redis';

const RUN_PREFIX = `test:quota:${process.pid}:${randomBytes(4).toString('hex')}:`;
let storeCount = 0;
const uniquePrefix = () => `${RUN_PREFIX}${storeCount++}:`;

// 2025-03-14 09:30:10 UTC: 50 s before the minute ends, 14 h 29 min 50 s before the UTC day ends.
const T0 = Date.UTC(2025, 2, 14, 9, 30, 10);
const SECONDS_TO_MIDNIGHT_FROM_T0 = 14 * 3600 + 29 * 60 + 50;

/** The one behaviour every QuotaStore adapter must show. */
function quotaStoreContract(makeStore: () => Promise<QuotaStore>): void {
  let store: QuotaStore;
  beforeEach(async () => {
    store = await makeStore();
  });
  afterEach(async () => {
    await store.close();
  });

  test('counts down within the minute and reports the minute as binding', async () => {
    const limits = { perMinute: 5, perDay: 100 };
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await store.consume('org-a', limits, T0));
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2]);
    expect(decisions[2]).toEqual({ allowed: true, limit: 5, remaining: 2, resetSeconds: 50, window: 'minute' });
  });

  test('denies past the minute limit with a Retry-After to the next minute', async () => {
    const limits = { perMinute: 3, perDay: 100 };
    for (let i = 0; i < 3; i++) expect((await store.consume('org-a', limits, T0)).allowed).toBe(true);
    const denied = await store.consume('org-a', limits, T0 + 5_500);
    expect(denied).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetSeconds: 45,
      retryAfterSeconds: 45,
      window: 'minute',
    });
  });

  test('the day limit binds when it is the tighter one', async () => {
    const limits = { perMinute: 10, perDay: 3 };
    const first = await store.consume('org-a', limits, T0);
    expect(first).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetSeconds: SECONDS_TO_MIDNIGHT_FROM_T0,
      window: 'day',
    });
    await store.consume('org-a', limits, T0);
    await store.consume('org-a', limits, T0);
    // A new minute does not help: the day is spent until UTC midnight.
    const denied = await store.consume('org-a', limits, T0 + 60_000);
    expect(denied).toMatchObject({ allowed: false, window: 'day', limit: 3, remaining: 0 });
    expect(denied.retryAfterSeconds).toBe(SECONDS_TO_MIDNIGHT_FROM_T0 - 60);
  });

  test('a new minute restores the minute window', async () => {
    const limits = { perMinute: 2, perDay: 100 };
    await store.consume('org-a', limits, T0);
    await store.consume('org-a', limits, T0);
    expect(await store.consume('org-a', limits, T0 + 49_999)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    const nextMinute = await store.consume('org-a', limits, T0 + 50_000);
    expect(nextMinute).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60, window: 'minute' });
  });

  test('a new UTC day restores the day window', async () => {
    const limits = { perMinute: 10, perDay: 2 };
    const beforeMidnight = Date.UTC(2025, 2, 14, 23, 59, 30);
    await store.consume('org-a', limits, beforeMidnight);
    await store.consume('org-a', limits, beforeMidnight);
    expect(await store.consume('org-a', limits, beforeMidnight + 29_000)).toMatchObject({
      allowed: false,
      window: 'day',
      retryAfterSeconds: 1,
    });
    const nextDay = await store.consume('org-a', limits, Date.UTC(2025, 2, 15, 0, 0, 0));
    expect(nextDay).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 86_400, window: 'day' });
  });

  test('denied requests are not counted against either window', async () => {
    const limits = { perMinute: 2, perDay: 4 };
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push((await store.consume('org-a', limits, T0)).allowed);
    expect(outcomes).toEqual([true, true, false, false, false]);
    // Had the three denials counted, the day would already be spent.
    // (Both windows have 1 left here; a tie reports the day, which resets later.)
    expect(await store.consume('org-a', limits, T0 + 60_000)).toMatchObject({ allowed: true, window: 'day', remaining: 1 });
    expect(await store.consume('org-a', limits, T0 + 60_000)).toMatchObject({ allowed: true, window: 'day', remaining: 0 });
    expect(await store.consume('org-a', limits, T0 + 120_000)).toMatchObject({ allowed: false, window: 'day' });
  });

  test('a consumption of many units is taken whole or not at all, and names the window that cannot take it', async () => {
    const limits = { perMinute: 100, perDay: 150 };
    expect(await store.consume('org-a', limits, T0, 90)).toMatchObject({ allowed: true, remaining: 10, window: 'minute' });
    // 20 more fit neither the minute (10 left) …
    expect(await store.consume('org-a', limits, T0, 20)).toMatchObject({ allowed: false, remaining: 10, window: 'minute', retryAfterSeconds: 50 });
    // … nor, a minute later, the day (60 left of 150 after 90): waiting for the next minute would not help then.
    expect(await store.consume('org-a', limits, T0 + 60_000, 61)).toMatchObject({ allowed: false, remaining: 60, window: 'day' });
    expect(await store.consume('org-a', limits, T0 + 60_000, 60)).toMatchObject({ allowed: true, remaining: 0, window: 'day' });
  });

  test('subjects are counted separately', async () => {
    const limits = { perMinute: 1, perDay: 100 };
    expect((await store.consume('org-a', limits, T0)).allowed).toBe(true);
    expect((await store.consume('org-a', limits, T0)).allowed).toBe(false);
    expect((await store.consume('org-b', limits, T0)).allowed).toBe(true);
    // Subjects that look like key fragments must not collide either.
    expect((await store.consume('org-a:m', limits, T0)).allowed).toBe(true);
  });

  test('200 concurrent requests against a limit of 100 admit exactly 100', async () => {
    const limits = { perMinute: 100, perDay: 1000 };
    const decisions = await Promise.all(Array.from({ length: 200 }, () => store.consume('org-a', limits, T0)));
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).toHaveLength(100);
    expect(allowed.map((d) => d.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds === 50)).toBe(true);
  });
}

describe('InMemoryQuotaStore', () => {
  quotaStoreContract(async () => new InMemoryQuotaStore());

  test('forgets subjects once the day after theirs has passed (that day keeps them for clocks stepping back over midnight)', async () => {
    const store = new InMemoryQuotaStore();
    const limits = { perMinute: 10, perDay: 10 };
    for (let i = 0; i < 1000; i++) await store.consume(`org-${i}`, limits, T0);
    expect(store.trackedSubjects).toBe(1000);
    await store.consume('org-next-day', limits, T0 + 86_400_000);
    expect(store.trackedSubjects).toBe(1001);
    await store.consume('org-late', limits, T0 + 2 * 86_400_000);
    expect(store.trackedSubjects).toBe(2);
  });
});

describeWithRedis('RedisQuotaStore', () => {
  const admin = createClient({ url: REDIS_URL });
  const runKeys = () => admin.keys(`${RUN_PREFIX}*`);

  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    const leftovers = await runKeys();
    if (leftovers.length > 0) await admin.del(leftovers);
    await admin.close();
  });

  async function connectedClient() {
    const client = createClient({ url: REDIS_URL, disableOfflineQueue: true, scripts: QUOTA_SCRIPTS });
    await client.connect();
    return client;
  }

  quotaStoreContract(async () => new RedisQuotaStore(await connectedClient(), { keyPrefix: uniquePrefix() }));

  test('counters carry an expiry and live under the configured prefix', async () => {
    const keyPrefix = uniquePrefix();
    const store = new RedisQuotaStore(await connectedClient(), { keyPrefix });
    await store.consume('org-a', { perMinute: 5, perDay: 5 }, Date.now());
    await store.close();
    const keys = await admin.keys(`${keyPrefix}*`);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      const ttl = await admin.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(86_400_000 + 60_000);
    }
  });

  // On a private redis-server: SCRIPT FLUSH on the shared one would pull scripts from under other suites.
  (HAS_REDIS_SERVER ? test : test.skip)('goes on counting when Redis has forgotten the script (SCRIPT FLUSH, as after a restart)', async () => {
    const port = await freePort();
    const server = await startRedisServer(['--port', String(port), '--save', '', '--appendonly', 'no'], port);
    try {
      const client = createClient({ url: `redis://127.0.0.1:${port}`, disableOfflineQueue: true, scripts: QUOTA_SCRIPTS });
      await client.connect();
      const store = new RedisQuotaStore(client, { keyPrefix: uniquePrefix() });
      expect(await store.consume('org-a', { perMinute: 5, perDay: 5 }, T0)).toMatchObject({ allowed: true, remaining: 4 });
      expect(await sendCommand(port, 'SCRIPT FLUSH')).toMatch(/^\+OK/);
      expect(await store.consume('org-a', { perMinute: 5, perDay: 5 }, T0)).toMatchObject({ allowed: true, remaining: 3 });
      await store.close();
    } finally {
      server.kill('SIGKILL');
    }
  });

  test('throws QuotaUnavailableError within the command timeout when Redis does not answer (stalled)', async () => {
    const client = await connectedClient();
    const stalled: QuotaRedisClient = {
      isOpen: true,
      isReady: true,
      consumeQuota: () => new Promise(() => undefined),
      close: () => client.close(),
      destroy: () => client.destroy(),
    };
    const store = new RedisQuotaStore(stalled, { keyPrefix: uniquePrefix(), commandTimeoutMs: 50 });
    const started = Date.now();
    await expect(store.consume('org-a', { perMinute: 5, perDay: 5 })).rejects.toBeInstanceOf(QuotaUnavailableError);
    expect(Date.now() - started).toBeLessThan(1000);
    await store.close();
  });

  test('throws QuotaUnavailableError when the connection is gone', async () => {
    const client = await connectedClient();
    const store = new RedisQuotaStore(client, { keyPrefix: uniquePrefix() });
    client.destroy();
    await expect(store.consume('org-a', { perMinute: 5, perDay: 5 })).rejects.toBeInstanceOf(QuotaUnavailableError);
    await store.close();
  });
});

describe('createQuotaStore', () => {
  test('counts in process without a Redis URL', async () => {
    const store = await createQuotaStore({});
    expect(store).toBeInstanceOf(InMemoryQuotaStore);
    await store.close();
  });

  testWithRedis('counts in Redis with a Redis URL', async () => {
    const keyPrefix = uniquePrefix();
    const store = await createQuotaStore({ redisUrl: REDIS_URL, keyPrefix });
    expect(store).toBeInstanceOf(RedisQuotaStore);
    expect(store.isReachable?.()).toBe(true);
    expect(await store.consume('org-a', { perMinute: 5, perDay: 5 }, T0)).toMatchObject({ allowed: true, remaining: 4 });
    await store.close();
    const admin = createClient({ url: REDIS_URL });
    await admin.connect();
    const keys = await admin.keys(`${keyPrefix}*`);
    expect(keys).toHaveLength(2);
    await admin.del(keys);
    await admin.close();
  });

  test('starts without a reachable Redis and reports each consume as unavailable', async () => {
    const errors: Error[] = [];
    const started = Date.now();
    const store = await createQuotaStore({
      redisUrl: 'redis://127.0.0.1:1',
      connectTimeoutMs: 300,
      onRedisError: (error) => errors.push(error),
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(store.isReachable?.()).toBe(false);
    await expect(store.consume('org-a', { perMinute: 5, perDay: 5 })).rejects.toBeInstanceOf(QuotaUnavailableError);
    expect(errors.length).toBeGreaterThan(0);
    await store.close();
  });
});
