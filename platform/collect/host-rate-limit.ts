/**
 * One gate per host: a request waits until `minIntervalMs` after the previous request to that host
 * was sent, whatever site or query it belongs to. Requests to one host are taken one at a time.
 */
import type { Clock } from './clock';

export class HostRateLimit {
  private readonly nextAllowed = new Map<string, number>();
  private readonly intervals = new Map<string, number>();

  constructor(
    private readonly minIntervalMs: number,
    private readonly clock: Clock,
  ) {}

  /** Waits for the host's turn and books the next one. Returns how long it waited. */
  async take(host: string): Promise<number> {
    const now = this.clock.now();
    const wait = Math.max(0, (this.nextAllowed.get(host) ?? now) - now);
    this.nextAllowed.set(host, now + wait + (this.intervals.get(host) ?? this.minIntervalMs));
    if (wait > 0) await this.clock.sleep(wait);
    return wait;
  }

  /** A longer interval for one host (its robots.txt Crawl-delay); never shorter than the default. */
  slowDown(host: string, intervalMs: number): void {
    const interval = Math.max(this.minIntervalMs, intervalMs);
    const booked = this.nextAllowed.get(host);
    // The turn already booked at the shorter interval moves back too.
    if (booked !== undefined) this.nextAllowed.set(host, booked - (this.intervals.get(host) ?? this.minIntervalMs) + interval);
    this.intervals.set(host, interval);
  }

  /** Pushes the host's next turn back (a Retry-After or a back-off). */
  deferUntil(host: string, time: number): void {
    this.nextAllowed.set(host, Math.max(this.nextAllowed.get(host) ?? 0, time));
  }
}
