import { createClient } from 'redis';
import { DEFAULT_REDIS_TIMEOUT_MS, RedisHealth } from '../../platform/redis-health';
import { within } from '../../platform/within';
import { InMemoryQuotaStore } from './in-memory-quota-store';
import type { QuotaStore } from './quota-store';
import { QUOTA_SCRIPTS, RedisQuotaStore, type QuotaRedisClient } from './redis-quota-store';

export interface QuotaStoreOptions {
  /** With a Redis URL every gateway instance shares the counts; without one they are per process. */
  redisUrl?: string;
  keyPrefix?: string;
  /** How long start-up waits for Redis before going on; consume() fails until Redis is reached. */
  connectTimeoutMs?: number;
  /**
   * The longest a quota check waits on Redis before the request goes on uncounted, and how long a
   * health PING may go unanswered before Redis counts as stalled (consume() then fails at once, and
   * isReachable() is false). @default 250 (DEFAULT_REDIS_TIMEOUT_MS)
   */
  commandTimeoutMs?: number;
  /** Receives connection errors (node-redis would otherwise crash the process on an 'error' event). */
  onRedisError?: (error: Error) => void;
}

/**
 * Commands sent and not yet answered, at most; beyond, consume() fails at once. A backstop: the
 * health probe already stops sending within about a second of a stall.
 */
const MAX_PENDING_COMMANDS = 1000;

export async function createQuotaStore(options: QuotaStoreOptions = {}): Promise<QuotaStore> {
  if (!options.redisUrl) return new InMemoryQuotaStore();
  const client = createClient({ url: options.redisUrl, disableOfflineQueue: true, commandsQueueMaxLength: MAX_PENDING_COMMANDS, scripts: QUOTA_SCRIPTS });
  // Outages already reach callers as QuotaUnavailableError, so ignoring these is safe.
  client.on('error', options.onRedisError ?? (() => undefined));
  // connect() keeps retrying while Redis is down; never let that hold up start-up for long.
  const connected = client.connect().then(
    () => undefined,
    () => undefined, // only rejects when the client is closed while still connecting
  );
  await within(connected, options.connectTimeoutMs ?? 2000, () => undefined);
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  const health = new RedisHealth(client, { timeoutMs }).start();
  return new RedisQuotaStore(probedClient(client, health), { keyPrefix: options.keyPrefix, commandTimeoutMs: timeoutMs });
}

/**
 * The client as the store sees it: not ready while the probe finds Redis down or stalled, so
 * consume() fails at once rather than add a command that would wait; a stalled client is then
 * destroyed on close, not closed (QUIT would wait too). Closing it stops the probe.
 */
function probedClient(client: QuotaRedisClient, health: RedisHealth): QuotaRedisClient {
  return {
    get isOpen() {
      return client.isOpen;
    },
    get isReady() {
      return health.isReachable();
    },
    consumeQuota: (minuteKey, dayKey, args) => client.consumeQuota(minuteKey, dayKey, args),
    close: () => {
      health.stop();
      return client.close();
    },
    destroy: () => {
      health.stop();
      client.destroy();
    },
  };
}
