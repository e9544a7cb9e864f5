import { defineScript, type CommandParser } from 'redis';
import { DEFAULT_REDIS_TIMEOUT_MS } from '../../platform/redis-health';
import { within } from '../../platform/within';
import { decide, windowsAt } from './fixed-windows';
import { QuotaUnavailableError, type QuotaDecision, type QuotaLimits, type QuotaStore } from './quota-store';

/**
 * The slice of a node-redis client this store uses: a client from `createClient({ scripts:
 * QUOTA_SCRIPTS })` fits it (node-redis sends the script by SHA1 and in full when Redis has
 * forgotten it).
 */
export interface QuotaRedisClient {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  consumeQuota(minuteKey: string, dayKey: string, args: readonly string[]): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): unknown;
}

export interface RedisQuotaStoreOptions {
  /** Prepended to every counter key; lets several deployments or test runs share one Redis. */
  keyPrefix?: string;
  /**
   * The longest one Redis command may take before consume() rejects with QuotaUnavailableError (the
   * gateway then lets the request through): a stalled Redis keeps the connection open and never
   * answers. @default 250 (DEFAULT_REDIS_TIMEOUT_MS)
   */
  commandTimeoutMs?: number;
}

// Checks both windows before counting, so a denied request costs neither window anything,
// and runs as one script so concurrent gateways cannot both take the last slot.
// KEYS: minute counter, day counter. ARGV: perMinute, perDay, minute TTL ms, day TTL ms, units.
const CONSUME_SCRIPT = `
local units = tonumber(ARGV[5])
local minute = tonumber(redis.call('GET', KEYS[1]) or '0')
local day = tonumber(redis.call('GET', KEYS[2]) or '0')
if minute + units > tonumber(ARGV[1]) or day + units > tonumber(ARGV[2]) then
  return {0, minute, day}
end
minute = redis.call('INCRBY', KEYS[1], units)
if minute == units then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
day = redis.call('INCRBY', KEYS[2], units)
if day == units then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return {1, minute, day}
`;

/** The scripts a quota client is created with (`createClient({ scripts: QUOTA_SCRIPTS })`). */
export const QUOTA_SCRIPTS = {
  consumeQuota: defineScript({
    SCRIPT: CONSUME_SCRIPT,
    NUMBER_OF_KEYS: 2,
    parseCommand(parser: CommandParser, minuteKey: string, dayKey: string, args: readonly string[]) {
      parser.pushKey(minuteKey);
      parser.pushKey(dayKey);
      parser.push(...args);
    },
    transformReply: undefined as unknown as () => unknown,
  }),
};

// Window indices are in the key names, so expiry is only cleanup; the grace keeps a counter
// alive for gateways whose clocks run slightly behind.
const EXPIRY_GRACE_MS = 60_000;

/**
 * Counts shared by every gateway instance. The store owns the client: close() closes it,
 * so give it a dedicated one (createQuotaStore does).
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly keyPrefix: string;
  private readonly commandTimeoutMs: number;

  constructor(
    private readonly client: QuotaRedisClient,
    options: RedisQuotaStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'quota:';
    this.commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  }

  async consume(subject: string, limits: QuotaLimits, now = Date.now(), units = 1): Promise<QuotaDecision> {
    // Fail at once rather than queue behind a reconnect: the request is waiting.
    if (!this.client.isReady) throw new QuotaUnavailableError('Redis is not connected, or stalled');
    const windows = windowsAt(now);
    // The hash tag {subject} puts both counters in one cluster slot, which a script touching both needs.
    const base = `${this.keyPrefix}{${subject}}`;
    const keys = [`${base}:m:${windows.minute.index}`, `${base}:d:${windows.day.index}`];
    const args = [
      limits.perMinute,
      limits.perDay,
      windows.minute.endsAt - now + EXPIRY_GRACE_MS,
      windows.day.endsAt - now + EXPIRY_GRACE_MS,
      units,
    ].map(String);
    const [allowed, minute, day] = parseReply(await this.runConsumeScript(keys, args));
    return decide(allowed === 1, { minute, day }, limits, windows, now, units);
  }

  /** False while the client is not ready (from createQuotaStore: also while Redis is stalled). */
  isReachable(): boolean {
    return this.client.isReady;
  }

  async close(): Promise<void> {
    if (this.client.isReady) await this.client.close();
    else if (this.client.isOpen) this.client.destroy(); // still reconnecting: nothing to flush
  }

  private async runConsumeScript([minuteKey, dayKey]: string[], args: string[]): Promise<unknown> {
    try {
      return await this.bounded(this.client.consumeQuota(minuteKey, dayKey, args));
    } catch (error) {
      throw new QuotaUnavailableError('Redis quota check failed', { cause: error });
    }
  }

  /** The command's reply, unless it takes longer than commandTimeoutMs (the command itself still waits in the client). */
  private bounded<T>(command: Promise<T>): Promise<T> {
    return within(command, this.commandTimeoutMs, () => {
      throw new Error(`Redis did not answer within ${this.commandTimeoutMs} ms`);
    });
  }
}

function parseReply(reply: unknown): [number, number, number] {
  if (Array.isArray(reply) && reply.length === 3 && reply.every((value) => typeof value === 'number')) {
    return reply as [number, number, number];
  }
  throw new QuotaUnavailableError(`unexpected reply from the quota script: ${JSON.stringify(reply)}`);
}
