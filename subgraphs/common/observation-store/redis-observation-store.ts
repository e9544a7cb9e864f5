/**
 * Observations in Redis, shared by every replica using the same key prefix; durable as far as the
 * Redis's persistence (AOF) makes them. Keys, for organisation `o` and kind `k`, with `e` =
 * encodeURIComponent(o) (reversible, so no two organisations share it, and free of `:`):
 *
 *   <prefix>set:<k>:<e>   sorted set: the records' JSON (id first), scored by observedAt in days since 1970
 *   <prefix>rev:<k>:<e>   counter: the revision, INCRed with every change to the set
 *   <prefix>index         set of `<k>:<e>`: every series there is, for prune() (no SCAN of the keyspace)
 *
 * An append is one MULTI (ZADD of every record, INCR, SADD): Redis applies all of it or, if the
 * client dies before EXEC, none. Members are unique by their id; records of one day come back by
 * their bytes, that is by id (observation-records.ts keeps ids to characters that sort so).
 */
import { createClient } from 'redis';
import { checkSeries, dayNumber, dayRangeOf, decodeObservation, encodeObservations } from './observation-records';
import type { ObservationKind, ObservationQuery, ObservationStore, StoredObservation } from './types';

/** A client as the observation store makes it (node-redis defaults: reconnecting, offline queue). */
export function createObservationRedisClient(url: string) {
  return createClient({ url });
}

export type ObservationRedisClient = ReturnType<typeof createObservationRedisClient>;

export interface RedisObservationStoreOptions {
  /** Prepended to every key; lets several deployments or test runs share a Redis. @default 'observations:' */
  keyPrefix?: string;
  /** Called by close(): the factory closes the client it made; a borrowed client is left open. */
  onClose?: () => Promise<void>;
}

/** Series prune() looks at per round trip. */
const PRUNE_BATCH = 200;

export class RedisObservationStore implements ObservationStore {
  private readonly prefix: string;

  constructor(
    private readonly client: ObservationRedisClient,
    private readonly options: RedisObservationStoreOptions = {},
  ) {
    this.prefix = options.keyPrefix ?? 'observations:';
  }

  async append(org: string, kind: ObservationKind, records: readonly StoredObservation[]): Promise<number> {
    const encoded = encodeObservations(org, kind, records);
    if (encoded.length === 0) return this.revision(org, kind);
    const series = seriesOf(org, kind);
    const replies = await this.client
      .multi()
      .zAdd(this.setKey(series), encoded.map((entry) => ({ score: entry.day, value: entry.json })))
      .incr(this.revisionKey(series))
      .sAdd(this.indexKey, series)
      .exec();
    return Number(replies[1]);
  }

  async list(org: string, kind: ObservationKind, query?: ObservationQuery): Promise<StoredObservation[]> {
    const { fromDay, toDay, offset, limit } = dayRangeOf(org, kind, query);
    if (limit === 0) return [];
    // With REV, ZRANGE takes the highest score first.
    const members = await this.client.zRange(this.setKey(seriesOf(org, kind)), scoreOf(toDay), scoreOf(fromDay), {
      BY: 'SCORE',
      REV: true,
      ...((limit !== Infinity || offset > 0) && { LIMIT: { offset, count: limit === Infinity ? -1 : limit } }),
    });
    return members.map((member) => decodeObservation(String(member)));
  }

  async revision(org: string, kind: ObservationKind): Promise<number> {
    checkSeries(org, kind);
    return Number((await this.client.get(this.revisionKey(seriesOf(org, kind)))) ?? 0);
  }

  /**
   * The set is scanned once for the members of these ids (a member is its record's JSON, the id
   * first, and scores are days, so no index finds an id directly); they go in one MULTI with the INCR.
   */
  async remove(org: string, kind: ObservationKind, ids: readonly string[]): Promise<string[]> {
    checkSeries(org, kind);
    if (ids.length === 0) return [];
    const wanted = new Set(ids);
    const key = this.setKey(seriesOf(org, kind));
    const found: { id: string; member: string }[] = [];
    for await (const members of this.client.zScanIterator(key, { COUNT: 1000 })) {
      for (const { value } of members) {
        const id = idOfMember(String(value));
        if (id !== null && wanted.has(id)) found.push({ id, member: String(value) });
      }
    }
    if (found.length === 0) return [];
    await this.client.multi().zRem(key, found.map((f) => f.member)).incr(this.revisionKey(seriesOf(org, kind))).exec();
    return found.map((f) => f.id);
  }

  async count(org: string, kind: ObservationKind): Promise<number> {
    checkSeries(org, kind);
    return Number(await this.client.zCard(this.setKey(seriesOf(org, kind))));
  }

  /**
   * Counts first and removes only where there is something to remove, so a series untouched keeps
   * its revision; the removal and the INCR go in one MULTI. A record older than `before` appended
   * between the count and the removal stays until the next prune.
   */
  async prune(before: string): Promise<number> {
    const below = `(${dayNumber(before, 'before')}`;
    const series = (await this.client.sMembers(this.indexKey)).map(String).sort();
    let removed = 0;
    for (let at = 0; at < series.length; at += PRUNE_BATCH) {
      const batch = series.slice(at, at + PRUNE_BATCH);
      const counting = this.client.multi();
      for (const one of batch) counting.zCount(this.setKey(one), '-inf', below);
      const counts = (await counting.execAsPipeline()).map(Number);
      const stale = batch.filter((_, i) => counts[i] > 0);
      if (stale.length === 0) continue;
      const removing = this.client.multi();
      for (const one of stale) removing.zRemRangeByScore(this.setKey(one), '-inf', below).incr(this.revisionKey(one));
      const replies = await removing.exec();
      for (let i = 0; i < replies.length; i += 2) removed += Number(replies[i]);
    }
    return removed;
  }

  async close(): Promise<void> {
    await this.options.onClose?.();
  }

  private setKey(series: string): string {
    return `${this.prefix}set:${series}`;
  }

  private revisionKey(series: string): string {
    return `${this.prefix}rev:${series}`;
  }

  private get indexKey(): string {
    return `${this.prefix}index`;
  }
}

/** `<kind>:<encoded organisation>`: the end of the series' keys, and its member in the index. */
function seriesOf(org: string, kind: ObservationKind): string {
  return `${kind}:${encodeURIComponent(org)}`;
}

/** The id a member begins with (`{"id":"<id>",…`: ids hold no quote or backslash), or null. */
function idOfMember(member: string): string | null {
  const match = /^\{"id":"([^"\\]*)"/.exec(member);
  return match ? match[1] : null;
}

function scoreOf(day: number): string {
  return day === Infinity ? '+inf' : day === -Infinity ? '-inf' : String(day);
}
