/**
 * The run's PostgreSQL, for the suites of the PostgreSQL stores: test/jest-global-postgres.js finds or
 * starts it once (DATABASE_URL answering, else a private cluster, else none) and these helpers skip
 * those suites, visibly, when there is none. Each store under test gets a schema of its own, dropped
 * at the end, so suites and runs sharing one server never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';

/** The run's PostgreSQL ('' when there is none: the suites using it are skipped then). */
export const DATABASE_URL = process.env.TEST_DATABASE_URL ?? '';

/** A describe that needs the run's PostgreSQL: skipped when there is none. */
export const describeWithPostgres: jest.Describe = DATABASE_URL ? describe : describe.skip;

/** Schemas made in this process: a fresh name each call, every one dropped by dropAll(). */
export class TestSchemas {
  private readonly made: string[] = [];
  private readonly run = `test_${process.pid}_${randomBytes(3).toString('hex')}`;

  next(): string {
    const schema = `${this.run}_${this.made.length}`;
    this.made.push(schema);
    return schema;
  }

  async dropAll(): Promise<void> {
    if (this.made.length === 0 || !DATABASE_URL) return;
    const pool = new Pool({ connectionString: DATABASE_URL, max: 1 });
    try {
      for (const schema of this.made.splice(0)) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await pool.end();
    }
  }
}
