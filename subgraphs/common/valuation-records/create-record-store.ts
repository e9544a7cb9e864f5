/**
 * A kind's valuation record store: in PostgreSQL when there is a database URL, else on Redis when
 * there is a Redis URL, else in a log file of its own folder (or memory only, for tests), with expired records dropped at opening and every hour.
 */
import { join } from 'node:path';
import { FileRecordStore } from './file-record-store';
import { createPostgresPool } from '../../../platform/postgres';
import { MemoryRecordStore } from './memory-record-store';
import { PostgresRecordStore } from './postgres-record-store';
import { createRecordRedisClient, RedisRecordStore } from './redis-record-store';
import type { RecordKind, ValuationRecordStore } from './types';

export interface CreateRecordStoreOptions {
  kind: RecordKind;
  /** Records in this PostgreSQL (it takes precedence over Redis). */
  databaseUrl?: string;
  /** The PostgreSQL schema of the tables. @default 'valuation' */
  databaseSchema?: string;
  redisUrl?: string;
  keyPrefix: string;
  /** Without Redis: the folder holding a folder per kind, or null for memory only. */
  directory: string | null;
  /** @default 3_600_000 */
  sweepEveryMs?: number;
  now?: () => number;
  log: (message: string) => void;
}

export async function createRecordStore(options: CreateRecordStoreOptions): Promise<ValuationRecordStore> {
  let store: ValuationRecordStore;
  if (options.databaseUrl) {
    const pool = createPostgresPool({ url: options.databaseUrl, log: options.log });
    try {
      store = await PostgresRecordStore.open({ pool, kind: options.kind, schema: options.databaseSchema, onClose: () => pool.end() });
    } catch (error) {
      await pool.end();
      throw error;
    }
  } else if (options.redisUrl) {
    const client = createRecordRedisClient(options.redisUrl);
    client.on('error', (error: Error) => options.log(`valuation records: redis: ${error.message}`));
    await client.connect();
    store = new RedisRecordStore(client, { keyPrefix: `${options.keyPrefix}${options.kind}:`, onClose: () => client.close() });
  } else if (options.directory === null) {
    store = new MemoryRecordStore();
  } else {
    store = await FileRecordStore.open(join(options.directory, options.kind), options.log);
  }
  const now = options.now ?? Date.now;
  const sweep = () =>
    store.prune(new Date(now()).toISOString().slice(0, 10)).then(
      (n) => n > 0 && options.log(`valuation records: ${n} past their retention dropped`),
      (error: Error) => options.log(`valuation records: retention sweep failed (${error.message})`),
    );
  await sweep();
  const timer = setInterval(() => void sweep(), options.sweepEveryMs ?? 3_600_000);
  timer.unref();
  return {
    append: (org, records) => store.append(org, records),
    get: (org, id) => store.get(org, id),
    list: (org, query) => store.list(org, query),
    sample: (org, period, n, seed) => store.sample(org, period, n, seed),
    prune: (today) => store.prune(today),
    close: async () => {
      clearInterval(timer);
      await store.close();
    },
  };
}
