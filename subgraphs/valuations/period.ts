/**
 * A review period as clients write it: a year (2026), a month (2026-11), a day (2026-11-24) or a
 * range of days (2026-11-01/2026-11-15), as its first and last day (both inclusive).
 */
import { isCalendarDate } from '../../schema/valuation-date';
import { ApiError } from '../../schema/errors';

export function periodDays(period: string, field = 'period'): { since: string; until: string } {
  const days = calendarPeriod(period, field);
  // The stores count days from 1970 (and no valuation is older): an earlier date would silently match nothing.
  if (days.since < EARLIEST_DAY) throw new ApiError('INVALID_PARAMETER', `${field} must not be before ${EARLIEST_DAY}, got "${period.slice(0, 40)}"`, field);
  return days;
}

/** The earliest day a period may name. */
export const EARLIEST_DAY = '1970-01-01';

function calendarPeriod(period: string, field: string): { since: string; until: string } {
  const bad = () => new ApiError('INVALID_PARAMETER', `${field} must be YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DD/YYYY-MM-DD, got "${period.slice(0, 40)}"`, field);
  const trimmed = period.trim();
  if (/^\d{4}$/.test(trimmed)) return { since: `${trimmed}-01-01`, until: `${trimmed}-12-31` };
  const month = /^(\d{4})-(\d{2})$/.exec(trimmed);
  if (month) {
    const m = Number(month[2]);
    if (m < 1 || m > 12) throw bad();
    const last = new Date(Date.UTC(Number(month[1]), m, 0)).getUTCDate();
    return { since: `${trimmed}-01`, until: `${trimmed}-${String(last).padStart(2, '0')}` };
  }
  const [since, until = since] = trimmed.split('/');
  if (!isCalendarDate(since) || !isCalendarDate(until) || until < since) throw bad();
  return { since, until };
}
