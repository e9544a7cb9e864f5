/**
 * Valuation records in PostgreSQL at scale (issue 34, item 3): the whole service in a child process
 * (`node dist/gateway/all-in-one.js`, DATABASE_URL set), its records table filled to N rows over
 * twelve months and many organisations, then, through REST:
 *   1. GET /api/valuations/{id} for ids drawn at random from the caller's records: p50, p99;
 *   2. a month's page (GET /api/valuations?since&until&limit=100) and the page after it: p50, p99;
 *   3. a soak: POST /api/predict/home at 70% of the rate the service sustains, for a while, with the
 *      service's RSS read every 5 s: it must stay flat while the records are written.
 * The rows are written by the server itself (INSERT … SELECT generate_series) in the store's own
 * table, each a real record of this service (the first valuation, read back) under an id of its
 * month, so the table is what months of service would leave behind.
 *
 * Each read measure also gives the service's CPU time per request (user + system, from /proc), which
 * the bench's own client, on the same cores, does not blur as it does the latencies.
 *
 * Run: npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *      node dist/bench/valuation-records/postgres.js [--records 10000000] [--orgs 50] [--soak-minutes 10] [--keep] [--profile DIR] [--warmup 0]
 * (--keep leaves the bench schema, `bench_records`, for another run with --records 0; --profile writes
 * the measured service's CPU profile into DIR, for `node dist/bench/profile-top.js`)
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { DEFAULT_PLANS_FILE } from '../../platform/plans';
import { flag, option } from '../cli';
import { announced, processCpuMs, processRssMb as rssMb, stopChild } from '../proc';

const RECORDS = Number(option('records', '10000000'));
const ORGS = Number(option('orgs', '50'));
const SOAK_MINUTES = Number(option('soak-minutes', '10'));
const SCHEMA = 'bench_records';
const PROFILE_DIR = option('profile');
/** Reads of other ids (and pages of another month) before measuring, so that the figures are a running service's, not a fresh process's (JIT, statements prepared per connection). */
const WARMUP = Number(option('warmup', '0'));
const DATABASE_URL = process.env.DATABASE_URL;
const CHUNK = 500_000;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The plans with the first start's plan ('development') unthrottled: the bench measures the store, not the quota. */
function benchPlans(home: string): string {
  const plans = JSON.parse(readFileSync(DEFAULT_PLANS_FILE, 'utf8')) as Record<string, Record<string, unknown>>;
  const unlimited = { perMinute: 1_000_000_000, perDay: 1_000_000_000 };
  plans.development = { ...plans.development, quota: unlimited, valuations: unlimited };
  const file = join(home, 'bench-plans.json');
  writeFileSync(file, JSON.stringify(plans));
  return file;
}

/** The service over `home`; the first start prints its organisation and key, which a restart is given back. */
async function startService(home: string, known?: { org: string; key: string }, execArgv: string[] = []): Promise<{ url: string; org: string; key: string; pid: number; stop(): Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PLANS_FILE: benchPlans(home), VALUATION_HOME: home, PORT: '0', DATABASE_URL, DATABASE_SCHEMA: SCHEMA, APOLLO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' };
  delete env.REDIS_URL;
  const child = fork(join(__dirname, '..', '..', 'gateway', 'all-in-one.js'), [], { env, execArgv, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  // The key is printed last, on the first start only.
  const ready = known ? /listening on (\S+)/ : /listening on (\S+)[\s\S]*A local organisation "([^"]+)"[\s\S]*?^\s+(tvk_\S+)/m;
  const [, url, org, key] = await announced(child, 'the service', ready);
  return {
    url,
    org: known?.org ?? org,
    key: known?.key ?? key,
    pid: child.pid!,
    stop: () => stopChild(child),
  };
}

/** Fills the records table to RECORDS rows over the twelve months before now, organisation `org` among ORGS. */
async function fill(db: Client, org: string, template: string): Promise<void> {
  const table = `${SCHEMA}.valuations_home`;
  // The store's ids: val_ + the time in 10 Crockford base-32 letters + 16 more (md5's hex digits are all Crockford letters).
  await db.query(`CREATE OR REPLACE FUNCTION pg_temp.crockford10(ms bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((ms >> (5 * (9 - i))) & 31)::int + 1, 1), '' ORDER BY i) FROM generate_series(0, 9) i $$`);
  const end = Date.now() - 60_000;
  const start = end - 365 * 86_400_000;
  // Every month's partition, made as the store makes them (one record appended per month by the service would do the same).
  for (let month = new Date(start); month.getTime() <= end; month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1))) {
    const y = month.getUTCFullYear();
    const m = month.getUTCMonth() + 1;
    const from = new Date(Date.UTC(y, m - 1, 1)).toISOString();
    const to = new Date(Date.UTC(y, m, 1)).toISOString();
    await db.query(`CREATE TABLE IF NOT EXISTS ${table}_${y}_${String(m).padStart(2, '0')} PARTITION OF ${table} FOR VALUES FROM ('${from}') TO ('${to}')`);
  }
  await db.query('SET synchronous_commit = off');
  const began = Date.now();
  for (let done = 0; done < RECORDS; done += CHUNK) {
    const n = Math.min(CHUNK, RECORDS - done);
    await db.query(
      `INSERT INTO ${table} (org, id, made_at, keep_until, record)
       SELECT o, i, t, (t + interval '1095 days')::date, replace($1, '__ID__', i)::json
       FROM (SELECT CASE WHEN g % $2 = 0 THEN $3 ELSE 'bench-org-' || (g % $2) END AS o,
                    to_timestamp(ms / 1000.0) AS t,
                    'val_' || pg_temp.crockford10(ms) || upper(substr(md5(g::text), 1, 16)) AS i
             FROM (SELECT g, ($4::bigint + (g::bigint * $5::bigint) / $6::bigint) AS ms FROM generate_series($7::bigint, $8::bigint) g) s) r`,
      [template, ORGS, org, start, end - start, RECORDS, done, done + n - 1],
    );
    console.error(`  ${(done + n).toLocaleString('en')} of ${RECORDS.toLocaleString('en')} rows written (${Math.round((Date.now() - began) / 1000)} s)`);
  }
  await db.query(`ANALYZE ${table}`);
}

async function timed(n: number, concurrency: number, call: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        await call(i);
        times.push(performance.now() - t0);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

/** `timed`, with the service's CPU time per call (ms). */
async function measured(pid: number, n: number, concurrency: number, call: (i: number) => Promise<void>): Promise<{ times: number[]; cpuMs: number }> {
  const cpu0 = processCpuMs(pid);
  const times = await timed(n, concurrency, call);
  return { times, cpuMs: (processCpuMs(pid) - cpu0) / n };
}

/** Capacity first (10 s flat out), then SOAK_MINUTES at 70% of it, the service's RSS read every 5 s. */
async function soak(service: { url: string; pid: number }, headers: Record<string, string>, db: Client, total: number): Promise<string> {
  console.error(`capacity (10 s), then the soak (${SOAK_MINUTES} min)…`);
  const body = JSON.stringify(SAMPLE_HOME_REQUEST);
  const burst = await autocannon({ url: `${service.url}/api/predict/home`, method: 'POST', connections: 16, duration: 10, headers, body });
  const rate = Math.round(burst.requests.average * 0.7);
  const rss: number[] = [rssMb(service.pid)];
  const sampler = setInterval(() => rss.push(rssMb(service.pid)), 5000);
  const run = await autocannon({ url: `${service.url}/api/predict/home`, method: 'POST', connections: 16, duration: SOAK_MINUTES * 60, overallRate: rate, headers, body });
  clearInterval(sampler);
  rss.push(rssMb(service.pid));
  const written = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${SCHEMA}.valuations_home`)).rows[0].n) - total;
  const third = Math.max(1, Math.floor(rss.length / 3));
  const mean = (values: number[]) => Math.round(values.reduce((s, v) => s + v, 0) / values.length);
  return [
    `\nsoak: ${SOAK_MINUTES} min of POST /api/predict/home at ${rate} req/s (70% of ${Math.round(burst.requests.average)}), ${written.toLocaleString('en')} records written, p99 ${run.latency.p99} ms, errors ${run.errors}, non-2xx ${run.non2xx}`,
    `service RSS (MB): start ${Math.round(rss[0])}, mean of the first third ${mean(rss.slice(0, third))}, mean of the last third ${mean(rss.slice(-third))}, max ${Math.round(Math.max(...rss))}, end ${Math.round(rss[rss.length - 1])}`,
  ].join('\n');
}

async function main(): Promise<void> {
  if (!DATABASE_URL) throw new Error('set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  if (RECORDS > 0) await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  const home = mkdtempSync(join(tmpdir(), 'records-postgres-'));
  let service = await startService(home);
  const headers = { 'content-type': 'application/json', 'x-api-key': service.key };
  const first = (await (await fetch(`${service.url}/api/predict/home`, { method: 'POST', headers, body: JSON.stringify(SAMPLE_HOME_REQUEST) })).json()) as { valuation_id: string };
  const { rows } = await db.query<{ record: string }>(`SELECT record::text AS record FROM ${SCHEMA}.valuations_home WHERE id = $1`, [first.valuation_id]);
  if (rows.length !== 1) throw new Error(`the first valuation (${first.valuation_id}) is not in ${SCHEMA}.valuations_home`);
  const template = rows[0].record.replace(first.valuation_id, '__ID__').replace(first.valuation_id, '__ID__');
  if (RECORDS > 0) {
    console.error(`filling ${SCHEMA}.valuations_home with ${RECORDS.toLocaleString('en')} records of ${template.length} bytes of JSON, over ${ORGS} organisations…`);
    await fill(db, service.org, template);
  }
  const { rows: size } = await db.query<{ rows: string; bytes: string }>(
    `SELECT (SELECT count(*) FROM ${SCHEMA}.valuations_home) AS rows, (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits WHERE inhparent = '${SCHEMA}.valuations_home'::regclass) AS bytes`,
  );
  const total = Number(size[0].rows);
  console.error(`table: ${total.toLocaleString('en')} rows, ${(Number(size[0].bytes) / 2 ** 30).toFixed(1)} GiB with indexes`);
  // A restarted service: nothing of the records is in its memory.
  await service.stop();
  service = await startService(home, service, PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []);
  const key = { 'x-api-key': service.key };

  // The warm-up reads ids of its own, so that it leaves no measured record in PostgreSQL's or the system's cache.
  const { rows: sample } = await db.query<{ id: string }>(`SELECT id FROM ${SCHEMA}.valuations_home TABLESAMPLE SYSTEM (${WARMUP > 0 ? 2 : 1}) WHERE org = $1 LIMIT ${2000 + WARMUP}`, [service.org]);
  const warmupIds = sample.slice(2000).map((r) => r.id);
  const ids = sample.slice(0, 2000).map((r) => r.id);
  console.error(`reading ${ids.length} of the caller's ids by GET /api/valuations/{id}…`);
  const get = async (i: number) => {
    const response = await fetch(`${service.url}/api/valuations/${ids[i % ids.length]}`, { headers: key });
    if (response.status !== 200) throw new Error(`GET /api/valuations/{id}: ${response.status}`);
    await response.arrayBuffer();
  };
  if (WARMUP > 0) {
    console.error(`warming up: ${warmupIds.length} reads of other ids, 20 pages of another month…`);
    await timed(warmupIds.length, 8, async (i) => void (await (await fetch(`${service.url}/api/valuations/${warmupIds[i]}`, { headers: key })).arrayBuffer()));
    const other = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 7);
    await timed(20, 4, async () => void (await (await fetch(`${service.url}/api/valuations?since=${other}-01&until=${other}-28&limit=100`, { headers: key })).arrayBuffer()));
  }
  const gets = await measured(service.pid, 2000, 8, get);
  const getsAlone = await measured(service.pid, 300, 1, get);
  console.error("a month's pages…");
  const month = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 7);
  const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
  const pageUrl = `${service.url}/api/valuations?since=${month}-01&until=${lastDay}&limit=100`;
  const firstPage = async () => {
    const response = await fetch(pageUrl, { headers: key });
    const page = (await response.json()) as { valuations: unknown[]; next: string | null };
    if (response.status !== 200 || page.valuations.length !== 100 || !page.next) throw new Error(`a month's page: ${response.status}, ${page.valuations?.length} records`);
    return page.next;
  };
  const pages = await measured(service.pid, 200, 4, async () => {
    const next = await firstPage();
    const after = await fetch(`${pageUrl}&before=${next}`, { headers: key });
    if (after.status !== 200) throw new Error(`the page after: ${after.status}`);
    await after.arrayBuffer();
  });
  const pagesAlone = await measured(service.pid, 40, 1, async () => void (await firstPage()));

  const soaked = SOAK_MINUTES > 0 ? await soak(service, headers, db, total) : null;

  await service.stop();
  if (!flag('keep')) await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await db.end();
  rmSync(home, { recursive: true, force: true });

  const ms = (v: number) => v.toFixed(1);
  console.log(`\nvaluation records in PostgreSQL, ${total.toLocaleString('en')} rows over ${ORGS} organisations, ${new Date().toISOString()}, node ${process.version}\n`);
  const row = (measure: string, m: { times: number[]; cpuMs: number }, aim = '') => console.log(`| ${measure} | ${ms(quantile(m.times, 0.5))} | ${ms(quantile(m.times, 0.99))} | ${m.cpuMs.toFixed(2)} | ${aim} |`);
  console.log('| measure | p50 ms | p99 ms | service CPU ms per call | aim |');
  console.log('|---|---:|---:|---:|---|');
  row(`GET /api/valuations/{id} (2,000 random ids of the caller's, 8 at a time)`, gets, 'p99 < 10 ms');
  row('the same, one at a time (300)', getsAlone);
  row("a month's page of 100 and the page after (200 times, 4 at a time)", pages, '< 50 ms');
  row("a month's page of 100, one at a time (40)", pagesAlone);
  if (soaked) console.log(soaked);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
