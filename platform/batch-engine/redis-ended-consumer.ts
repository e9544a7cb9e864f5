import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchRedisClient } from './redis-client';
import { settlesWithin } from './settles-within';

/** Every engine listening for ended jobs reads in this one group, so each entry goes to one of them. */
const GROUP = 'ended-jobs';
/** Entries a consumer works on at once: a webhook delivery can hold its entry for hours of retries. */
const MAX_IN_FLIGHT = 64;
// Long enough to idle cheaply; close() does not wait for it (it cuts the read short).
const BLOCK_MS = 5_000;
const RETRY_AFTER_ERROR_MS = 1_000;
// close() waits this long for handlers cut short to return; their entries stay pending either way.
const CLOSE_WAIT_MS = 5_000;

interface StreamEntry {
  id: string;
  message: Record<string, string>;
}

export interface RedisEndedConsumerOptions {
  /** Entries another consumer has held unsettled this long are taken over (it crashed). */
  claimAfterMs: number;
  log: (message: string) => void;
}

/**
 * Reads the ended-jobs stream in a consumer group, as an outbox: each entry is handed to one
 * consumer, which acknowledges and deletes it only once the handler has settled. While a handler
 * runs (a webhook retrying for hours, say) the consumer keeps renewing its claim on the entry; an
 * entry a crashed consumer held goes to another after claimAfterMs, and one whose handler was still
 * running when close() began stays pending for the next consumer (after a restart, the same
 * service). So a crash or a shutdown can repeat a handler call but never lose one. Handlers run
 * concurrently, up to MAX_IN_FLIGHT. The blocking read has a connection of its own.
 */
export class RedisEndedConsumer {
  private readonly name = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly reader: BatchRedisClient;
  private readonly loop: Promise<void>;
  private stopping = false;
  /** Aborted by close(): cuts short the pause after an error. */
  private readonly stopped = new AbortController();
  private readingBlocked = false;
  private lastClaimAt = 0;
  /** Handlers running now, by entry id. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly client: BatchRedisClient,
    private readonly stream: string,
    private readonly handler: (jobId: string) => Promise<void>,
    private readonly options: RedisEndedConsumerOptions,
  ) {
    this.reader = client.duplicate();
    this.reader.on('error', (error: Error) => options.log(`ended-jobs reader: ${error.message}`));
    this.loop = this.run();
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    // A blocked read, or a connection still being tried (Redis down), would hold the loop: cut it short.
    if (this.readingBlocked || !this.reader.isReady) destroyQuietly(this.reader);
    await settlesWithin(Promise.all([this.loop, ...this.inFlight.values()]), CLOSE_WAIT_MS);
    destroyQuietly(this.reader);
    // With Redis away this would wait in the offline queue; the consumer stays listed, harmlessly.
    if (this.client.isReady) await this.leaveGroup();
  }

  private async run(): Promise<void> {
    try {
      await this.reader.connect();
      await this.joinGroup();
    } catch (error) {
      if (!this.stopping) this.options.log(`ended-jobs consumer could not start: ${(error as Error).message}`);
      return;
    }
    while (!this.stopping) {
      try {
        if (this.inFlight.size >= MAX_IN_FLIGHT) {
          await Promise.race(this.inFlight.values());
          continue;
        }
        for (const entry of await this.claimAbandoned()) this.start(entry);
        for (const entry of await this.readNew()) this.start(entry);
      } catch (error) {
        if (this.stopping) break;
        const message = (error as Error).message;
        this.options.log(`ended-jobs consumer: ${message}`);
        // The group goes when the stream is deleted (or Redis lost it): make it again.
        if (message.includes('NOGROUP')) await this.joinGroup().catch(() => undefined);
        await sleep(RETRY_AFTER_ERROR_MS, undefined, { signal: this.stopped.signal }).catch(() => undefined);
      }
    }
  }

  private async joinGroup(): Promise<void> {
    try {
      // From the stream's start: ends announced before any engine listened are handed out too.
      await this.client.xGroupCreate(this.stream, GROUP, '0', { MKSTREAM: true });
    } catch (error) {
      if (!(error as Error).message.includes('BUSYGROUP')) throw error;
    }
  }

  private async readNew(): Promise<StreamEntry[]> {
    if (this.stopping) return []; // close() came during the claim: do not start a blocking read
    this.readingBlocked = true;
    try {
      const reply = await this.reader.xReadGroup(
        GROUP,
        this.name,
        { key: this.stream, id: '>' },
        { COUNT: MAX_IN_FLIGHT - this.inFlight.size, BLOCK: BLOCK_MS },
      );
      return entriesOf(reply);
    } finally {
      this.readingBlocked = false;
    }
  }

  private async claimAbandoned(): Promise<StreamEntry[]> {
    const now = Date.now();
    if (now - this.lastClaimAt < this.options.claimAfterMs / 2) return [];
    this.lastClaimAt = now;
    const reply = await this.client.xAutoClaim(this.stream, GROUP, this.name, this.options.claimAfterMs, '0-0', {
      COUNT: MAX_IN_FLIGHT - this.inFlight.size,
    });
    return (reply.messages as Array<StreamEntry | null>)
      .filter((entry): entry is StreamEntry => entry !== null && !this.inFlight.has(entry.id));
  }

  private start(entry: StreamEntry): void {
    const settled = this.settle(entry)
      .catch((error) => this.options.log(`ended-jobs consumer: entry ${entry.id}: ${(error as Error).message}`))
      .finally(() => this.inFlight.delete(entry.id));
    this.inFlight.set(entry.id, settled);
  }

  private async settle(entry: StreamEntry): Promise<void> {
    const jobId = entry.message.job;
    // Renewing the claim (XCLAIM to ourselves resets the entry's idle time) keeps others from taking it meanwhile.
    const renewal = setInterval(() => {
      this.client.xClaimJustId(this.stream, GROUP, this.name, 0, entry.id).catch(() => undefined);
    }, Math.max(100, this.options.claimAfterMs / 3));
    try {
      if (jobId) await this.handler(jobId);
    } catch (error) {
      // The handler owns its retries (the webhook sender has its own); a throw must not block the stream.
      this.options.log(`ended-job handler failed for batch job ${jobId}: ${(error as Error).message}`);
    } finally {
      clearInterval(renewal);
    }
    // Cut short by close(): left pending, it is handed out again rather than lost.
    if (this.stopping) return;
    await this.client.xAck(this.stream, GROUP, entry.id);
    await this.client.xDel(this.stream, entry.id);
  }

  /** Consumers live on in the group until deleted; delete ours, unless it still holds entries. */
  private async leaveGroup(): Promise<void> {
    try {
      const pending = await this.client.xPendingRange(this.stream, GROUP, '-', '+', 1, { consumer: this.name });
      if (pending.length === 0) await this.client.xGroupDelConsumer(this.stream, GROUP, this.name);
    } catch {
      // Redis gone or the stream deleted: nothing to tidy.
    }
  }
}

function destroyQuietly(client: BatchRedisClient): void {
  if (client.isOpen) client.destroy();
}

function entriesOf(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((stream: { messages: StreamEntry[] }) => stream.messages);
}
