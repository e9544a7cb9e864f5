/** createObservationStore (Redis with a URL, else files under VALUATION_HOME, or memory) and the settings read from the environment. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { createObservationStore, observationStoreConfigFromEnv } from '../../subgraphs/common/observation-store';
import { REDIS_URL, testWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { observation } from './fixtures/observations';

const DAY_MS = 86_400_000;
const NOW = Date.parse('2024-06-01T12:00:00Z');
const dated = (days: Record<string, string>) => Object.entries(days).map(([id, observedAt]) => observation({ id, observedAt }));
const ids = (records: readonly { id: string }[]) => records.map((record) => record.id);

let home: string;
const savedEnv = { ...process.env };
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'observations-home-'));
});
afterEach(() => {
  process.env = { ...savedEnv };
  rmSync(home, { recursive: true, force: true });
});

describe('createObservationStore', () => {
  test('without REDIS_URL: files in <VALUATION_HOME>/observations, with the retention applied at opening', async () => {
    delete process.env.REDIS_URL;
    process.env.VALUATION_HOME = home;
    const first = await createObservationStore({ now: () => NOW });
    await first.append('bank/1', 'home', dated({ obs_old: '2022-01-01', obs_new: '2024-05-01' }));
    await first.close();
    expect(readdirSync(join(home, 'observations'))).toHaveLength(1);

    const keptForever = await createObservationStore({ now: () => NOW, retentionDays: 3650 });
    expect(ids(await keptForever.list('bank/1', 'home'))).toEqual(['obs_new', 'obs_old']);
    await keptForever.close();

    const logs: string[] = [];
    const later = await createObservationStore({ now: () => NOW + 365 * DAY_MS, log: (message) => logs.push(message) }); // 730 days from 2025-06-01: 2023-06-02
    expect(ids(await later.list('bank/1', 'home'))).toEqual(['obs_new']);
    expect(logs).toEqual(['retention: dropped 1 observations observed before 2023-06-02']);
    await later.close();
  });

  test('directory null: memory only, nothing written', async () => {
    delete process.env.REDIS_URL;
    process.env.VALUATION_HOME = home;
    const store = await createObservationStore({ directory: null });
    expect(await store.append('bank/1', 'home', [observation({ id: 'obs_1' })])).toBe(1);
    await store.close();
    expect(readdirSync(home)).toEqual([]);
    const again = await createObservationStore({ directory: null });
    expect(await again.list('bank/1', 'home')).toEqual([]);
    await again.close();
  });

  testWithRedis('with REDIS_URL: on Redis under the key prefix, shared by every store opened on it', async () => {
    process.env.REDIS_URL = REDIS_URL;
    process.env.VALUATION_HOME = home;
    const keyPrefix = `test:observations-create:${process.pid}:${randomBytes(4).toString('hex')}:`;
    const admin = createClient({ url: REDIS_URL });
    await admin.connect();
    try {
      const [one, other] = await Promise.all([createObservationStore({ keyPrefix, now: () => NOW }), createObservationStore({ keyPrefix, now: () => NOW })]);
      await one.append('bank/1', 'home', dated({ obs_1: '2024-01-01' }));
      expect(ids(await other.list('bank/1', 'home'))).toEqual(['obs_1']);
      expect(await other.revision('bank/1', 'home')).toBe(1);
      await Promise.all([one.close(), other.close()]);
      expect(readdirSync(home)).toEqual([]);
      const keys: string[] = [];
      for await (const batch of admin.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 })) keys.push(...batch);
      expect(keys.map((key) => key.slice(keyPrefix.length)).sort()).toEqual(['index', 'rev:home:bank%2F1', 'set:home:bank%2F1']);
    } finally {
      await deleteKeysUnder(keyPrefix, admin);
      await admin.close();
    }
  });
});

describe('observationStoreConfigFromEnv', () => {
  test('defaults: 730 days, <VALUATION_HOME>/observations, prefix observations:, no Redis, metrics refreshed at most once a minute', () => {
    expect(observationStoreConfigFromEnv({ VALUATION_HOME: home })).toEqual({
      databaseSchema: 'valuation',
      redisUrl: undefined,
      keyPrefix: 'observations:',
      directory: join(home, 'observations'),
      retentionDays: 730,
      metricsRefreshMs: 60_000,
      maxReports: 4,
    });
  });

  test('reads OBSERVATION_RETENTION_DAYS, OBSERVATION_DIR, OBSERVATION_KEY_PREFIX, OBSERVATION_METRICS_REFRESH_MS, DATABASE_SCHEMA and REDIS_URL', () => {
    expect(
      observationStoreConfigFromEnv({ OBSERVATION_RETENTION_DAYS: '30', OBSERVATION_DIR: '/srv/obs', OBSERVATION_KEY_PREFIX: 'o:', OBSERVATION_METRICS_REFRESH_MS: '250', DATABASE_SCHEMA: 'bank_a', REDIS_URL: 'redis://r:6379' }),
    ).toEqual({ databaseSchema: 'bank_a', redisUrl: 'redis://r:6379', keyPrefix: 'o:', directory: '/srv/obs', retentionDays: 30, metricsRefreshMs: 250, maxReports: 4 });
  });

  test.each(['0', '-5', '1.5', 'abc', '1e3', ' ', '730 days'])('refuses OBSERVATION_RETENTION_DAYS=%p with a clear error', (value) => {
    expect(() => observationStoreConfigFromEnv({ OBSERVATION_RETENTION_DAYS: value })).toThrow(`OBSERVATION_RETENTION_DAYS must be a whole number of days, 1 or more, got '${value}'`);
  });

  test.each(['0', '1.5', '1m'])('refuses OBSERVATION_METRICS_REFRESH_MS=%p with a clear error', (value) => {
    expect(() => observationStoreConfigFromEnv({ OBSERVATION_METRICS_REFRESH_MS: value })).toThrow(`OBSERVATION_METRICS_REFRESH_MS must be a whole number of ms, 1 or more, got '${value}'`);
  });
});
