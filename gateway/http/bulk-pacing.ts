/**
 * Bulk work yields to interactive requests (issue 33, findings 2 and 3). An upload, a JSON body of
 * thousands of observations or an export runs in parts on the event loop every organisation's
 * valuations share; slicing the parts alone still made another bank's sequential valuations wait
 * behind slice after slice (median ×10 during a 100,000-row upload). So while an interactive
 * request is in flight, or has arrived since the last part began, bulk parts run one at a time
 * across every bulk request of the process, each after a pause as long as the part before it took:
 * interactive callers get at least half of the loop however many uploads and exports run, and bulk
 * work the other half, so it is never starved. Uncontended, parts run as they come.
 *
 * Interactive: an authenticated request on a route without `config.bulk` (gateway/http/authenticate.ts
 * counts it until its reply closes). Unauthenticated requests do not count: a caller without a key
 * cannot slow anyone's uploads down.
 */
import { setImmediate as nextTurn, setTimeout as sleepFor } from 'node:timers/promises';
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
  /** `arrived` when the last bulk part began. */
  private arrivedAtLastPart = 0;
  /** Bulk parts running now. */
  private running = 0;
  /** The last bulk part's time (ms): the pause owed before the next one while contended. */
  private owed = 0;
  private partEnded: (() => void)[] = [];
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;

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

  /** A bulk request's pacing. */
  lane(): BulkLane {
    return { run: (work) => this.runPart(work) };
  }

  /**
   * One part of bulk work. First one turn of the event loop: a part answered in process (the
   * subgraphs' local transport) is a chain of promises that never reaches the loop's I/O phase, so
   * three exports without it kept another bank's request from even being read for 14 s. Then, while
   * contended, it waits for the part running (if any; MAX_PAUSE_MS at most) and pauses as long as
   * the last part took (at most MAX_PAUSE_MS). Only the parts' own time is counted: reading the next
   * part from a slow client costs no pause.
   */
  private async runPart<T>(work: () => Promise<T>): Promise<T> {
    await nextTurn();
    // A part that hangs (a stalled subgraph) must not hold every other bulk request: wait for it MAX_PAUSE_MS at most.
    const deadline = Date.now() + MAX_PAUSE_MS;
    while (this.contended() && this.running > 0 && Date.now() < deadline) await this.partEndsWithin(deadline - Date.now());
    this.running++;
    let started = this.now();
    try {
      if (this.contended() && this.owed >= 1) {
        await this.sleep(Math.min(Math.round(this.owed), MAX_PAUSE_MS));
        started = this.now();
      }
      this.arrivedAtLastPart = this.arrived;
      return await work();
    } finally {
      this.owed = this.now() - started;
      this.running--;
      for (const resolve of this.partEnded.splice(0)) resolve();
    }
  }

  /** Resolves when a running part ends, or after `ms`. */
  private partEndsWithin(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.partEnded.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private contended(): boolean {
    return this.inFlight > 0 || this.arrived !== this.arrivedAtLastPart;
  }
}

/** How a bulk request runs its parts: BulkPacer.lane(), or `unpaced` where there is no caller to pace (MCP, tools). */
export interface BulkLane {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export const unpaced: BulkLane = { run: (work) => work() };
