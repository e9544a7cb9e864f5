/**
 * The `valuation_date` every valuation request takes (homes, vehicles): 'YYYY-MM-DD', or 'YYYY-MM'
 * read as the 1st, within the range the kind's market index reaches back to and a number of months
 * ahead (the index's drift is an allowance, not a forecast). The form is the field table's
 * (STRING_FORMATS.date, which REST clients meet in ajv first); the calendar and the range are here.
 */
import { ApiError } from './errors';
import { STRING_FORMATS } from './field-table';

export interface ValuationDateRange {
  /** 'YYYY-MM-DD': the earliest date a valuation may be asked for. */
  earliest: string;
  /** How many months past today a valuation may be dated. */
  monthsAhead: number;
}

const DATE_FORM = new RegExp(STRING_FORMATS.date.pattern);

/** Whether 'YYYY-MM-DD' names a day of the calendar (not 2026-02-30); the form is the caller's to check. */
export function isCalendarDate(iso: string): boolean {
  return !Number.isNaN(Date.parse(iso)) && new Date(iso).toISOString().slice(0, 10) === iso;
}

/** 'YYYY-MM-DD' or 'YYYY-MM' → 'YYYY-MM-DD'; absent or blank → null; a text of another form, or not a day of the calendar, is a 400 naming `field`. */
export function parseDateForm(value: string | null | undefined, field: string): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  const iso = text.length === 7 ? `${text}-01` : text;
  if (!DATE_FORM.test(text) || !isCalendarDate(iso)) {
    throw new ApiError('INVALID_PARAMETER', `${field} "${text.length > 60 ? `${text.slice(0, 57)}...` : text}" must be ${STRING_FORMATS.date.name}`, field);
  }
  return iso;
}

/** As parseDateForm, and out of range is a 400 naming `field` too. */
export function parseValuationDate(value: string | null | undefined, field: string, range: ValuationDateRange, today: Date = new Date()): string | null {
  const iso = parseDateForm(value, field);
  if (iso === null) return null;
  const latest = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + range.monthsAhead, today.getUTCDate())).toISOString().slice(0, 10);
  if (iso < range.earliest || iso > latest) {
    throw new ApiError('INVALID_PARAMETER', `${field} must be between ${range.earliest} and ${latest}`, field);
  }
  return iso;
}
