/** What the observation stores hold and what they promise (issue 18): the one contract of every store here. */

export type ObservationKind = 'home' | 'vehicle';
export type PriceType = 'sale' | 'appraisal' | 'listing';

/** One observation as stored: what the bank sent, and how the base model scored it when it was recorded. */
export interface StoredObservation {
  /**
   * Assigned by the store's caller: time-ordered and unique (e.g. `obs_` + ULID-like); the store keeps
   * it. Letters, digits and `_ . : -`, at most 128 of them (observation-records.ts): ties in the order
   * of list() go by id, and every store compares ids the same way.
   */
  id: string;
  kind: ObservationKind;
  /** ISO date (YYYY-MM-DD). */
  observedAt: string;
  /** ISO timestamp. */
  recordedAt: string;
  priceUsd: number;
  priceType: PriceType;
  /** The bank's own id, echoed back. */
  reference: string | null;
  /** The valuation request's fields as normalised. */
  input: Record<string, unknown>;
  /** E.g. { district, segment } or { make, model }. */
  groups: Record<string, string | null>;
  /** Null: could not be scored. */
  base: { estimate: number; low: number; high: number; coverage: number; modelVersion: string } | null;
}

export interface ObservationQuery {
  /** observedAt >= since (ISO date). */
  since?: string;
  /** observedAt <= until (ISO date): both bounds are inclusive. */
  until?: string;
  /** At most this many, newest observedAt first. */
  limit?: number;
  /**
   * Skips this many first (paging). Pages taken while observations are recorded may repeat an
   * observation (one recorded ahead of the page shifts the rest by one), never miss one: a reader
   * paging through drops repeated ids.
   */
  offset?: number;
}

export interface ObservationStore {
  /**
   * Stores all of `records` for `org` or none of them; resolves only once they are durable (file:
   * written and fsynced; Redis: one MULTI). Returns the organisation's new revision for that kind
   * (its current one when `records` is empty: nothing changes then).
   */
  append(org: string, kind: ObservationKind, records: readonly StoredObservation[]): Promise<number>;
  /** The organisation's observations of one kind, newest observedAt first (ties: newest id first). Never another organisation's. */
  list(org: string, kind: ObservationKind, query?: ObservationQuery): Promise<StoredObservation[]>;
  /** A number that changes whenever the organisation's observations of `kind` change (append or prune); cheap (one GET/in-memory read). 0 before any. */
  revision(org: string, kind: ObservationKind): Promise<number>;
  /**
   * Removes the organisation's observations of `kind` with these ids, all at once (file: one
   * rewrite; Redis: one MULTI); ids it does not hold (another organisation's, or none) are left out.
   * Returns the ids removed; the revision changes only when one was.
   */
  remove(org: string, kind: ObservationKind, ids: readonly string[]): Promise<string[]>;
  /** How many observations of `kind` the organisation keeps (its plan's storage quota counts them). */
  count(org: string, kind: ObservationKind): Promise<number>;
  /** Drops observations observed before `before` (ISO date) for every organisation; returns how many. */
  prune(before: string): Promise<number>;
  close(): Promise<void>;
}
