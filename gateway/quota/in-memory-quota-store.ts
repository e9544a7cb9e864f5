import { decide, windowsAt, type WindowsAt } from './fixed-windows';
import type { QuotaDecision, QuotaLimits, QuotaStore } from './quota-store';

interface SubjectCounters {
  minuteIndex: number;
  minuteCount: number;
  dayIndex: number;
  dayCount: number;
}

/** Counts in this process only: right for one gateway instance, development and tests. */
export class InMemoryQuotaStore implements QuotaStore {
  private readonly counters = new Map<string, SubjectCounters>();
  private sweptDayIndex: number | undefined;

  /** Subjects currently holding counters; bounded by the subjects seen since UTC midnight. */
  get trackedSubjects(): number {
    return this.counters.size;
  }

  async consume(subject: string, limits: QuotaLimits, now = Date.now(), units = 1): Promise<QuotaDecision> {
    const windows = windowsAt(now);
    this.sweepOnNewDay(windows.day.index);
    const counters = this.currentCounters(subject, windows);
    // No await between the check and the increment, so concurrent calls cannot both take the last slot.
    const allowed = counters.minuteCount + units <= limits.perMinute && counters.dayCount + units <= limits.perDay;
    if (allowed) {
      counters.minuteCount += units;
      counters.dayCount += units;
    }
    return decide(allowed, { minute: counters.minuteCount, day: counters.dayCount }, limits, windows, now, units);
  }

  async close(): Promise<void> {
    this.counters.clear();
  }

  private currentCounters(subject: string, windows: WindowsAt): SubjectCounters {
    let counters = this.counters.get(subject);
    // Only a later window starts afresh: a clock stepping back (NTP, another caller's `now`) counts
    // against the newest window seen, so it can never admit more than the limit.
    if (!counters || windows.day.index > counters.dayIndex) {
      counters = { minuteIndex: windows.minute.index, minuteCount: 0, dayIndex: windows.day.index, dayCount: 0 };
      this.counters.set(subject, counters);
    } else if (windows.minute.index > counters.minuteIndex) {
      counters.minuteIndex = windows.minute.index;
      counters.minuteCount = 0;
    }
    return counters;
  }

  /** Once per day, drop subjects whose day window has passed: their counters would restart at zero anyway. */
  private sweepOnNewDay(dayIndex: number): void {
    if (this.sweptDayIndex !== undefined && dayIndex <= this.sweptDayIndex) return;
    for (const [subject, counters] of this.counters) {
      if (counters.dayIndex < dayIndex) this.counters.delete(subject);
    }
    this.sweptDayIndex = dayIndex;
  }
}
