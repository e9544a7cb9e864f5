import { decide, windowsAt } from './fixed-windows';
import type { QuotaDecision, QuotaLimits, QuotaStore } from './quota-store';

/**
 * A subject's counts in the newest two windows of one length, by window index. Two, so that a clock
 * stepping back across a boundary (NTP, another caller's `now`) counts in the window it falls in,
 * as the Redis store's per-window keys do within their expiry grace; a step back further than that
 * counts in the older of the two.
 */
class RecentWindows {
  private readonly counts = new Map<number, number>();

  /** The window a call at `index` counts in: its own, or the oldest kept when it is older still. */
  private windowFor(index: number): number {
    const oldest = Math.min(...this.counts.keys());
    return this.counts.size === 0 || index >= oldest ? index : oldest;
  }

  countAt(index: number): number {
    return this.counts.get(this.windowFor(index)) ?? 0;
  }

  add(index: number, units: number): void {
    const window = this.windowFor(index);
    this.counts.set(window, (this.counts.get(window) ?? 0) + units);
    if (this.counts.size > 2) this.counts.delete(Math.min(...this.counts.keys()));
  }

  newest(): number {
    return Math.max(...this.counts.keys());
  }
}

interface SubjectCounters {
  minutes: RecentWindows;
  days: RecentWindows;
}

/** Counts in this process only: right for one gateway instance, development and tests. */
export class InMemoryQuotaStore implements QuotaStore {
  private readonly counters = new Map<string, SubjectCounters>();
  private sweptDayIndex: number | undefined;

  /** Subjects currently holding counters; bounded by the subjects seen since the previous UTC midnight. */
  get trackedSubjects(): number {
    return this.counters.size;
  }

  async consume(subject: string, limits: QuotaLimits, now = Date.now(), units = 1): Promise<QuotaDecision> {
    const windows = windowsAt(now);
    this.sweepOnNewDay(windows.day.index);
    let counters = this.counters.get(subject);
    if (!counters) this.counters.set(subject, (counters = { minutes: new RecentWindows(), days: new RecentWindows() }));
    const minute = counters.minutes.countAt(windows.minute.index);
    const day = counters.days.countAt(windows.day.index);
    // No await between the check and the increment, so concurrent calls cannot both take the last slot.
    const allowed = minute + units <= limits.perMinute && day + units <= limits.perDay;
    if (allowed) {
      counters.minutes.add(windows.minute.index, units);
      counters.days.add(windows.day.index, units);
    }
    return decide(allowed, { minute: allowed ? minute + units : minute, day: allowed ? day + units : day }, limits, windows, now, units);
  }

  async close(): Promise<void> {
    this.counters.clear();
  }

  /** Once per new day, drop subjects with nothing since yesterday: their counters would start at zero anyway. */
  private sweepOnNewDay(dayIndex: number): void {
    if (this.sweptDayIndex !== undefined && dayIndex <= this.sweptDayIndex) return;
    for (const [subject, counters] of this.counters) {
      if (counters.days.newest() < dayIndex - 1) this.counters.delete(subject);
    }
    this.sweptDayIndex = dayIndex;
  }
}
