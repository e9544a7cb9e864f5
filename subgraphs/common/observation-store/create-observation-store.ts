import { DEFAULT_OBSERVATION_RETENTION_DAYS, defaultObservationDirectory } from './config';
import { createPostgresPool } from '../../../platform/postgres';
import { FileObservationStore } from './file-observation-store';
import { PostgresObservationStore } from './postgres-observation-store';
import { createObservationRedisClient, RedisObservationStore } from './redis-observation-store';
import { RetentionSweep } from './retention';
import type { ObservationStore } from './types';

export interface CreateObservationStoreOptions {
  /** The PostgreSQL holding observations, shared by replicas; it takes precedence over Redis. Unset or '': Redis or files. */
  databaseUrl?: string;
  /** The PostgreSQL schema of the tables. @default 'valuation' */
  databaseSchema?: string;
  /** The Redis holding observations, shared by replicas. Unset or '': files (or memory). @default process.env.REDIS_URL */
  redisUrl?: string;
  /** Prepended to every Redis key. @default 'observations:' */
  keyPrefix?: string;
  /** Without Redis: the files' directory, or null for memory only (tests). @default <VALUATION_HOME>/observations */
  directory?: string | null;
  /** Observations observed longer ago than this many days are dropped: at opening, then every `sweepEveryMs`. @default 730 */
  retentionDays?: number;
  /** @default 3_600_000 (1 h) */
  sweepEveryMs?: number;
  /** The clock retention is counted by. @default Date.now */
  now?: () => number;
  log?: (message: string) => void;
}

/**
 * The store in PostgreSQL when a database URL is given, else on Redis when a Redis URL is given or
 * REDIS_URL is set, else in files under VALUATION_HOME (or memory only), with the retention applied: what is older is dropped before
 * this resolves, and again periodically until close().
 */
export async function createObservationStore(options: CreateObservationStoreOptions = {}): Promise<ObservationStore> {
  const log = options.log ?? ((message: string) => console.error(`[observations] ${message}`));
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL;
  let store: ObservationStore;
  if (options.databaseUrl) {
    const pool = createPostgresPool({ url: options.databaseUrl, log });
    try {
      store = await PostgresObservationStore.open({ pool, schema: options.databaseSchema, onClose: () => pool.end() });
    } catch (error) {
      await pool.end();
      throw error;
    }
  } else if (redisUrl) {
    const client = createObservationRedisClient(redisUrl);
    // node-redis reconnects by itself and would crash the process on an unheard 'error' event.
    client.on('error', (error: Error) => log(`redis: ${error.message}`));
    await client.connect();
    store = new RedisObservationStore(client, { keyPrefix: options.keyPrefix, onClose: () => client.close() });
  } else {
    const directory = options.directory === undefined ? defaultObservationDirectory() : options.directory;
    store = await FileObservationStore.open({ directory, log });
  }
  const sweep = new RetentionSweep(store, {
    retentionDays: options.retentionDays ?? DEFAULT_OBSERVATION_RETENTION_DAYS,
    everyMs: options.sweepEveryMs,
    now: options.now,
    log,
  });
  try {
    await sweep.sweep();
  } catch (error) {
    await store.close();
    throw error;
  }
  sweep.start();
  return {
    append: (org, kind, records) => store.append(org, kind, records),
    list: (org, kind, query) => store.list(org, kind, query),
    revision: (org, kind) => store.revision(org, kind),
    remove: (org, kind, ids) => store.remove(org, kind, ids),
    count: (org, kind) => store.count(org, kind),
    prune: (before) => store.prune(before),
    close: async () => {
      sweep.stop();
      await store.close();
    },
  };
}
