/**
 * Records in PostgreSQL (DATABASE_URL), shared by every replica: one table per kind, partitioned by
 * the month a record was made (the time its id carries), so that
 *   - a record is read by id from its month's partition, named (the id gives the month), through its
 *     primary key, by a statement each connection prepares once;
 *   - a page is a keyset range of ids (`id < before`, newest first), which the partitions' primary
 *     keys answer in order without sorting, and a period's bounds prune the other months;
 *   - retention drops a month's partition whole once everything in it is past its keep-until day,
 *     and deletes row by row only in months that still hold records kept longer.
 * Nothing of the records is held in this process. Table, for kind `k` in schema `s`:
 *
 *   s.valuations_k (org, id, made_at, keep_until, record)  PRIMARY KEY (org, id, made_at)
 *   s.valuations_k_YYYY_MM                                 its partition for one month (UTC)
 *
 * An append is one INSERT: all of a call's records or none. A review sample is one statement over
 * the period's months (sample()): the ids drawn there, by their sample key (./record-sample.ts), from
 * the primary keys' (org, id…) range, never the records' JSON.
 */
import { createHash } from 'node:crypto';
import type { Pool, QueryConfig } from 'pg';
import { checkIdentifier, ensureTables } from '../../../platform/postgres';
import { idWindow, isDay, isRecordId, monthOf, recordIdTime } from './record-ids';
import { sampleKeyPrefix } from './record-sample';
import type { RecordKind, RecordQuery, RecordSample, ValuationRecord, ValuationRecordStore } from './types';

export interface PostgresRecordStoreOptions {
  pool: Pool;
  kind: RecordKind;
  /** The PostgreSQL schema holding the tables. @default 'valuation' */
  schema?: string;
  /** Called by close(): the factory ends the pool it made; a borrowed pool is left open. */
  onClose?: () => Promise<void>;
}

const DAY_MS = 86_400_000;
/** PostgreSQL's error when no partition takes a row: another process dropped a month this one thought it had. */
const NO_PARTITION = '23514';
/** PostgreSQL's error for a table that does not exist: a month without a partition. */
const UNDEFINED_TABLE = '42P01';

export class PostgresRecordStore implements ValuationRecordStore {
  private readonly pool: Pool;
  private readonly schema: string;
  /** `schema.valuations_kind`. */
  private readonly table: string;
  private readonly tableName: string;
  /** Months (YYYY_MM) whose partition this process has made sure of. */
  private readonly months = new Set<string>();

  private constructor(private readonly options: PostgresRecordStoreOptions) {
    this.pool = options.pool;
    this.schema = checkIdentifier(options.schema ?? 'valuation', 'the PostgreSQL schema');
    this.tableName = `valuations_${checkIdentifier(options.kind, 'the record kind')}`;
    this.table = `${this.schema}.${this.tableName}`;
  }

  static async open(options: PostgresRecordStoreOptions): Promise<PostgresRecordStore> {
    const store = new PostgresRecordStore(options);
    await ensureTables(store.pool, store.schema, [
      `CREATE TABLE IF NOT EXISTS ${store.table} (
         org text NOT NULL,
         id text COLLATE "C" NOT NULL,
         made_at timestamptz NOT NULL,
         keep_until date NOT NULL,
         record json NOT NULL,
         PRIMARY KEY (org, id, made_at)
       ) PARTITION BY RANGE (made_at)`,
      // Retention asks each month for its last keep-until day and deletes by it.
      `CREATE INDEX IF NOT EXISTS ${store.tableName}_keep_until ON ${store.table} (keep_until)`,
    ]);
    return store;
  }

  async append(org: string, records: readonly ValuationRecord[]): Promise<void> {
    if (records.length === 0) return;
    const made = records.map((r) => {
      if (!isRecordId(r.id)) throw new Error(`not a valuation record id: ${JSON.stringify(r.id)}`);
      return recordIdTime(r.id);
    });
    const insert = () =>
      this.pool.query(
        `INSERT INTO ${this.table} (org, id, made_at, keep_until, record)
         SELECT $1, * FROM unnest($2::text[], $3::timestamptz[], $4::date[], $5::json[])`,
        [org, records.map((r) => r.id), made.map((ms) => new Date(ms).toISOString()), records.map((r) => r.keepUntil), records.map((r) => JSON.stringify(r))],
      );
    await this.ensureMonths(made);
    try {
      await insert();
    } catch (error) {
      if ((error as { code?: string }).code !== NO_PARTITION) throw error;
      this.months.clear();
      await this.ensureMonths(made);
      await insert();
    }
  }

  async get(org: string, id: string): Promise<ValuationRecord | null> {
    if (!isRecordId(id)) return null;
    // The id's month's partition, named: PostgreSQL has no partitions to prune, and plans the statement once per connection.
    const partition = `${this.table}_${partitionMonth(recordIdTime(id))}`;
    try {
      const { rows } = await this.pool.query<{ record: ValuationRecord }>(prepared(`SELECT record FROM ${partition} WHERE org = $1 AND id = $2`, [org, id]));
      return rows[0]?.record ?? null;
    } catch (error) {
      // No partition for the id's month: nothing was recorded then, or every record of it is past its retention.
      if ((error as { code?: string }).code === UNDEFINED_TABLE) return null;
      throw error;
    }
  }

  async list(org: string, query: RecordQuery = {}): Promise<ValuationRecord[]> {
    const params: unknown[] = [];
    const where = this.where(org, query, params);
    const limited = query.limit !== undefined && query.limit !== Infinity ? ` LIMIT $${params.push(query.limit)}` : '';
    const { rows } = await this.pool.query<{ record: ValuationRecord }>(`SELECT record FROM ${this.table} WHERE ${where} ORDER BY id DESC${limited}`, params);
    return rows.map((row) => row.record);
  }

  /**
   * One statement: the period's count, and its n ids of smallest SHA-256(seed ':' id) (bytea order,
   * as Buffer.compare: ./record-sample.ts), both from the (org, id, made_at) primary keys of the
   * period's months only. The count is an index-only scan of the range; the draw another, hashing
   * each id and keeping the n smallest (a top-N sort). The seed goes in as bytes (its UTF-8 and ':'),
   * so any seed hashes as it does in JS.
   */
  async sample(org: string, period: Pick<RecordQuery, 'since' | 'until'>, n: number, seed: string): Promise<RecordSample> {
    const params: unknown[] = [];
    const where = this.where(org, { since: period.since, until: period.until }, params);
    const prefix = `$${params.push(sampleKeyPrefix(seed))}::bytea`;
    const limit = `$${params.push(Math.max(0, Math.floor(n)))}`;
    const { rows } = await this.pool.query<{ population: string; ids: string[] }>(
      `SELECT (SELECT count(*) FROM ${this.table} WHERE ${where}) AS population,
              ARRAY(SELECT id FROM ${this.table} WHERE ${where} ORDER BY sha256(${prefix} || convert_to(id, 'UTF8')) LIMIT ${limit}) AS ids`,
      params,
    );
    return { population: Number(rows[0].population), ids: rows[0].ids };
  }

  /** The query's condition, its values added to `params`: the id window (record-ids.ts) and, for partition pruning, its times. */
  private where(org: string, query: RecordQuery, params: unknown[]): string {
    const window = idWindow(query);
    const where = [`org = $${params.push(org)}`, `id >= $${params.push(window.low)}`, `id ${window.highInclusive ? '<=' : '<'} $${params.push(window.high)}`];
    if (query.since) where.push(`made_at >= $${params.push(`${query.since}T00:00:00Z`)}`);
    if (query.until) where.push(`made_at < $${params.push(new Date(Date.parse(`${query.until}T00:00:00Z`) + DAY_MS).toISOString())}`);
    if (query.before !== undefined && isRecordId(query.before)) where.push(`made_at <= $${params.push(new Date(recordIdTime(query.before)).toISOString())}`);
    return where.join(' AND ');
  }

  /**
   * Months whose every record is past its keep-until day are dropped whole (their rows counted
   * first); in the others, the expired rows are deleted. A month is dropped only once it is over, so
   * that a process appending to it now never finds it gone.
   */
  async prune(today: string): Promise<number> {
    if (!isDay(today)) throw new RangeError(`not a date: ${today}`);
    const todayMs = Date.parse(`${today}T00:00:00Z`);
    const { rows: partitions } = await this.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
      [this.table],
    );
    let removed = 0;
    for (const { name } of partitions) {
      const partition = `${this.schema}.${name}`;
      const monthEnd = monthEndOf(name);
      const { rows } = await this.pool.query<{ newest: string | null }>(`SELECT max(keep_until)::text AS newest FROM ${partition}`);
      const newest = rows[0].newest;
      if (monthEnd !== null && monthEnd <= todayMs && (newest === null || newest < today)) {
        const { rows: counted } = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${partition}`);
        await this.pool.query(`DROP TABLE IF EXISTS ${partition}`);
        this.months.delete(name.slice(-7));
        removed += Number(counted[0].n);
      } else if (newest !== null) {
        removed += (await this.pool.query(`DELETE FROM ${partition} WHERE keep_until < $1`, [today])).rowCount ?? 0;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    await this.options.onClose?.();
  }

  private async ensureMonths(made: readonly number[]): Promise<void> {
    const missing = [...new Set(made.map(partitionMonth))].filter((month) => !this.months.has(month));
    if (missing.length === 0) return;
    await ensureTables(
      this.pool,
      this.schema,
      missing.map((month) => {
        const [year, m] = month.split('_').map(Number);
        const from = new Date(Date.UTC(year, m - 1, 1)).toISOString();
        const to = new Date(Date.UTC(year, m, 1)).toISOString();
        return `CREATE TABLE IF NOT EXISTS ${this.table}_${month} PARTITION OF ${this.table} FOR VALUES FROM ('${from}') TO ('${to}')`;
      }),
    );
    for (const month of missing) this.months.add(month);
  }
}

/**
 * A statement named after its text, prepared once per connection: PostgreSQL parses it once, and
 * after five calls plans it once (docs/ARCHITECTURE.md, "Reading valuation records"). The name is
 * the text's hash, so stores sharing a pool (another kind, another schema) never give one name two
 * texts, and it stays within PostgreSQL's 63 characters. (Hashed on every call, about a
 * microsecond: nothing is kept per text, whatever months are asked for; a connection keeps only the
 * statements PostgreSQL could prepare, one per month that has a partition.)
 */
function prepared(text: string, values: unknown[]): QueryConfig {
  return { name: `valuation_records_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`, text, values };
}

/** A partition's `YYYY_MM` suffix for a time (UTC). */
const partitionMonth = (ms: number): string => monthOf(ms).replace('-', '_');

/** The first moment after a partition's month (from its name's `_YYYY_MM`), or null for a name not of that form. */
function monthEndOf(partition: string): number | null {
  const match = /_(\d{4})_(\d{2})$/.exec(partition);
  return match ? Date.UTC(Number(match[1]), Number(match[2]), 1) : null;
}
