/** The valuation record store's settings from the environment (VALUATION_RECORD_*, DATABASE_SCHEMA, REDIS_URL); DATABASE_URL itself is the process's decision (SubgraphStart). */
import { join, resolve } from 'node:path';
import { valuationHome } from '../../../platform/local-state';

export interface RecordStoreConfig {
  /** DATABASE_SCHEMA: the PostgreSQL schema of the tables when DATABASE_URL is set @default 'valuation' */
  databaseSchema: string;
  /** REDIS_URL: records in this Redis, shared by every replica; unset or '': in files */
  redisUrl: string | undefined;
  /** VALUATION_RECORD_KEY_PREFIX: prefix of the store's Redis keys (the kind is added) @default 'valuations:' */
  keyPrefix: string;
  /** VALUATION_RECORD_DIR: the files' directory without Redis (a folder per kind inside) @default <VALUATION_HOME>/valuations */
  directory: string;
}

export function recordStoreConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RecordStoreConfig {
  return {
    databaseSchema: env.DATABASE_SCHEMA || 'valuation',
    redisUrl: env.REDIS_URL || undefined,
    keyPrefix: env.VALUATION_RECORD_KEY_PREFIX || 'valuations:',
    directory: env.VALUATION_RECORD_DIR ? resolve(env.VALUATION_RECORD_DIR) : join(env.VALUATION_HOME || valuationHome(), 'valuations'),
  };
}
