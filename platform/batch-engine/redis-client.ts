import { createClient } from 'redis';
import { BATCH_SCRIPTS } from './redis-job-scripts';

/** A client as the batch engine makes it (node-redis defaults: RESP3, reconnecting, offline queue), with the job store's scripts. */
export function createBatchRedisClient(url: string) {
  return createClient({ url, scripts: BATCH_SCRIPTS });
}

/** What every Redis adapter here is given. */
export type BatchRedisClient = ReturnType<typeof createBatchRedisClient>;
