/**
 * Whether Redis answers, for the request path and for /ready. A Redis that is down refuses the
 * connection and node-redis says so (isReady false). A stalled one (paused, swapping, stuck in a
 * long script) keeps the connection open: isReady stays true and every command waits, and
 * node-redis's own command `timeout` does not help, since it only covers a command not yet written
 * to the socket. So the probe PINGs over the callers' own connection, one PING at a time, and
 * counts Redis unreachable while the client is not ready, the last PING failed, or the PING in
 * flight has waited longer than the timeout. Callers check isReachable() before sending, so once a
 * stall is known they fail at once instead of adding commands that would wait in the client, and
 * bound the commands they do send (within()).
 */
import { within } from './within';

/** How long a request waits on Redis before going on without it (quota checks) or refusing (webhook secrets); batch calls allow 500 ms (DEFAULT_STORAGE_TIMEOUT_MS). */
export const DEFAULT_REDIS_TIMEOUT_MS = 250;

/** What the probe needs of a node-redis client. */
export interface PingableRedis {
  readonly isReady: boolean;
  ping(): Promise<unknown>;
}

export interface RedisHealthOptions {
  /** A PING unanswered this long makes Redis unreachable until it is answered. @default DEFAULT_REDIS_TIMEOUT_MS */
  timeoutMs?: number;
  /** How often start() PINGs (none is sent while one is in flight). @default 500 */
  intervalMs?: number;
}

export class RedisHealth {
  private readonly timeoutMs: number;
  private readonly intervalMs: number;
  private pinging = false;
  /** The PING in flight has waited longer than timeoutMs. */
  private overdue = false;
  private lastPingFailed = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: PingableRedis,
    options: RedisHealthOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.intervalMs = options.intervalMs ?? 500;
  }

  /** PINGs now and every intervalMs until stop(); the timer does not keep the process alive. */
  start(): this {
    this.timer ??= setInterval(() => this.probe(), this.intervalMs).unref();
    this.probe();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  isReachable(): boolean {
    return this.client.isReady && !this.lastPingFailed && !this.overdue;
  }

  /** Sends a PING unless one is in flight (a stalled Redis gets one, not a pile) or the client is reconnecting. */
  probe(): void {
    if (this.pinging || !this.client.isReady) return;
    this.pinging = true;
    const answered = this.client.ping().then(
      () => true,
      () => false,
    );
    // A timer rather than a clock read in isReachable(): a reply already in when the event loop was busy still counts (see within).
    void within(answered, this.timeoutMs, () => undefined).then((ok) => {
      if (ok === undefined) this.overdue = true;
    });
    void answered.then((ok) => {
      this.pinging = false;
      this.overdue = false;
      this.lastPingFailed = !ok;
    });
  }
}
