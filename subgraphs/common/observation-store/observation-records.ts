/**
 * Checking and encoding observations, the same for every store, so that all of them accept and
 * refuse the same calls. A call is checked and encoded in full before anything is written: a record
 * that is wrong or cannot be serialised fails the whole call, and nothing of it is stored.
 */
import type { ObservationKind, ObservationQuery, StoredObservation } from './types';

/** A call the store refused before storing anything: a bad record, organisation, kind or query. */
export class InvalidObservationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidObservationError';
  }
}

/** One record ready to store: its JSON (one line, the id first) and its observedAt as a day number. */
export interface EncodedObservation {
  readonly id: string;
  /** Days since 1970-01-01 (UTC) of observedAt: the Redis score, and the order of list(). */
  readonly day: number;
  readonly json: string;
}

const KINDS: readonly ObservationKind[] = ['home', 'vehicle'];
const PRICE_TYPES = ['sale', 'appraisal', 'listing'];
/**
 * Every character sorts after `"` (0x22), so ids compare the same as plain strings and as the JSON
 * members Redis orders (`{"id":"<id>",…`): list()'s ties come out alike in every store.
 */
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;
/** Organisation ids are the tenant ids of API keys; this bounds what one may cost in a key or a file. */
const MAX_ORGANISATION_LENGTH = 256;
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Refuses an organisation id no store can keep apart from another: empty, overlong, or holding a
 * lone UTF-16 surrogate (UTF-8 turns every one into U+FFFD, so two such ids would hash alike).
 */
function checkOrganisation(org: string): void {
  if (typeof org !== 'string' || org.length === 0) throw new InvalidObservationError('the organisation id must be a non-empty string');
  if (org.length > MAX_ORGANISATION_LENGTH) throw new InvalidObservationError(`the organisation id is longer than ${MAX_ORGANISATION_LENGTH} characters`);
  if (LONE_SURROGATE.test(org)) throw new InvalidObservationError('the organisation id is not well-formed Unicode (a lone surrogate)');
}

/** Checks the organisation and kind a read names. */
export function checkSeries(org: string, kind: ObservationKind): void {
  checkOrganisation(org);
  checkKind(kind);
}

function checkKind(kind: string): asserts kind is ObservationKind {
  if (!KINDS.includes(kind as ObservationKind)) throw new InvalidObservationError(`the observation kind must be 'home' or 'vehicle', got ${JSON.stringify(kind)}`);
}

/** Days since 1970-01-01 of an ISO date (YYYY-MM-DD, a real day); `what` names it in the error. */
export function dayNumber(date: unknown, what: string): number {
  const match = typeof date === 'string' ? ISO_DATE.exec(date) : null;
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const time = Date.UTC(year, month - 1, day);
    const parsed = new Date(time);
    if (parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day) return time / DAY_MS;
  }
  throw new InvalidObservationError(`${what} must be an ISO date (YYYY-MM-DD), got ${JSON.stringify(date)}`);
}

/** The ISO date (YYYY-MM-DD) of a day number. */
export function isoDateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Checks every record of a call and encodes it; throws InvalidObservationError naming the first
 * bad one. Only what the stores rely on is checked (id, kind, dates, price): the caller validated
 * the request, and the rest is kept as given.
 */
export function encodeObservations(org: string, kind: ObservationKind, records: readonly StoredObservation[]): EncodedObservation[] {
  checkSeries(org, kind);
  if (!Array.isArray(records)) throw new InvalidObservationError('records must be an array');
  return records.map((record, index) => {
    try {
      return encodeObservation(kind, record);
    } catch (error) {
      const reason = error instanceof InvalidObservationError ? error.message : `cannot be serialised: ${String((error as Error).message).split('\n')[0]}`;
      throw new InvalidObservationError(`observation ${index + 1} of ${records.length} (id ${JSON.stringify(record?.id)}): ${reason}; nothing of the call was stored`);
    }
  });
}

function encodeObservation(kind: ObservationKind, record: StoredObservation): EncodedObservation {
  if (typeof record !== 'object' || record === null) throw new InvalidObservationError('not an object');
  if (typeof record.id !== 'string' || !ID.test(record.id)) throw new InvalidObservationError('the id must be 1 to 128 letters, digits or _ . : -');
  if (record.kind !== kind) throw new InvalidObservationError(`its kind ${JSON.stringify(record.kind)} is not the call's (${kind})`);
  const day = dayNumber(record.observedAt, 'observedAt');
  if (typeof record.recordedAt !== 'string' || Number.isNaN(Date.parse(record.recordedAt))) throw new InvalidObservationError('recordedAt must be an ISO timestamp');
  if (typeof record.priceUsd !== 'number' || !Number.isFinite(record.priceUsd)) throw new InvalidObservationError('priceUsd must be a finite number');
  if (!PRICE_TYPES.includes(record.priceType)) throw new InvalidObservationError(`priceType must be one of ${PRICE_TYPES.join(', ')}`);
  // The id first: Redis orders members of one score by their bytes, which then means by id.
  const { id, ...rest } = record;
  return { id, day, json: JSON.stringify({ id, ...rest }) };
}

/** The stored form read back: a fresh object each time, never one the store holds. */
export function decodeObservation(json: string): StoredObservation {
  return JSON.parse(json) as StoredObservation;
}

/** A query as day numbers (bounds inclusive), an offset and a limit, checked. */
export interface DayRange {
  fromDay: number;
  toDay: number;
  offset: number;
  limit: number;
}

/** Checks a list() call and gives its query as a DayRange. */
export function dayRangeOf(org: string, kind: ObservationKind, query: ObservationQuery = {}): DayRange {
  checkSeries(org, kind);
  const fromDay = query.since === undefined ? -Infinity : dayNumber(query.since, 'since');
  const toDay = query.until === undefined ? Infinity : dayNumber(query.until, 'until');
  const limit = query.limit ?? Infinity;
  if (limit !== Infinity && (!Number.isInteger(limit) || limit < 0)) throw new InvalidObservationError(`limit must be a whole number ≥ 0, got ${JSON.stringify(query.limit)}`);
  const offset = query.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new InvalidObservationError(`offset must be a whole number ≥ 0, got ${JSON.stringify(query.offset)}`);
  return { fromDay, toDay, offset, limit };
}

/** list()'s order: newest observedAt first, ties newest id first. */
export function newestFirst(a: Pick<EncodedObservation, 'id' | 'day'>, b: Pick<EncodedObservation, 'id' | 'day'>): number {
  if (a.day !== b.day) return b.day - a.day;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
