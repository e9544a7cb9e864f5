/**
 * An organisation's running subscriptions on the other gateway processes (issue 33, finding 11): the
 * plan's maxSubscriptions bounds the organisation, so with several gateways behind a balancer each
 * must know what the others run. In Redis mode each process keeps its counts in one hash per
 * organisation (field: the process, value: `count:expiresAtMs`), written when its count changes and
 * again every HEARTBEAT_MS, and removed when it closes; a process that dies stops counting once its
 * expiry passes. Reads fail open within the quota store's bound (a stalled Redis must not stop
 * subscriptions, as it does not stop requests): the other processes then count as none, logged.
 * Without Redis there are no other processes.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { DEFAULT_REDIS_TIMEOUT_MS } from '../../platform/redis-health';
import { within } from '../../platform/within';

export interface SharedSubscriptionCounts {
  /** Subscriptions `org` runs on the other gateway processes now. */
  elsewhere(org: string): Promise<number>;
  /** This process now runs `count` subscriptions of `org`. */
  publish(org: string, count: number): void;
  close(): Promise<void>;
}

/** One process: nothing runs elsewhere. */
export const ONE_PROCESS: SharedSubscriptionCounts = {
  elsewhere: async () => 0,
  publish: () => undefined,
  close: async () => undefined,
};

/** How often a process writes its counts again; they expire after EXPIRY_MS without it. */
const HEARTBEAT_MS = 10_000;
const EXPIRY_MS = 3 * HEARTBEAT_MS;

/** The commands these counts use, of a node-redis client. */
export interface SubscriptionCountsClient {
  hSet(key: string, field: string, value: string): Promise<unknown>;
  hDel(key: string, field: string): Promise<unknown>;
  hGetAll(key: string): Promise<Record<string, string>>;
  pExpire(key: string, ms: number): Promise<unknown>;
}

export interface RedisSubscriptionCountsOptions {
  /** The current count of every organisation with sockets here: written again at each heartbeat. */
  current: () => ReadonlyMap<string, number>;
  log: (message: string) => void;
  keyPrefix?: string;
  /** Tells this process's field apart from the others'. @default random */
  processId?: string;
  commandTimeoutMs?: number;
  /** ms since the epoch: expiries are written and read with it. @default Date.now */
  now?: () => number;
}

export class RedisSubscriptionCounts implements SharedSubscriptionCounts {
  private readonly processId: string;
  private readonly keyPrefix: string;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  /** Organisations this process has a field for. */
  private readonly written = new Set<string>();
  /** Set by close(): a count published later (a socket closing at shutdown) must not write its field back. */
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly client: SubscriptionCountsClient, private readonly options: RedisSubscriptionCountsOptions) {
    this.processId = options.processId ?? randomBytes(8).toString('hex');
    this.keyPrefix = options.keyPrefix ?? 'subscriptions:';
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.heartbeat = setInterval(() => this.refresh(), HEARTBEAT_MS).unref();
  }

  async elsewhere(org: string): Promise<number> {
    try {
      const fields = await within(this.client.hGetAll(this.keyOf(org)), this.timeoutMs, () => {
        throw new Error(`no answer within ${this.timeoutMs} ms`);
      });
      const now = this.now();
      let total = 0;
      for (const [process, value] of Object.entries(fields)) {
        const [count, expiresAt] = value.split(':').map(Number);
        if (process !== this.processId && expiresAt > now && count > 0) total += count;
      }
      return total;
    } catch (error) {
      this.options.log(`subscription counts of other gateways unavailable, counted as none: ${(error as Error).message}`);
      return 0;
    }
  }

  publish(org: string, count: number): void {
    if (this.closed) return;
    void this.write(org, count).catch((error: Error) => this.options.log(`subscription count not shared: ${error.message}`));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    await Promise.all([...this.written].map((org) => within(this.client.hDel(this.keyOf(org), this.processId), this.timeoutMs, () => undefined).catch(() => undefined)));
    this.written.clear();
  }

  private async write(org: string, count: number): Promise<void> {
    const key = this.keyOf(org);
    if (count <= 0) {
      if (!this.written.delete(org)) return;
      await this.client.hDel(key, this.processId);
      return;
    }
    this.written.add(org);
    await this.client.hSet(key, this.processId, `${count}:${this.now() + EXPIRY_MS}`);
    await this.client.pExpire(key, 2 * EXPIRY_MS); // the hash goes when every process has
  }

  /** Every organisation's count written again (ended subscriptions no hook saw are dropped here). */
  private refresh(): void {
    const current = this.options.current();
    for (const org of new Set([...this.written, ...current.keys()])) this.publish(org, current.get(org) ?? 0);
  }

  private keyOf(org: string): string {
    return `${this.keyPrefix}{${org}}`;
  }
}

/** The counts for a gateway: shared through Redis at `redisUrl`, or ONE_PROCESS without it. */
export async function createSharedSubscriptionCounts(options: RedisSubscriptionCountsOptions & { redisUrl?: string }): Promise<{ counts: SharedSubscriptionCounts; close(): Promise<void> }> {
  if (!options.redisUrl) return { counts: ONE_PROCESS, close: async () => undefined };
  const client = createClient({ url: options.redisUrl, disableOfflineQueue: true });
  client.on('error', () => undefined); // reads and writes fail open, logged where they are made
  await within(client.connect().then(() => undefined, () => undefined), 2000, () => undefined);
  const counts = new RedisSubscriptionCounts(client, options);
  return {
    counts,
    close: async () => {
      await counts.close();
      if (client.isOpen) await client.close().catch(() => client.destroy());
    },
  };
}
