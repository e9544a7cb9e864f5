/**
 * The observation store (issue 18): the public surface; everything else in this folder is internal.
 * Banks' observed prices, per organisation and kind, kept for the retention. In PostgreSQL when
 * DATABASE_URL is set, else on Redis when REDIS_URL is set (both shared by replicas), else in files
 * under VALUATION_HOME (one process). What every store guarantees:
 * - an append() is stored whole or not at all, and is durable once it resolves: a process killed
 *   mid-append loses no acknowledged call and leaves no part of another;
 * - an organisation's observations are read only under its own id: no id, whatever its
 *   characters, reaches another organisation's;
 * - list() gives newest observedAt first, ties newest id first; revision() changes with every
 *   append or prune that changes the organisation's observations of the kind.
 */
export { createObservationStore, type CreateObservationStoreOptions } from './create-observation-store';
export { DEFAULT_OBSERVATION_MAX_REPORTS, DEFAULT_OBSERVATION_METRICS_REFRESH_MS, DEFAULT_OBSERVATION_RETENTION_DAYS, defaultObservationDirectory, observationStoreConfigFromEnv, type ObservationStoreConfig } from './config';
export { FileObservationStore, type FileObservationStoreOptions } from './file-observation-store';
export { createObservationRedisClient, RedisObservationStore, type ObservationRedisClient, type RedisObservationStoreOptions } from './redis-observation-store';
export { PostgresObservationStore, type PostgresObservationStoreOptions } from './postgres-observation-store';
export { InvalidObservationError } from './observation-records';
export { retentionCutoff, RetentionSweep, type RetentionSweepOptions } from './retention';
export type { ObservationKind, ObservationQuery, ObservationStore, PriceType, StoredObservation } from './types';
