/**
 * Valuation records (issue 19): every valuation the service gives, kept for the organisation that
 * asked, retrievable by id, listable, and sampled for review. One store per kind of collateral,
 * held by the subgraph that values that kind. Every store here passes one contract test suite
 * (test/valuation-records/store-contract.test.ts).
 */
export type { RecordKind, RecordQuery, RecordSample, ValuationRecord, ValuationRecordStore } from './types';
export { sampleKey, sampleKeyPrefix, smallestBySampleKey } from './record-sample';
export { isRecordId, newRecordId, recordIdTime } from './record-ids';
export { MemoryRecordStore } from './memory-record-store';
export { FileRecordStore, type FileRecordStoreMemory, type FileRecordStoreOptions } from './file-record-store';
export { RedisRecordStore, createRecordRedisClient, type RecordRedisClient } from './redis-record-store';
export { PostgresRecordStore, type PostgresRecordStoreOptions } from './postgres-record-store';
export { createRecordStore, type CreateRecordStoreOptions } from './create-record-store';
export { recordStoreConfigFromEnv, type RecordStoreConfig } from './config';
