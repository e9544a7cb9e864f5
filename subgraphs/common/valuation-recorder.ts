/**
 * Keeps a record of every valuation a subgraph gives (issue 19) and stamps it with its id. Used by
 * the residential and vehicle subgraphs, each with its kind's store, after the valuation is final
 * (adjusted by the organisation's observations, in the currency asked for): the record is what was
 * answered.
 *
 * A valuation is answered once its record is durable. If the store does not answer within
 * `timeoutMs` (a stalled Redis, a stuck disk), the valuation is still answered, without an id and
 * with a warning saying it was not recorded: a bank's valuation does not wait on the audit trail,
 * and says so.
 */
import type { SubgraphCaller } from '../../platform/graphql-over-http';
import { ApiError } from '../../schema/errors';
import { getPlan, DEFAULT_VALUATION_RECORD_DAYS } from '../../platform/plans';
import { DEFAULT_REDIS_TIMEOUT_MS } from '../../platform/redis-health';
import { createRecordStore, newRecordId, recordStoreConfigFromEnv, type RecordKind, type RecordQuery, type RecordSample, type ValuationRecord, type ValuationRecordStore } from './valuation-records';
import { within } from '../../platform/within';

/** Who a valuation is for, as the gateway names it (a peer subgraph sends no plan). */
export interface RecordCaller {
  organisation: string | null;
  plan: string | null;
  requestId: string | null;
}

/** The caller (as the gateway or a peer names it) as a record's caller. */
export function recordCallerOf(caller: SubgraphCaller): RecordCaller {
  return { organisation: caller.principal?.org ?? null, plan: caller.principal?.plan ?? null, requestId: caller.requestId ?? null };
}

/**
 * How long a valuation waits on the record file's write and fsync (or PostgreSQL's commit): longer
 * than on Redis, since a local disk busy with other writes takes hundreds of milliseconds to fsync,
 * where a Redis that slow is stalled.
 */
export const FILE_RECORD_TIMEOUT_MS = 2000;

const NOT_RECORDED_WARNING = 'this valuation was not recorded (the record store did not answer): it has no valuation_id; value it again to get one';

export class ValuationRecorder {
  constructor(
    readonly kind: RecordKind,
    readonly store: ValuationRecordStore,
    private readonly options: { clock?: () => number; timeoutMs?: number; log?: (message: string) => void } = {},
  ) {}

  /**
   * Records each valuation (with the request as understood) for the caller's organisation, in one
   * store call, and gives them back stamped with their record's id: null without an organisation
   * (nothing to keep it for), and null with a warning when the store did not answer in time. A bulk
   * answer's errors stay in their places, unrecorded.
   */
  async stamp<V extends { warnings: string[] }>(caller: RecordCaller, items: readonly ({ input: object; valuation: V } | ApiError)[]): Promise<((V & { valuationId: string | null }) | ApiError)[]> {
    const valued = items.filter((item): item is { input: object; valuation: V } => !(item instanceof ApiError));
    const stamped = await this.record(caller, valued);
    let next = 0;
    return items.map((item) => {
      if (item instanceof ApiError) return item;
      if (stamped === null) return { ...item.valuation, valuationId: null, warnings: [...item.valuation.warnings, NOT_RECORDED_WARNING] };
      return stamped[next++] as V & { valuationId: string | null };
    });
  }

  /**
   * The valuations stamped with their records' ids (null without an organisation), each the very
   * object its record keeps (a record is what was answered); null when the store did not answer in time.
   */
  private async record(caller: RecordCaller, items: readonly { input: object; valuation: object }[]): Promise<object[] | null> {
    // Object.assign, not a spread and then new fields: V8 (Node 20) adds each field after a spread through its slow path (about 2 µs a field).
    if (caller.organisation === null || items.length === 0) return items.map(({ valuation }) => Object.assign({}, valuation, { valuationId: null }));
    const now = (this.options.clock ?? Date.now)();
    const keepUntil = new Date(now + retentionDays(caller.plan) * 86_400_000).toISOString().slice(0, 10);
    const createdAt = new Date(now).toISOString();
    const records: ValuationRecord[] = items.map(({ input, valuation }) => {
      const id = newRecordId(now);
      return {
        id,
        kind: this.kind,
        createdAt,
        keepUntil,
        requestId: caller.requestId,
        input: input as Record<string, unknown>,
        valuation: Object.assign({}, valuation, { valuationId: id }) as Record<string, unknown>,
      };
    });
    const stored = await within(
      this.store.append(caller.organisation, records).then(() => true, (error: Error) => {
        this.options.log?.(`valuation records: ${error.message}`);
        return false;
      }),
      this.options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS,
      () => false,
    );
    return stored ? records.map((r) => r.valuation) : null;
  }

  get(org: string, id: string): Promise<ValuationRecord | null> {
    return this.store.get(org, id);
  }

  list(org: string, query: RecordQuery): Promise<ValuationRecord[]> {
    return this.store.list(org, query);
  }

  sample(org: string, period: Pick<RecordQuery, 'since' | 'until'>, n: number, seed: string): Promise<RecordSample> {
    return this.store.sample(org, period, n, seed);
  }
}

/** The plan's record retention; a caller without a plan (a batch worker, a peer) keeps the default. */
function retentionDays(plan: string | null): number {
  if (plan === null) return DEFAULT_VALUATION_RECORD_DAYS;
  try {
    return getPlan(plan).valuationRecordDays;
  } catch {
    return DEFAULT_VALUATION_RECORD_DAYS;
  }
}

/** A kind's recorder on the store the settings name: PostgreSQL, Redis, or a log file in a folder of the kind's own (VALUATION_RECORD_*). */
export async function openValuationRecorder(options: { kind: RecordKind; env: NodeJS.ProcessEnv; databaseUrl?: string; redisUrl?: string; log(message: string): void }): Promise<{ recorder: ValuationRecorder; close(): Promise<void> }> {
  const config = recordStoreConfigFromEnv(options.env);
  const store = await createRecordStore({
    kind: options.kind,
    databaseUrl: options.databaseUrl ?? '',
    databaseSchema: config.databaseSchema,
    redisUrl: options.redisUrl ?? '',
    keyPrefix: config.keyPrefix,
    directory: config.directory,
    log: options.log,
  });
  // A database's commit waits on its disk as the file's fsync does; Redis answers from memory.
  const timeoutMs = !options.databaseUrl && options.redisUrl ? DEFAULT_REDIS_TIMEOUT_MS : FILE_RECORD_TIMEOUT_MS;
  return { recorder: new ValuationRecorder(options.kind, store, { log: options.log, timeoutMs }), close: () => store.close() };
}
