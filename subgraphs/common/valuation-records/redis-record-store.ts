/**
 * Records in Redis, shared by every replica using the same key prefix (one prefix per kind of
 * collateral). Keys, for organisation `o` with `e` = encodeURIComponent(o):
 *
 *   <prefix>ids:<e>    sorted set of the organisation's record ids, all scored 0: ordered by id,
 *                      that is by time (ULIDs), and read by BYLEX ranges
 *   <prefix>rec:<e>    hash id → the record, gzip'd JSON (about a third of the JSON's size)
 *   <prefix>expiry     sorted set of `<e> <id>` scored by the day the record is kept until
 *
 * An append is one MULTI: all of a call's records or none.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { createClient, RESP_TYPES } from 'redis';
import { idWindow } from './record-ids';
import { SampleDraw } from './record-sample';
import type { RecordQuery, RecordSample, ValuationRecord, ValuationRecordStore } from './types';

export function createRecordRedisClient(url: string) {
  return createClient({ url });
}
export type RecordRedisClient = ReturnType<typeof createRecordRedisClient>;

const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
const PRUNE_BATCH = 500;
/** A sample walks the period's ids this many at a time (oldest first), never holding them all. */
const SAMPLE_CHUNK = 10_000;

export class RedisRecordStore implements ValuationRecordStore {
  private readonly prefix: string;
  /** The same connection, answering bulk strings as Buffers (the records are gzip'd). */
  private readonly binary;

  constructor(
    private readonly client: RecordRedisClient,
    options: { keyPrefix: string; onClose?: () => Promise<void> },
    private readonly onClose = options.onClose,
  ) {
    this.prefix = options.keyPrefix;
    this.binary = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  }

  private idsKey(org: string): string {
    return `${this.prefix}ids:${encodeURIComponent(org)}`;
  }

  private recordsKey(org: string): string {
    return `${this.prefix}rec:${encodeURIComponent(org)}`;
  }

  async append(org: string, records: readonly ValuationRecord[]): Promise<void> {
    if (records.length === 0) return;
    const e = encodeURIComponent(org);
    await this.client
      .multi()
      .zAdd(this.idsKey(org), records.map((r) => ({ score: 0, value: r.id })))
      .hSet(this.recordsKey(org), Object.fromEntries(records.map((r) => [r.id, gzipSync(JSON.stringify(r))])))
      .zAdd(`${this.prefix}expiry`, records.map((r) => ({ score: dayNumber(r.keepUntil), value: `${e} ${r.id}` })))
      .exec();
  }

  async get(org: string, id: string): Promise<ValuationRecord | null> {
    const stored = await this.binary.hGet(this.recordsKey(org), id);
    return stored ? decode(stored as Buffer) : null;
  }

  /** Ids in the query's window, newest first. */
  private async range(org: string, query: RecordQuery, limit: number): Promise<string[]> {
    const window = idWindow(query);
    const ids = await this.client.zRange(this.idsKey(org), `${window.highInclusive ? '[' : '('}${window.high}`, `[${window.low}`, {
      BY: 'LEX',
      REV: true,
      ...(limit !== Infinity && { LIMIT: { offset: 0, count: limit } }),
    });
    return ids.map(String);
  }

  async list(org: string, query: RecordQuery = {}): Promise<ValuationRecord[]> {
    const ids = await this.range(org, query, query.limit ?? Infinity);
    if (ids.length === 0) return [];
    const stored = await this.binary.hmGet(this.recordsKey(org), ids);
    return stored.flatMap((s) => (s ? [decode(s as unknown as Buffer)] : []));
  }

  /** The period's ids read a chunk at a time (each from the last one's id on), hashed here: no record is read. */
  async sample(org: string, period: Pick<RecordQuery, 'since' | 'until'>, n: number, seed: string): Promise<RecordSample> {
    const window = idWindow({ since: period.since, until: period.until });
    const high = `${window.highInclusive ? '[' : '('}${window.high}`;
    const draw = new SampleDraw(seed, n);
    let population = 0;
    for (let low = `[${window.low}`; ; ) {
      const ids = (await this.client.zRange(this.idsKey(org), low, high, { BY: 'LEX', LIMIT: { offset: 0, count: SAMPLE_CHUNK } })).map(String);
      for (const id of ids) draw.offer(id);
      population += ids.length;
      if (ids.length < SAMPLE_CHUNK) break;
      low = `(${ids[ids.length - 1]}`;
    }
    return { population, ids: draw.ids() };
  }

  async prune(today: string): Promise<number> {
    let removed = 0;
    for (;;) {
      const expired = (await this.client.zRange(`${this.prefix}expiry`, '-inf', dayNumber(today) - 1, { BY: 'SCORE', LIMIT: { offset: 0, count: PRUNE_BATCH } })).map(String);
      if (expired.length === 0) return removed;
      const multi = this.client.multi();
      for (const entry of expired) {
        const [e, id] = entry.split(' ');
        const org = decodeURIComponent(e);
        multi.zRem(this.idsKey(org), id).hDel(this.recordsKey(org), id);
      }
      multi.zRem(`${this.prefix}expiry`, expired);
      await multi.exec();
      removed += expired.length;
    }
  }

  async close(): Promise<void> {
    await this.onClose?.();
  }
}

function decode(stored: Buffer): ValuationRecord {
  return JSON.parse(gunzipSync(stored).toString('utf8')) as ValuationRecord;
}
