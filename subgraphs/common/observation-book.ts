/**
 * An organisation's observed prices of one kind and what they do to its valuations (issue 18): kept
 * in the observation store, fitted into one observation model per organisation (models/observations:
 * empirical-Bayes market factors, conformal recalibration), and applied to each valuation it asks for.
 *
 * A fitted model is kept while the store's revision for the organisation stands. A replica that
 * records observations refits at once; another replica notices within `revisionCheckMs` (it asks
 * the store for the revision at most that often per organisation), so replicas agree within a second.
 *
 * A valuation never waits on a slow store: a revision check or a fit that has not answered within
 * `timeoutMs` is left running (one per organisation at a time) and the valuation goes on with the
 * model it had (none the first time), as quota checks go on without Redis.
 */
import { fitObservationModel, type GroupHierarchy, type ObservationModel, type ScoredObservation } from '../../models/observations';
import { join } from 'node:path';
import { ApiError } from '../../schema/errors';
import { liveAccuracyReport, type LiveAccuracyReport } from './live-accuracy';
import { DEFAULT_REDIS_TIMEOUT_MS } from './redis-health';
import { within } from './within';
import { createObservationStore, observationStoreConfigFromEnv, type ObservationKind, type ObservationQuery, type ObservationStore, type StoredObservation } from './observation-store';

/** How often a replica asks the store whether another one recorded observations. @default 1000 ms */
export const REVISION_CHECK_MS = 1000;

export interface ObservationBookOptions {
  kind: ObservationKind;
  hierarchy: GroupHierarchy;
  store: ObservationStore;
  /** Ages and recency weights are counted to this clock's day. @default Date.now */
  clock?: () => number;
  revisionCheckMs?: number;
  /** How long a valuation waits on the store. @default DEFAULT_REDIS_TIMEOUT_MS (250 ms) */
  timeoutMs?: number;
  log?(message: string): void;
}

interface FittedModel {
  revision: number;
  asOf: string;
  checkedAt: number;
  model: ObservationModel | null;
}

export class ObservationBook {
  readonly kind: ObservationKind;
  readonly hierarchy: GroupHierarchy;
  private readonly store: ObservationStore;
  private readonly clock: () => number;
  private readonly revisionCheckMs: number;
  private readonly timeoutMs: number;
  private readonly log: (message: string) => void;
  private readonly fitted = new Map<string, FittedModel>();
  /** One fit at a time per organisation: concurrent valuations wait for the same one. */
  private readonly fitting = new Map<string, Promise<FittedModel>>();
  /** One revision check at a time per organisation: a stalled store gets no pile of them. */
  private readonly checking = new Map<string, Promise<number>>();

  constructor(options: ObservationBookOptions) {
    this.kind = options.kind;
    this.hierarchy = options.hierarchy;
    this.store = options.store;
    this.clock = options.clock ?? Date.now;
    this.revisionCheckMs = options.revisionCheckMs ?? REVISION_CHECK_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.log = options.log ?? (() => undefined);
  }

  /** Stores the organisation's scored observations (all or none); its next valuation uses them. */
  async record(org: string, records: readonly StoredObservation[]): Promise<number> {
    const revision = await this.store.append(org, this.kind, records);
    this.fitted.delete(org);
    return revision;
  }

  list(org: string, query?: ObservationQuery): Promise<StoredObservation[]> {
    return this.store.list(org, this.kind, query);
  }

  /** The organisation's observation model as of today; null while it has no observation that can be scored. */
  async model(org: string): Promise<ObservationModel | null> {
    const now = this.clock();
    const asOf = new Date(now).toISOString().slice(0, 10);
    const known = this.fitted.get(org);
    if (known && known.asOf === asOf) {
      if (now - known.checkedAt < this.revisionCheckMs) return known.model;
      const revision = await this.bounded(this.singleFlight(this.checking, org, () => this.store.revision(org, this.kind)));
      if (revision === undefined || revision === known.revision) {
        known.checkedAt = now; // slow store: the model it had stands until the next check
        return known.model;
      }
    }
    const fitted = await this.bounded(this.singleFlight(this.fitting, org, () => this.fit(org, asOf, now)));
    return fitted ? fitted.model : (known?.model ?? null);
  }

  /** What `promise` gives within the timeout, else undefined (it goes on; its result is kept when it comes); a failing store is undefined too. */
  private async bounded<T>(promise: Promise<T>): Promise<T | undefined> {
    const settled = promise.catch((error: Error) => {
      this.log(`observations: the store failed (${error.message}); valuations go on with the adjustments they had`);
      return undefined;
    });
    return within(settled, this.timeoutMs, () => {
      this.log(`observations: the store did not answer within ${this.timeoutMs} ms; valuations go on with the adjustments they had`);
      return undefined;
    });
  }

  private singleFlight<T>(flights: Map<string, Promise<T>>, org: string, start: () => Promise<T>): Promise<T> {
    let flight = flights.get(org);
    if (!flight) {
      flight = start().finally(() => flights.delete(org));
      flights.set(org, flight);
    }
    return flight;
  }

  /**
   * The organisation's live accuracy over observations observed on or after `since`, overall and
   * per group at `level` (a level name of the hierarchy, below its top), with the drift verdicts.
   */
  async liveAccuracy(org: string, since: string | null, level: string): Promise<LiveAccuracyReport> {
    const depth = this.hierarchy.levels.indexOf(level);
    if (depth < 1) throw new ApiError('INVALID_PARAMETER', `level must be one of ${this.hierarchy.levels.slice(1).join(', ')}`, 'level');
    const asOf = new Date(this.clock()).toISOString().slice(0, 10);
    const records = await this.store.list(org, this.kind);
    return liveAccuracyReport(records, (record) => this.scored(record), { hierarchy: this.hierarchy, asOf, since, level: depth });
  }

  /** A stored observation as the model reads it: its group path, top level first. */
  scored(record: StoredObservation): ScoredObservation | null {
    if (!record.base) return null;
    return {
      kind: record.kind,
      groups: this.hierarchy.levels.map((level) => record.groups[level] ?? 'unknown'),
      observedAt: record.observedAt,
      priceUsd: record.priceUsd,
      priceType: record.priceType,
      base: record.base,
    };
  }

  private async fit(org: string, asOf: string, now: number): Promise<FittedModel> {
    // The revision is read first: observations recorded during the fit make the next check refit.
    const revision = await this.store.revision(org, this.kind);
    const observations = (await this.store.list(org, this.kind)).map((r) => this.scored(r)).filter((o): o is ScoredObservation => o !== null);
    const model = observations.length === 0 ? null : fitObservationModel(observations, { hierarchy: this.hierarchy, asOf });
    const fitted = { revision, asOf, checkedAt: now, model };
    this.fitted.set(org, fitted);
    return fitted;
  }
}

export interface OpenObservationBookOptions {
  kind: ObservationKind;
  hierarchy: GroupHierarchy;
  /** OBSERVATION_* settings (./observation-store/config.ts). */
  env: NodeJS.ProcessEnv;
  /** REDIS_URL as the process decided it ('' or undefined: files). */
  redisUrl?: string;
  log(message: string): void;
}

/** The book of one kind on the store the settings name: Redis, or files in a folder of the kind's own. */
export async function openObservationBook(options: OpenObservationBookOptions): Promise<{ book: ObservationBook; close(): Promise<void> }> {
  const config = observationStoreConfigFromEnv(options.env);
  const store = await createObservationStore({
    redisUrl: options.redisUrl ?? '',
    keyPrefix: config.keyPrefix,
    // Each kind's subgraph prunes its own folder: two stores never rewrite one file.
    directory: join(config.directory, options.kind),
    retentionDays: config.retentionDays,
    log: options.log,
  });
  return { book: new ObservationBook({ kind: options.kind, hierarchy: options.hierarchy, store, log: options.log }), close: () => store.close() };
}
