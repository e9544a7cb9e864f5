/** Keeping observations for the retention only: the cut-off date, and the sweep that prunes every store up to it. */
import { isoDateOfDay } from './observation-records';
import type { ObservationStore } from './types';

const DAY_MS = 86_400_000;

/** The first day kept when observations are kept `retentionDays` days: today (UTC, by `nowMs`) minus the retention. */
export function retentionCutoff(retentionDays: number, nowMs: number): string {
  return isoDateOfDay(Math.floor(nowMs / DAY_MS) - retentionDays);
}

export interface RetentionSweepOptions {
  retentionDays: number;
  /** How often start() sweeps. Cut-offs move by whole days: a sweep an hour is at most an hour late. @default 3_600_000 (1 h) */
  everyMs?: number;
  /** The clock the cut-off is taken from. @default Date.now */
  now?: () => number;
  log: (message: string) => void;
}

/** Prunes a store of what is older than the retention, when asked and, once started, periodically. */
export class RetentionSweep {
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(
    private readonly store: ObservationStore,
    private readonly options: RetentionSweepOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Drops every observation observed before the cut-off; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = retentionCutoff(this.options.retentionDays, this.now());
    const removed = await this.store.prune(cutoff);
    if (removed > 0) this.options.log(`retention: dropped ${removed} observations observed before ${cutoff}`);
    return removed;
  }

  start(): this {
    this.timer ??= setInterval(() => {
      this.sweep().catch((error: Error) => this.options.log(`retention sweep failed (tried again in ${this.options.everyMs ?? 3_600_000} ms): ${error.message}`));
    }, this.options.everyMs ?? 3_600_000);
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
