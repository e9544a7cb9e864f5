import { createClient } from 'redis';
import { InMemoryQuotaStore } from './in-memory-quota-store';
import type { QuotaStore } from './quota-store';
import { RedisQuotaStore } from './redis-quota-store';

export interface QuotaStoreOptions {
  /** With a Redis URL every gateway instance shares the counts; without one they are per process. */
  redisUrl?: string;
  keyPrefix?: string;
  /** How long start-up waits for Redis before going on; consume() fails until Redis is reached. */
  connectTimeoutMs?: number;
  /** Receives connection errors (node-redis would otherwise crash the process on an 'error' event). */
  onRedisError?: (error: Error) => void;
}

export async function createQuotaStore(options: QuotaStoreOptions = {}): Promise<QuotaStore> {
  if (!options.redisUrl) return new InMemoryQuotaStore();
  const client = createClient({ url: options.redisUrl, disableOfflineQueue: true });
  // Outages already reach callers as QuotaUnavailableError, so ignoring these is safe.
  client.on('error', options.onRedisError ?? (() => undefined));
  // connect() keeps retrying while Redis is down; never let that hold up start-up for long.
  const connected = client.connect().then(
    () => undefined,
    () => undefined, // only rejects when the client is closed while still connecting
  );
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, options.connectTimeoutMs ?? 2000);
  });
  await Promise.race([connected, timedOut]);
  clearTimeout(timer);
  return new RedisQuotaStore(client, { keyPrefix: options.keyPrefix });
}
