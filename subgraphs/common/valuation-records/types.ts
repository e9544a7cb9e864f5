/** What the valuation record stores hold and what they promise (issue 19): the one contract of every store here. */

export type RecordKind = 'home' | 'vehicle';

/** One valuation as it was given: what was asked, what was answered, when, and until when it is kept. */
export interface ValuationRecord {
  /** `val_` + a ULID (./record-ids.ts): ids sort as the records were made. */
  id: string;
  kind: RecordKind;
  /** ISO 8601 time the valuation was made. */
  createdAt: string;
  /** ISO date (YYYY-MM-DD): dropped after this day (the organisation's plan's retention at the time). */
  keepUntil: string;
  /** The gateway's request id (x-request-id), to find the call in the logs. */
  requestId: string | null;
  /** The request as the service understood it (canonical codes, the model's inputs). */
  input: Record<string, unknown>;
  /** The valuation as answered (GraphQL names): estimate, interval, confidence, anomaly, market level, adjustment, model version… */
  valuation: Record<string, unknown>;
}

export interface RecordQuery {
  /** Made on or after this day (YYYY-MM-DD). */
  since?: string;
  /** Made on or before this day (YYYY-MM-DD). */
  until?: string;
  /** Only ids before this one (paging: the last id of the previous page). */
  before?: string;
  /** At most this many, newest first. @default all */
  limit?: number;
}

/** A store's sample of a period (ValuationRecordStore.sample). */
export interface RecordSample {
  /** The organisation's records made in the period. */
  population: number;
  /** At most n of their ids, by sample key (./record-sample.ts), smallest first. */
  ids: string[];
}

export interface ValuationRecordStore {
  /** Stores every record of one call for `org`, all or none; resolves once they are durable. */
  append(org: string, records: readonly ValuationRecord[]): Promise<void>;
  /** The organisation's record, or null (another organisation's id is null too). */
  get(org: string, id: string): Promise<ValuationRecord | null>;
  /** The organisation's records, newest first. */
  list(org: string, query?: RecordQuery): Promise<ValuationRecord[]>;
  /**
   * A seeded random sample of the organisation's records made within since…until, for review: the
   * `n` ids whose key SHA-256(seed + ':' + id) is smallest, ordered by that key (./record-sample.ts:
   * every store draws the same ids for a seed), and how many records the period holds. Drawn without
   * reading the records themselves.
   */
  sample(org: string, period: Pick<RecordQuery, 'since' | 'until'>, n: number, seed: string): Promise<RecordSample>;
  /** Drops every record kept until before `today` (YYYY-MM-DD); returns how many. */
  prune(today: string): Promise<number>;
  close(): Promise<void>;
}
