/**
 * PostgreSQL connections for the stores that keep records and observations there (DATABASE_URL):
 * one pool per store, bounded, with statement and connection timeouts so that a stalled database
 * fails a call instead of holding it, and the stores' tables created once, under an advisory lock,
 * by whichever process opens first.
 */
import { Pool, type PoolClient } from 'pg';

export interface PostgresPoolOptions {
  url: string;
  /** Connections this pool opens at most. @default 4 */
  max?: number;
  /** A statement running longer is cancelled by the server. @default 30_000 */
  statementTimeoutMs?: number;
  log(message: string): void;
}

export function createPostgresPool(options: PostgresPoolOptions): Pool {
  const pool = new Pool({
    connectionString: options.url,
    max: options.max ?? 4,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    application_name: 'valuation-service',
  });
  // An idle connection the server drops emits 'error' on the pool: without a listener it would end the process.
  pool.on('error', (error) => options.log(`postgres: ${error.message}`));
  return pool;
}

/** A name fit for an SQL identifier: letters, digits and underscores, starting with a letter or underscore. */
export function checkIdentifier(name: string, what: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) throw new Error(`${what} must be letters, digits and underscores (at most 63), got ${JSON.stringify(name)}`);
  return name;
}

/** Runs `work` in one transaction on a connection of the pool: committed if it resolves, rolled back if it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Creates the schema and runs `statements` (each `CREATE … IF NOT EXISTS`) in one transaction
 * holding an advisory lock on the schema's name: two processes starting together do not race on
 * the catalogue (IF NOT EXISTS alone can still fail on a concurrent create).
 */
export async function ensureTables(pool: Pool, schema: string, statements: readonly string[]): Promise<void> {
  checkIdentifier(schema, 'the PostgreSQL schema');
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`valuation-service:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    for (const statement of statements) await client.query(statement);
  });
}
