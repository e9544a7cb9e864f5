import type { QuotaDecision, QuotaLimits, QuotaWindow } from './quota-store';

const MINUTE_MS = 60_000;
// Unix time has no leap seconds, so multiples of a day fall exactly on UTC midnight.
const DAY_MS = 86_400_000;

export interface FixedWindow {
  /** Which window of its kind this is since the epoch; part of storage keys. */
  index: number;
  /** Epoch milliseconds at which the window ends (exclusive). */
  endsAt: number;
}

export interface WindowsAt {
  minute: FixedWindow;
  day: FixedWindow;
}

export interface WindowCounts {
  minute: number;
  day: number;
}

export function windowsAt(now: number): WindowsAt {
  const minuteIndex = Math.floor(now / MINUTE_MS);
  const dayIndex = Math.floor(now / DAY_MS);
  return {
    minute: { index: minuteIndex, endsAt: (minuteIndex + 1) * MINUTE_MS },
    day: { index: dayIndex, endsAt: (dayIndex + 1) * DAY_MS },
  };
}

/** Turns the counts after a consumption of `units` (including it when allowed) into what the client is told. */
export function decide(
  allowed: boolean,
  counts: WindowCounts,
  limits: QuotaLimits,
  windows: WindowsAt,
  now: number,
  units = 1,
): QuotaDecision {
  const minute = describe('minute', limits.perMinute, counts.minute, windows.minute);
  const day = describe('day', limits.perDay, counts.day, windows.day);
  // A denial reports the day when it cannot take the units, since waiting for the next minute would not help.
  // When allowed, ties go to the day as well: it resets later, so its reset time is the honest one.
  const binding = allowed ? (minute.remaining < day.remaining ? minute : day) : day.remaining < units ? day : minute;
  const resetSeconds = Math.ceil((binding.endsAt - now) / 1000);
  const decision: QuotaDecision = {
    allowed,
    limit: binding.limit,
    remaining: binding.remaining,
    resetSeconds,
    window: binding.window,
  };
  if (!allowed) decision.retryAfterSeconds = resetSeconds;
  return decision;
}

function describe(window: QuotaWindow, limit: number, count: number, fixed: FixedWindow) {
  return { window, limit, remaining: Math.max(0, limit - count), endsAt: fixed.endsAt };
}
