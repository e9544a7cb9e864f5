/**
 * An organisation's observed prices of one kind and what they do to its valuations (issue 18): kept
 * in the observation store, fitted into one observation model per organisation (models/observations:
 * empirical-Bayes market factors, conformal recalibration), and applied to each valuation it asks for.
 *
 * Point in time (issue 31). A valuation dated D is re-anchored on the observations observed on or
 * before D, fitted as of D: a bank that backtests on its past prices gets what the service would
 * have said that day. Fits are kept per organisation and day (today's, and the most recent
 * MAX_PAST_FITS past days across organisations), so a portfolio valued at one date costs one fit.
 *
 * A fitted model is kept while the store's revision for the organisation stands. A replica that
 * records observations refits at once; another replica notices within `revisionCheckMs` (it asks
 * the store for the revision at most that often per organisation), so replicas agree within a second.
 *
 * A valuation never waits on a slow store: a store call that has not answered within `timeoutMs`
 * is left running (one per organisation at a time) and the valuation goes on with the model it had
 * (none the first time), as quota checks go on without Redis. Fits run on a worker thread (the
 * service's fitter), start as soon as observations are recorded, and a valuation waits up to
 * `fitWaitMs` for one. Each organisation has at most one fit on the fitter at a time (its fits of
 * other days wait their turn behind it), so one organisation valuing at many dates queues its own
 * fits, never another organisation's.
 *
 * The organisation's live accuracy in Prometheus (./observation-metrics.ts) is refreshed after each
 * record, and after a fit that saw a revision (another replica's record) or a day the figures were not
 * refreshed for; on the fitter, at most once per `metricsRefreshMs` per organisation: refreshes asked
 * for within that run once at its end. Valuations never wait on one; one that fails is logged and
 * the figures it would have replaced stand.
 *
 * Live accuracy reports (issue 33, finding 5: four over 20,000 observations held a third
 * organisation's report 141 s) are one at a time per organisation, kept per observation revision
 * (asked again with nothing recorded since, the same report comes back without a fit), and at most
 * `maxReports` computed or waiting at once across organisations: an organisation asking for another
 * while its own runs gets 429 RATE_LIMITED, anyone past the bound 503 SERVICE_UNAVAILABLE.
 */
import type { GroupHierarchy, ObservationModel, ScoredObservation } from '../../models/observations';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../schema/errors';
import type { LiveAccuracyReport } from './live-accuracy';
import { inlineFitter, workerFitter, type ObservationFitter } from './observation-fitting';
import { KeyedThrottle } from '../../platform/keyed-throttle';
import { METRICS_WINDOW_DAYS, observationMetrics, type ObservationMetrics } from './observation-metrics';
import { DEFAULT_REDIS_TIMEOUT_MS } from '../../platform/redis-health';
import { within } from '../../platform/within';
import { createObservationStore, DEFAULT_OBSERVATION_MAX_REPORTS, DEFAULT_OBSERVATION_METRICS_REFRESH_MS, observationStoreConfigFromEnv, type ObservationKind, type ObservationQuery, type ObservationStore, type StoredObservation } from './observation-store';

/** How often a replica asks the store whether another one recorded observations. @default 1000 ms */
export const REVISION_CHECK_MS = 1000;

/** How long a valuation waits for its organisation's refit before going on with the model it had. @default 2000 ms */
export const FIT_WAIT_MS = 2000;

/**
 * The newest observations an organisation's model is fitted on: 20,000. With the 90-day half-life,
 * a bank recording more than that has plenty in its recent months, and the fit's time (about 0.5 s
 * of a worker thread at this size) stays bounded however many it keeps.
 */
export const MAX_FITTED_OBSERVATIONS = 20_000;

/**
 * The past days' fits kept, across organisations: 2,000 (a fit of a few thousand observations is a
 * few hundred kilobytes of plain data at most; most are far smaller). A bank valuing a portfolio at
 * one past date uses one; a backtest through valuations, one a day it spans.
 */
export const MAX_PAST_FITS = 2_000;

/** Live accuracy reports kept, across organisations and the ways they were asked for (since, level). */
export const MAX_KEPT_REPORTS = 1_000;

/**
 * What the book has for a valuation: the model as of its day, or why there is none. `stopGap`: the
 * day asked for, when its first fit was not ready in time and an earlier day's fit answered.
 */
export type ModelLookup =
  | { model: ObservationModel; asOf: string; stopGap?: string }
  | { model: null; asOf: string; reason: 'none' | 'pending' };

export interface ObservationBookOptions {
  kind: ObservationKind;
  hierarchy: GroupHierarchy;
  store: ObservationStore;
  /** Ages and recency weights are counted to this clock's day. @default Date.now */
  clock?: () => number;
  revisionCheckMs?: number;
  /** Where fits run. @default in this thread (the service passes a worker thread: openObservationBook) */
  fitter?: ObservationFitter;
  /** How long a valuation waits on the store. @default DEFAULT_REDIS_TIMEOUT_MS (250 ms) */
  timeoutMs?: number;
  /** How long a valuation waits for a refit. @default FIT_WAIT_MS */
  fitWaitMs?: number;
  /** The least time between two refreshes of an organisation's metrics. @default 60,000 ms (DEFAULT_OBSERVATION_METRICS_REFRESH_MS) */
  metricsRefreshMs?: number;
  /** Live accuracy reports computed or waiting at once, all organisations. @default DEFAULT_OBSERVATION_MAX_REPORTS (4) */
  maxReports?: number;
  /** Where the live accuracy figures go. @default the process's Prometheus registry (observationMetrics) */
  metrics?: ObservationMetrics;
  log?(message: string): void;
}

interface FittedModel {
  revision: number;
  asOf: string;
  checkedAt: number;
  model: ObservationModel | null;
}

/** A live accuracy report being computed for an organisation: what was asked, at which revision. */
interface ReportRun {
  key: string;
  revision: number;
  report: Promise<LiveAccuracyReport>;
}

/** The key of an organisation's fit as of a day. */
const fitKey = (org: string, asOf: string) => `${asOf}\u0000${org}`;

export class ObservationBook {
  readonly kind: ObservationKind;
  readonly hierarchy: GroupHierarchy;
  private readonly store: ObservationStore;
  private readonly clock: () => number;
  private readonly revisionCheckMs: number;
  private readonly timeoutMs: number;
  private readonly fitWaitMs: number;
  private readonly fitter: ObservationFitter;
  private readonly log: (message: string) => void;
  /** Today's fit per organisation. */
  private readonly fitted = new Map<string, FittedModel>();
  /** Past days' fits, by fitKey. */
  private readonly pastFits = new LRUCache<string, FittedModel>({ max: MAX_PAST_FITS });
  /** One fit at a time per organisation and day (fitKey): concurrent valuations wait for the same one. */
  private readonly fitting = new Map<string, Promise<FittedModel>>();
  /** Each organisation's fits, one after another on the fitter. */
  private readonly fitTurns = new Map<string, Promise<unknown>>();
  /** One revision check at a time per organisation: a stalled store gets no pile of them. */
  private readonly checking = new Map<string, Promise<number>>();
  private readonly metrics: ObservationMetrics;
  private readonly refreshes: KeyedThrottle;
  /** Per organisation, the revision and day its metrics were last asked to be refreshed for. */
  private readonly metricsSeen = new Map<string, string>();
  private readonly maxReports: number;
  /** Each organisation's live accuracy report being computed (one at a time). */
  private readonly reportRuns = new Map<string, ReportRun>();
  /** Reports computed, by reportKey, with the revision they were computed at. */
  private readonly reports = new LRUCache<string, { revision: number; report: LiveAccuracyReport }>({ max: MAX_KEPT_REPORTS });

  constructor(options: ObservationBookOptions) {
    this.kind = options.kind;
    this.hierarchy = options.hierarchy;
    this.store = options.store;
    this.clock = options.clock ?? Date.now;
    this.revisionCheckMs = options.revisionCheckMs ?? REVISION_CHECK_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.fitter = options.fitter ?? inlineFitter;
    this.fitWaitMs = options.fitWaitMs ?? FIT_WAIT_MS;
    this.log = options.log ?? (() => undefined);
    this.metrics = options.metrics ?? observationMetrics(this.kind);
    this.maxReports = options.maxReports ?? DEFAULT_OBSERVATION_MAX_REPORTS;
    this.refreshes = new KeyedThrottle({
      intervalMs: options.metricsRefreshMs ?? DEFAULT_OBSERVATION_METRICS_REFRESH_MS,
      run: (org) => this.refreshMetrics(org),
      onError: (_org, error) => this.log(`observations: live accuracy metrics not refreshed (${error.message}); the previous figures stand`),
    });
  }

  /** Stops the metrics refreshes waiting to run (the store and the fitter are the opener's to close). */
  close(): void {
    this.refreshes.close();
  }

  /** Stores the organisation's scored observations (all or none); its next valuation uses them. */
  async record(org: string, records: readonly StoredObservation[]): Promise<number> {
    const revision = await this.store.append(org, this.kind, records);
    this.changed(org);
    if (records.length > 0) {
      this.metrics.recorded(org, records.length);
      // The refresh reads the store when it runs, so it sees these (the refit may be one begun before them).
      this.metricsSeen.set(org, `${revision}@${dayOf(this.clock())}`);
      this.refreshes.request(org);
    }
    return revision;
  }

  /** Removes the organisation's observations with these ids (another organisation's are never found) and refits; returns the ids removed. */
  async retract(org: string, ids: readonly string[]): Promise<string[]> {
    const removed = await this.store.remove(org, this.kind, ids);
    if (removed.length > 0) {
      this.changed(org);
      this.metricsSeen.set(org, `${await this.store.revision(org, this.kind)}@${dayOf(this.clock())}`);
      this.refreshes.request(org);
    }
    return removed;
  }

  /** How many observations of the kind the organisation keeps. */
  count(org: string): Promise<number> {
    return this.store.count(org, this.kind);
  }

  /** The organisation's observations changed: its fits are dropped, and today's is refitted now, not on the next valuation, so that it finds the model ready. */
  private changed(org: string): void {
    this.fitted.delete(org);
    for (const key of [...this.pastFits.keys()]) if (key.endsWith(`\u0000${org}`)) this.pastFits.delete(key);
    void this.refit(org).catch((error: Error) => this.log(`observations: refit failed (${error.message})`));
  }

  list(org: string, query?: ObservationQuery): Promise<StoredObservation[]> {
    return this.store.list(org, this.kind, query);
  }

  /** The organisation's observation model as of today; null while it has no observation that can be scored. */
  async model(org: string): Promise<ObservationModel | null> {
    return (await this.modelAsOf(org)).model;
  }

  /**
   * The organisation's observation model as of `date` (YYYY-MM-DD; today when absent or later):
   * fitted on what it had observed on or before that day. `pending` when a first fit for that day
   * did not finish within `fitWaitMs` (the valuation goes on with the model alone and says so).
   */
  async modelAsOf(org: string, date?: string): Promise<ModelLookup> {
    const now = this.clock();
    const today = dayOf(now);
    const asOf = date === undefined || date >= today ? today : date;
    const cache = asOf === today ? this.fitted : this.pastFits;
    const key = asOf === today ? org : fitKey(org, asOf);
    const known = cache.get(key);
    if (known && known.asOf === asOf) {
      if (now - known.checkedAt < this.revisionCheckMs) return lookup(known.model, asOf);
      const revision = await this.bounded(this.singleFlight(this.checking, org, () => this.store.revision(org, this.kind)), this.timeoutMs);
      if (revision === undefined || revision === known.revision) {
        known.checkedAt = now; // slow store: the model it had stands until the next check
        return lookup(known.model, asOf);
      }
    }
    const fitted = await this.bounded(this.refit(org, asOf), this.fitWaitMs);
    if (fitted) return lookup(fitted.model, asOf);
    if (known?.model) return { model: known.model, asOf: known.asOf };
    if (known) return { model: null, asOf, reason: 'none' };
    // Still fitting: the newest fit of an earlier day is still what was known by this one (fewer observations, never later ones).
    const earlier = this.newestFitBefore(org, asOf);
    return earlier ? { model: earlier, asOf: earlier.asOf, stopGap: asOf } : { model: null, asOf, reason: 'pending' };
  }

  /** The organisation's kept fit with the latest day before `asOf` that has a model, if any. */
  private newestFitBefore(org: string, asOf: string): ObservationModel | null {
    let best: ObservationModel | null = null;
    const consider = (fitted: FittedModel | undefined) => {
      if (fitted?.model && fitted.asOf < asOf && (!best || fitted.asOf > best.asOf)) best = fitted.model;
    };
    consider(this.fitted.get(org));
    for (const [key, fitted] of this.pastFits.entries()) if (key.endsWith(`\u0000${org}`)) consider(fitted);
    return best;
  }

  /**
   * The organisation's model as of `asOf` fitted afresh (one fit at a time per organisation and day,
   * and one at a time per organisation on the fitter). A fit that fails (a stalled store) leaves the
   * model it had in place until the next revision check, so that a stalled store costs each
   * organisation one wait a check, not one a valuation.
   */
  private refit(org: string, asOf = dayOf(this.clock())): Promise<FittedModel> {
    const today = asOf === dayOf(this.clock());
    const cache = today ? this.fitted : this.pastFits;
    const key = today ? org : fitKey(org, asOf);
    return this.singleFlight(this.fitting, fitKey(org, asOf), () => this.inTurn(org, async () => {
      const now = this.clock();
      try {
        const fitted = await this.fit(org, asOf, now, today ? undefined : asOf);
        cache.set(key, fitted);
        return fitted;
      } catch (error) {
        cache.set(key, { revision: -1, asOf, checkedAt: now, model: cache.get(key)?.model ?? null });
        throw error;
      }
    }));
  }

  /** Runs `task` after the organisation's earlier fits (each organisation's fits queue behind its own). */
  private inTurn<T>(org: string, task: () => Promise<T>): Promise<T> {
    const previous = this.fitTurns.get(org) ?? Promise.resolve();
    const turn = previous.then(task, task);
    const settled = turn.catch(() => undefined);
    this.fitTurns.set(org, settled);
    void settled.then(() => {
      if (this.fitTurns.get(org) === settled) this.fitTurns.delete(org);
    });
    return turn;
  }

  /** What `promise` gives within `ms`, else undefined (it goes on; its result is kept when it comes); a failure is undefined too. */
  private async bounded<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
    const settled = promise.catch((error: Error) => {
      this.log(`observations: ${error.message}; valuations go on with the adjustments they had`);
      return undefined;
    });
    return within(settled, ms, () => {
      this.log(`observations: no answer within ${ms} ms; valuations go on with the adjustments they had`);
      return undefined;
    });
  }

  /** A store call bounded by `timeoutMs`: a stalled store fails the fit instead of holding it. */
  private storeCall<T>(call: Promise<T>): Promise<T> {
    return within(call, this.timeoutMs, () => {
      throw new Error(`the store did not answer within ${this.timeoutMs} ms`);
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
    const now = this.clock();
    // The day is part of what was asked: recency weights are counted to it.
    const key = [org, since ?? '', depth, dayOf(now)].join('\u0000');
    const revision = await this.storeCall(this.store.revision(org, this.kind));
    const kept = this.reports.get(key);
    if (kept && kept.revision === revision) return kept.report;
    const running = this.reportRuns.get(org);
    if (running) {
      if (running.key === key && running.revision === revision) return running.report;
      throw new ApiError('RATE_LIMITED', 'A live accuracy report of your organisation is being computed: one at a time. Ask again once it is answered');
    }
    if (this.reportRuns.size >= this.maxReports) {
      throw new ApiError('SERVICE_UNAVAILABLE', `${this.maxReports} live accuracy reports are being computed for other organisations: retry in a few seconds`);
    }
    const report = this.report(this.store.list(org, this.kind, { limit: MAX_FITTED_OBSERVATIONS }), since, depth, now)
      .then((computed) => {
        this.reports.set(key, { revision, report: computed });
        return computed;
      })
      .finally(() => this.reportRuns.delete(org));
    this.reportRuns.set(org, { key, revision, report });
    return report;
  }

  /** The organisation's metrics afresh: its live accuracy over the last METRICS_WINDOW_DAYS days, groups at the second level. */
  private async refreshMetrics(org: string): Promise<void> {
    const now = this.clock();
    const since = dayOf(now - METRICS_WINDOW_DAYS * 86_400_000);
    // In the background, the store call is bounded all the same: a stalled store must not hold this refresh and the ones after it.
    const listed = this.storeCall(this.store.list(org, this.kind, { limit: MAX_FITTED_OBSERVATIONS }));
    this.metrics.report(org, await this.report(listed, since, 1, now));
  }

  /** The live accuracy of the `listed` observations, from `since`, with groups at `depth` of the hierarchy. */
  private async report(listed: Promise<StoredObservation[]>, since: string | null, depth: number, now = this.clock()): Promise<LiveAccuracyReport> {
    const asOf = dayOf(now);
    const records = await listed;
    const observations = records.flatMap((record) => {
      const observation = this.scored(record);
      return observation ? [{ recordedAt: record.recordedAt, observation }] : [];
    });
    return this.fitter.liveAccuracy({ task: 'liveAccuracy', observations, options: { hierarchy: this.hierarchy, asOf, since, level: depth } });
  }

  /** A stored observation as the model reads it: its group path, top level first. */
  private scored(record: StoredObservation): ScoredObservation | null {
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

  /** The organisation's model as of `asOf`, on what it observed up to `until` (every observation when absent: today's fit). */
  private async fit(org: string, asOf: string, now: number, until?: string): Promise<FittedModel> {
    // The revision is read first: observations recorded during the fit make the next check refit.
    const revision = await this.storeCall(this.store.revision(org, this.kind));
    const records = await this.storeCall(this.store.list(org, this.kind, { limit: MAX_FITTED_OBSERVATIONS, ...(until ? { until } : {}) }));
    const observations = records.map((r) => this.scored(r)).filter((o): o is ScoredObservation => o !== null);
    const model = observations.length === 0 ? null : await this.fitter.fitModel({ task: 'model', observations, options: { hierarchy: this.hierarchy, asOf } });
    const fitted = { revision, asOf, checkedAt: now, model };
    if (until) return fitted;
    // A revision (or day) the metrics have not been refreshed for: recorded by another replica, or a new day's window.
    const seen = `${revision}@${asOf}`;
    // (An organisation whose observations were all pruned is refreshed once more, to none.)
    if ((observations.length > 0 || this.metricsSeen.has(org)) && this.metricsSeen.get(org) !== seen) {
      this.metricsSeen.set(org, seen);
      this.refreshes.request(org);
    }
    return fitted;
  }
}

function lookup(model: ObservationModel | null, asOf: string): ModelLookup {
  return model ? { model, asOf } : { model: null, asOf, reason: 'none' };
}

/** The UTC day of a time in ms, YYYY-MM-DD; the last one is remembered (every valuation asks for today's). */
let lastDay = { start: 0, end: 0, day: '' };
function dayOf(ms: number): string {
  if (ms >= lastDay.start && ms < lastDay.end) return lastDay.day;
  const start = ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
  lastDay = { start, end: start + 86_400_000, day: new Date(ms).toISOString().slice(0, 10) };
  return lastDay.day;
}

export interface OpenObservationBookOptions {
  kind: ObservationKind;
  hierarchy: GroupHierarchy;
  /** OBSERVATION_* settings (./observation-store/config.ts). */
  env: NodeJS.ProcessEnv;
  /** DATABASE_URL as the process decided it ('' or undefined: Redis or files). */
  databaseUrl?: string;
  /** REDIS_URL as the process decided it ('' or undefined: files). */
  redisUrl?: string;
  log(message: string): void;
}

/** The book of one kind on the store the settings name: PostgreSQL, Redis, or files in a folder of the kind's own. */
export async function openObservationBook(options: OpenObservationBookOptions): Promise<{ book: ObservationBook; close(): Promise<void> }> {
  const config = observationStoreConfigFromEnv(options.env);
  const store = await createObservationStore({
    databaseUrl: options.databaseUrl ?? '',
    databaseSchema: config.databaseSchema,
    redisUrl: options.redisUrl ?? '',
    keyPrefix: config.keyPrefix,
    // Each kind's subgraph prunes its own folder: two stores never rewrite one file.
    directory: join(config.directory, options.kind),
    retentionDays: config.retentionDays,
    log: options.log,
  });
  const fitter = workerFitter();
  const book = new ObservationBook({ kind: options.kind, hierarchy: options.hierarchy, store, fitter, metricsRefreshMs: config.metricsRefreshMs, maxReports: config.maxReports, log: options.log });
  return {
    book,
    close: async () => {
      book.close();
      await fitter.close();
      await store.close();
    },
  };
}
