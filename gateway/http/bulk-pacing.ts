/**
 * Bulk work yields to interactive requests (issue 33, findings 2 and 3). An upload, a JSON body of
 * thousands of observations or an export runs in parts on the event loop every organisation's
 * valuations share; slicing the parts alone still made another bank's sequential valuations wait
 * behind slice after slice (median ×10 during a 100,000-row upload). So between two parts a bulk
 * request pauses as long as the part took whenever an interactive request was in flight or arrived
 * meanwhile: interactive callers then get at least half of the loop, and bulk work still gets the
 * other half, so it is never starved. Alone, it runs without pauses.
 *
 * Interactive: an authenticated request on a route without `config.bulk` (gateway/http/authenticate.ts
 * counts it until its reply closes). Unauthenticated requests do not count: a caller without a key
 * cannot slow anyone's uploads down.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's work comes in parts that pace themselves (BulkLane): its requests are not interactive. */
    bulk?: boolean;
  }
  interface FastifyRequest {
    /** Set on authenticated requests of `config.bulk` routes: run each part of the work through it. */
    bulkLane?: BulkLane;
  }
}

/** The longest pause between two parts: a part that took longer still lets its caller go on within this. */
const MAX_PAUSE_MS = 250;

export interface BulkPacingOptions {
  /** Waits `ms`; tests record the pauses instead. @default a timer */
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds, monotonic. @default performance.now */
  now?: () => number;
}

export class BulkPacer {
  private inFlight = 0;
  private arrived = 0;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;

  constructor(options: BulkPacingOptions = {}) {
    this.sleep = options.sleep ?? ((ms) => sleepFor(ms));
    this.now = options.now ?? (() => performance.now());
  }

  /** Counts an interactive request until its reply is sent or its connection closes. */
  trackInteractive(reply: FastifyReply): void {
    this.inFlight++;
    this.arrived++;
    reply.raw.once('close', () => this.inFlight--);
  }

  /** Interactive requests in flight, and how many have arrived since the process started. */
  load(): { inFlight: number; arrived: number } {
    return { inFlight: this.inFlight, arrived: this.arrived };
  }

  /** A bulk request's pacing, from now. */
  lane(): BulkLane {
    return new BulkLane(this);
  }
}

/** How a bulk request runs its parts: BulkLane, or `unpaced` where there is no caller to pace (MCP, tools). */
export type Pace = Pick<BulkLane, 'run'>;

export const unpaced: Pace = { run: (work) => work() };

export class BulkLane implements Pace {
  /** The last part's time (ms), owed as a pause if interactive requests came meanwhile. */
  private owed = 0;
  private arrivedAt = 0;

  constructor(private readonly pacer: BulkPacer) {}

  /**
   * Runs one part of the work, after a pause as long as the previous part took (at most
   * MAX_PAUSE_MS) if an interactive request was in flight or arrived since it began. Only the parts'
   * own time is counted: reading the next part from a slow client costs no pause.
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const { inFlight, arrived } = this.pacer.load();
    if (this.owed >= 1 && (inFlight > 0 || arrived !== this.arrivedAt)) await this.pacer.sleep(Math.min(Math.round(this.owed), MAX_PAUSE_MS));
    this.arrivedAt = this.pacer.load().arrived;
    const start = this.pacer.now();
    try {
      return await work();
    } finally {
      this.owed = this.pacer.now() - start;
    }
  }
}
