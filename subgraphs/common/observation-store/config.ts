/** The observation store's settings, and its book's metrics refresh, from the environment (OBSERVATION_*, REDIS_URL), checked: a bad value stops the start with a clear error. */
import { join, resolve } from 'node:path';
import { valuationHome } from '../../../platform/local-state';

export interface ObservationStoreConfig {
  /** DATABASE_SCHEMA: the PostgreSQL schema of the tables when DATABASE_URL is set @default 'valuation' */
  databaseSchema: string;
  /** REDIS_URL: observations in this Redis, shared by every replica; unset or '': in files @default undefined */
  redisUrl: string | undefined;
  /** OBSERVATION_KEY_PREFIX: prefix of the store's Redis keys @default 'observations:' */
  keyPrefix: string;
  /** OBSERVATION_DIR: the files' directory when there is no Redis (one process per directory) @default <VALUATION_HOME>/observations */
  directory: string;
  /** OBSERVATION_RETENTION_DAYS: observations observed longer ago than this many days are dropped (a whole number ≥ 1) @default 730 */
  retentionDays: number;
  /** OBSERVATION_METRICS_REFRESH_MS: the least time between two refreshes of an organisation's live accuracy metrics (a whole number ≥ 1) @default 60000 */
  metricsRefreshMs: number;
  /** OBSERVATION_MAX_REPORTS: live accuracy reports computed or waiting at once, all organisations (a whole number ≥ 1) @default 4 */
  maxReports: number;
}

export const DEFAULT_OBSERVATION_RETENTION_DAYS = 730;
export const DEFAULT_OBSERVATION_METRICS_REFRESH_MS = 60_000;
/** Four reports at 20,000 observations are about ten seconds of the report thread: the longest a report waits. */
export const DEFAULT_OBSERVATION_MAX_REPORTS = 4;

/** The files' directory when OBSERVATION_DIR is unset: in `env`'s VALUATION_HOME, else the process's (local-state.ts). */
export function defaultObservationDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.VALUATION_HOME || valuationHome(), 'observations');
}

export function observationStoreConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ObservationStoreConfig {
  return {
    databaseSchema: env.DATABASE_SCHEMA || 'valuation',
    redisUrl: env.REDIS_URL || undefined,
    keyPrefix: env.OBSERVATION_KEY_PREFIX || 'observations:',
    directory: env.OBSERVATION_DIR ? resolve(env.OBSERVATION_DIR) : defaultObservationDirectory(env),
    retentionDays: wholeNumberOf(env, 'OBSERVATION_RETENTION_DAYS', 'days', DEFAULT_OBSERVATION_RETENTION_DAYS),
    metricsRefreshMs: wholeNumberOf(env, 'OBSERVATION_METRICS_REFRESH_MS', 'ms', DEFAULT_OBSERVATION_METRICS_REFRESH_MS),
    maxReports: wholeNumberOf(env, 'OBSERVATION_MAX_REPORTS', 'reports', DEFAULT_OBSERVATION_MAX_REPORTS),
  };
}

function wholeNumberOf(env: NodeJS.ProcessEnv, name: string, unit: string, fallback: number): number {
  const configured = env[name];
  if (configured === undefined || configured === '') return fallback;
  const value = Number(configured);
  if (!/^\d+$/.test(configured.trim()) || !Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a whole number of ${unit}, 1 or more, got '${configured}'`);
  }
  return value;
}
