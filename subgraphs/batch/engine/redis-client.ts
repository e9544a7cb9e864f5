import { createClient } from 'redis';

/** A client as the batch engine makes it (node-redis defaults: RESP3, reconnecting, offline queue). */
export function createBatchRedisClient(url: string) {
  return createClient({ url });
}

/** What every Redis adapter here is given. */
export type BatchRedisClient = ReturnType<typeof createBatchRedisClient>;
