/**
 * Valuation record ids: `val_` and a ULID (48-bit millisecond time, then 80 random bits, in
 * Crockford base 32), so that ids sort as records were made, in every store, and a day's bounds
 * are id bounds. Random, not counted: an id says nothing about how many valuations others made.
 */
import { pooledRandomLetters } from '../random-pool';

export const RECORD_ID_PREFIX = 'val_';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ID_PATTERN = /^val_[0-9A-HJKMNP-TV-Z]{26}$/;

function timePart(ms: number): string {
  let out = '';
  let t = Math.floor(ms);
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

/** The last time part made, and its time: a bulk call's ids share their millisecond. */
let lastTime = { ms: NaN, part: '' };

/** A new id for a record made at `ms`. */
export function newRecordId(ms: number = Date.now()): string {
  if (ms !== lastTime.ms) lastTime = { ms, part: timePart(ms) };
  return `${RECORD_ID_PREFIX}${lastTime.part}${pooledRandomLetters(16, CROCKFORD)}`;
}

export const isRecordId = (id: string): boolean => ID_PATTERN.test(id);

/** The time an id was made at (ms since 1970). */
export function recordIdTime(id: string): number {
  let t = 0;
  for (const c of id.slice(RECORD_ID_PREFIX.length, RECORD_ID_PREFIX.length + 10)) t = t * 32 + CROCKFORD.indexOf(c);
  return t;
}

/** Whether `day` is a day as the stores take one (YYYY-MM-DD): a keep-until day, a period's bound, prune's today. */
export const isDay = (day: unknown): day is string => typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`));

/** 'YYYY-MM' of a time (UTC): the month a record made then belongs to (the stores' partitions and runs). */
export function monthOf(ms: number): string {
  const date = new Date(ms);
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The smallest id of a day and the largest: every id made that day lies between them (inclusive). */
function dayIdBounds(day: string): { first: string; last: string } {
  if (!isDay(day)) throw new RangeError(`not a date: ${day}`);
  const start = Date.parse(`${day}T00:00:00Z`);
  return { first: `${RECORD_ID_PREFIX}${timePart(start)}${'0'.repeat(16)}`, last: `${RECORD_ID_PREFIX}${timePart(start + 86_400_000 - 1)}${'Z'.repeat(16)}` };
}

/** A query's id window: ids from `low` (inclusive) up to `high`, inclusive or not. */
export interface IdWindow {
  low: string;
  high: string;
  highInclusive: boolean;
}

export function idWindow(query: { since?: string; until?: string; before?: string }): IdWindow {
  const low = query.since ? dayIdBounds(query.since).first : RECORD_ID_PREFIX;
  const last = query.until ? dayIdBounds(query.until).last : `${RECORD_ID_PREFIX}~`;
  if (query.before !== undefined && query.before <= last) return { low, high: query.before, highInclusive: false };
  return { low, high: last, highInclusive: true };
}

export const inWindow = (id: string, w: IdWindow): boolean => id >= w.low && (w.highInclusive ? id <= w.high : id < w.high);
