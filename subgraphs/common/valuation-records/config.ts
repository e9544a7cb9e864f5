/** The valuation record store's settings from the environment (VALUATION_RECORD_*, REDIS_URL). */
import { join, resolve } from 'node:path';
import { valuationHome } from '../local-state';

export interface RecordStoreConfig {
  /** REDIS_URL: records in this Redis, shared by every replica; unset or '': in files */
  redisUrl: string | undefined;
  /** VALUATION_RECORD_KEY_PREFIX: prefix of the store's Redis keys (the kind is added) @default 'valuations:' */
  keyPrefix: string;
  /** VALUATION_RECORD_DIR: the files' directory without Redis (a folder per kind inside) @default <VALUATION_HOME>/valuations */
  directory: string;
}

export function recordStoreConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RecordStoreConfig {
  return {
    redisUrl: env.REDIS_URL || undefined,
    keyPrefix: env.VALUATION_RECORD_KEY_PREFIX || 'valuations:',
    directory: env.VALUATION_RECORD_DIR ? resolve(env.VALUATION_RECORD_DIR) : join(env.VALUATION_HOME || valuationHome(), 'valuations'),
  };
}
