/**
 * Observations in PostgreSQL (DATABASE_URL), shared by every replica. Tables in schema `s`:
 *
 *   s.observations (org, kind, id, observed_on, record)   PRIMARY KEY (org, kind, id)
 *     index (org, kind, observed_on DESC, id DESC): list()'s order, so a point-in-time fit
 *     (until = the valuation's date) reads only the organisation's kind up to that day, in order
 *   s.observation_revisions (org, kind, revision)        one counter per series
 *
 * An append, a removal and a prune are each one transaction with the counter's increment, so the
 * revision and the rows never disagree. Ids compare byte-wise (COLLATE "C"), as in every store.
 */
import type { Pool } from 'pg';
import { checkIdentifier, ensureTables, inTransaction } from '../../../platform/postgres';
import { checkSeries, dayNumber, dayRangeOf, encodeObservations, isoDateOfDay } from './observation-records';
import type { ObservationKind, ObservationQuery, ObservationStore, StoredObservation } from './types';

export interface PostgresObservationStoreOptions {
  pool: Pool;
  /** The PostgreSQL schema holding the tables. @default 'valuation' */
  schema?: string;
  /** Called by close(): the factory ends the pool it made; a borrowed pool is left open. */
  onClose?: () => Promise<void>;
}

export class PostgresObservationStore implements ObservationStore {
  private readonly pool: Pool;
  private readonly observations: string;
  private readonly revisions: string;

  private constructor(private readonly options: PostgresObservationStoreOptions) {
    this.pool = options.pool;
    const schema = checkIdentifier(options.schema ?? 'valuation', 'the PostgreSQL schema');
    this.observations = `${schema}.observations`;
    this.revisions = `${schema}.observation_revisions`;
  }

  static async open(options: PostgresObservationStoreOptions): Promise<PostgresObservationStore> {
    const store = new PostgresObservationStore(options);
    const schema = options.schema ?? 'valuation';
    await ensureTables(store.pool, schema, [
      `CREATE TABLE IF NOT EXISTS ${store.observations} (
         org text NOT NULL,
         kind text NOT NULL,
         id text COLLATE "C" NOT NULL,
         observed_on date NOT NULL,
         record json NOT NULL,
         PRIMARY KEY (org, kind, id)
       )`,
      `CREATE INDEX IF NOT EXISTS observations_by_day ON ${store.observations} (org, kind, observed_on DESC, id DESC)`,
      // prune() finds what is past the retention across organisations.
      `CREATE INDEX IF NOT EXISTS observations_observed_on ON ${store.observations} (observed_on)`,
      `CREATE TABLE IF NOT EXISTS ${store.revisions} (org text NOT NULL, kind text NOT NULL, revision bigint NOT NULL, PRIMARY KEY (org, kind))`,
    ]);
    return store;
  }

  async append(org: string, kind: ObservationKind, records: readonly StoredObservation[]): Promise<number> {
    // Ids are made unique by the caller; one sent twice in a call keeps its last record (one row per id).
    const encoded = [...new Map(encodeObservations(org, kind, records).map((e) => [e.id, e])).values()];
    if (encoded.length === 0) return this.revision(org, kind);
    return inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO ${this.observations} (org, kind, id, observed_on, record)
         SELECT $1, $2, * FROM unnest($3::text[], $4::date[], $5::json[])
         ON CONFLICT (org, kind, id) DO UPDATE SET observed_on = EXCLUDED.observed_on, record = EXCLUDED.record`,
        [org, kind, encoded.map((e) => e.id), encoded.map((e) => isoDateOfDay(e.day)), encoded.map((e) => e.json)],
      );
      return this.bump(client, org, kind);
    });
  }

  async list(org: string, kind: ObservationKind, query?: ObservationQuery): Promise<StoredObservation[]> {
    const { fromDay, toDay, offset, limit } = dayRangeOf(org, kind, query);
    if (limit === 0) return [];
    const params: unknown[] = [org, kind];
    const where = ['org = $1', 'kind = $2'];
    if (fromDay !== -Infinity) where.push(`observed_on >= $${params.push(isoDateOfDay(fromDay))}`);
    if (toDay !== Infinity) where.push(`observed_on <= $${params.push(isoDateOfDay(toDay))}`);
    const page = `${limit !== Infinity ? ` LIMIT $${params.push(limit)}` : ''}${offset > 0 ? ` OFFSET $${params.push(offset)}` : ''}`;
    const { rows } = await this.pool.query<{ record: StoredObservation }>(
      `SELECT record FROM ${this.observations} WHERE ${where.join(' AND ')} ORDER BY observed_on DESC, id DESC${page}`,
      params,
    );
    return rows.map((row) => row.record);
  }

  async revision(org: string, kind: ObservationKind): Promise<number> {
    checkSeries(org, kind);
    const { rows } = await this.pool.query<{ revision: string }>(`SELECT revision FROM ${this.revisions} WHERE org = $1 AND kind = $2`, [org, kind]);
    return rows.length === 0 ? 0 : Number(rows[0].revision);
  }

  async remove(org: string, kind: ObservationKind, ids: readonly string[]): Promise<string[]> {
    checkSeries(org, kind);
    if (ids.length === 0) return [];
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ id: string }>(`DELETE FROM ${this.observations} WHERE org = $1 AND kind = $2 AND id = ANY($3::text[]) RETURNING id`, [org, kind, [...ids]]);
      if (rows.length > 0) await this.bump(client, org, kind);
      return rows.map((row) => row.id);
    });
  }

  async count(org: string, kind: ObservationKind): Promise<number> {
    checkSeries(org, kind);
    const { rows } = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.observations} WHERE org = $1 AND kind = $2`, [org, kind]);
    return Number(rows[0].n);
  }

  /** One statement: the rows observed before the day go, and the series that lost any move their revision on. */
  async prune(before: string): Promise<number> {
    dayNumber(before, 'before');
    const { rows } = await this.pool.query<{ removed: string }>(
      `WITH gone AS (DELETE FROM ${this.observations} WHERE observed_on < $1 RETURNING org, kind),
            series AS (SELECT org, kind, count(*) AS n FROM gone GROUP BY org, kind),
            bumped AS (UPDATE ${this.revisions} r SET revision = r.revision + 1 FROM series s WHERE r.org = s.org AND r.kind = s.kind)
       SELECT coalesce(sum(n), 0) AS removed FROM series`,
      [before],
    );
    return Number(rows[0].removed);
  }

  async close(): Promise<void> {
    await this.options.onClose?.();
  }

  private async bump(client: { query: Pool['query'] }, org: string, kind: ObservationKind): Promise<number> {
    const { rows } = await client.query<{ revision: string }>(
      `INSERT INTO ${this.revisions} (org, kind, revision) VALUES ($1, $2, 1)
       ON CONFLICT (org, kind) DO UPDATE SET revision = ${this.revisions}.revision + 1 RETURNING revision`,
      [org, kind],
    );
    return Number(rows[0].revision);
  }
}
