/**
 * bench/batch: batch jobs end to end with Redis and separate worker processes.
 * The API process (this one: gateway + subgraphs, BATCH_WORKERS=0) takes NDJSON uploads on
 * POST /api/batch; 1, then 2, worker processes (subgraphs/batch/worker-main.js) take the
 * chunks from Redis. Per worker count: an address-only job of --small items (default 10,000), one
 * of --items (default 100,000), and one of --home-items (default 10,000) with home parameters on
 * every item. Measures items/s (submit → completed_at, and per worker), submit → webhook received,
 * and the peak RSS of the API process (sampled in process) and of each worker (/proc VmRSS
 * sampled during each job, VmHWM at the end).
 * Usage: npm run build && node dist/bench/batch/run.js [--items 100000] [--small 10000]
 *        [--home-items 10000] [--workers 1,2] [--concurrency 2] [--cpu-prof DIR] (profiles the workers)
 *        [--worker-node-options "--max-semi-space-size=4"] (node options of the workers alone)
 *        [--worker-log DIR] (the workers' standard output, e.g. with --worker-node-options --trace-gc)
 *        [--heap-snapshots DIR] (a heap snapshot of each worker after each job)
 * Needs Redis at REDIS_URL (default redis://127.0.0.1:6379); its keys go under a fresh prefix, deleted at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg, tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchAddress, placeableBases } from './addresses';
import { flag, option } from '../cli';

const ITEMS = Number(option('items', '100000'));
const SMALL = Number(option('small', '10000'));
const HOME_ITEMS = Number(option('home-items', '10000'));
const WORKER_COUNTS = option('workers', '1,2').split(',').map(Number);
const CONCURRENCY = option('concurrency', '2');
const CPU_PROF = flag('cpu-prof') ? option('cpu-prof', '') : '';
/** Node options for the workers only (space-separated), e.g. "--max-semi-space-size=4" to see how much of their RSS is V8's young generation. */
const WORKER_NODE_OPTIONS = option('worker-node-options', '').split(' ').filter((o) => o !== '');
/** A folder for the workers' standard output (worker-N.log), e.g. with --worker-node-options --trace-gc. */
const WORKER_LOG = option('worker-log', '');
/** A folder for heap snapshots of the workers, one after each job (what they retain, garbage collected first). */
const HEAP_SNAPSHOTS = option('heap-snapshots', '');

process.env.NODE_ENV ??= 'production';
process.env.APOLLO_TELEMETRY_DISABLED = '1';
process.env.VALUATION_HOME = mkdtempSync(join(tmpdir(), 'bench-batch-'));
process.env.REDIS_URL ||= 'redis://127.0.0.1:6379';
process.env.BATCH_WORKERS = '0';
process.env.BATCH_WORKER_CONCURRENCY = CONCURRENCY;
process.env.BATCH_KEY_PREFIX = `bench-batch-${randomBytes(4).toString('hex')}:`;
process.env.BATCH_CALLBACK_ALLOW_PRIVATE = '1';
process.env.BATCH_WEBHOOK_BASE_DELAY_MS = '100';

const WORKER_MAIN = join(__dirname, '..', '..', 'subgraphs', 'batch', 'worker-main.js');

// ---- addresses -------------------------------------------------------------------------------
/** Quarters and streets with listings behind them, under the district's Uzbek name (./addresses.ts): "Chilonzor tumani, Qatortol, 12-uy". */
async function addresses(): Promise<string[]> {
  const { loadGazetteer, geocode } = await import('../../models/location/geocode');
  return placeableBases(loadGazetteer(), geocode);
}

const HOME = { area: 65, rooms: 3, floor: 4, total_floors: 9, renovation: 'Evro', qurilish_turi: "G'ishtli", mebel: 'ha', sanuzel: 'alohida' };

function ndjson(bases: string[], n: number, withHome: boolean): string {
  const lines: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const item: Record<string, unknown> = { address: benchAddress(bases, i) };
    if (withHome) item.home = { ...HOME, area: 35 + (i % 90), rooms: 1 + (i % 4), floor: 1 + (i % 9) };
    lines[i] = JSON.stringify(item);
  }
  return lines.join('\n') + '\n';
}

// ---- memory ----------------------------------------------------------------------------------
function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

class Peaks {
  api = 0;
  workers: number[] = [];
  private timer: NodeJS.Timeout;
  constructor(private pids: number[]) {
    this.workers = pids.map(() => 0);
    this.timer = setInterval(() => this.sample(), 100);
    this.sample();
  }
  sample(): void {
    this.api = Math.max(this.api, process.memoryUsage().rss);
    this.pids.forEach((pid, i) => (this.workers[i] = Math.max(this.workers[i], procStatus(pid, 'VmRSS'))));
  }
  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// ---- webhook receiver ------------------------------------------------------------------------
function webhookReceiver(): Promise<{ server: Server; url: string; waitFor(id: string): Promise<number> }> {
  const arrived = new Map<string, number>();
  const waiters = new Map<string, (t: number) => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const t = performance.now();
      response.writeHead(200).end();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string; data?: { id?: string } };
        const id = event.id ?? event.data?.id;
        if (id && !arrived.has(id)) {
          arrived.set(id, t);
          waiters.get(id)?.(t);
        }
      } catch {
        /* not ours */
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        server,
        url: `http://127.0.0.1:${port}/hook`,
        waitFor: (id) => (arrived.has(id) ? Promise.resolve(arrived.get(id)!) : new Promise((r) => waiters.set(id, r))),
      });
    }),
  );
}

// ---- workers ---------------------------------------------------------------------------------
function startWorker(env: NodeJS.ProcessEnv, index: number): Promise<ChildProcess> {
  const execArgv = [
    ...WORKER_NODE_OPTIONS,
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []),
    ...(HEAP_SNAPSHOTS ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${HEAP_SNAPSHOTS}`] : []),
  ];
  const child = spawn(process.execPath, [...execArgv, WORKER_MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[worker ${index}] ${d}`));
  if (WORKER_LOG) child.stdout!.pipe(createWriteStream(join(WORKER_LOG, `worker-${index}.log`), { flags: 'a' }));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (String(d).includes('batch worker taking chunks')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker ${index} exited with ${code}`)));
  });
}

/** Asks each worker for a heap snapshot (--heapsnapshot-signal) and waits until its file stops growing. */
async function heapSnapshots(pids: number[]): Promise<void> {
  const { readdirSync, statSync } = await import('node:fs');
  const sizes = () => readdirSync(HEAP_SNAPSHOTS).map((f) => statSync(join(HEAP_SNAPSHOTS, f)).size).join();
  const before = readdirSync(HEAP_SNAPSHOTS).length;
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
  let last = '';
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const now = sizes();
    if (readdirSync(HEAP_SNAPSHOTS).length >= before + pids.length && now === last) return;
    last = now;
  }
}

function stopWorker(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

interface Row {
  workers: number;
  job: string;
  items: number;
  succeeded: number;
  failed: number;
  seconds: number;
  itemsPerSecond: number;
  perWorker: number;
  webhookSeconds: number;
  apiPeak: number;
  workerPeaks: number[];
}

async function main(): Promise<void> {
  const { gatewayConfigFromEnv } = await import('../../gateway/config');
  const { startStack } = await import('../../gateway/stack');
  const bases = await addresses();
  console.error(`${bases.length} distinct placeable base addresses (gazetteer quarters and streets), house numbers 1–97`);

  const stack = await startStack({ gateway: { ...gatewayConfigFromEnv(), host: '127.0.0.1', port: 0 }, log: () => {} });
  const key = stack.gateway.keys.create({ org: 'bench', plan: 'enterprise' }).key;
  const hooks = await webhookReceiver();
  const base = stack.gateway.url;
  const workerEnv = {
    ...process.env,
    RESIDENTIAL_URL: stack.residential.url,
    LOCATION_URL: stack.location.url,
    INTERNAL_TOKEN: stack.internalToken,
  };

  async function runJob(name: string, body: string, items: number, workerPids: number[], workers: number): Promise<Row> {
    const peaks = new Peaks(workerPids);
    const t0 = performance.now();
    const response = await fetch(`${base}/api/batch?callback_url=${encodeURIComponent(hooks.url)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'x-api-key': key },
      body,
    });
    const accepted = (await response.json()) as { id?: string };
    if (response.status !== 202 || !accepted.id) throw new Error(`submit answered ${response.status}: ${JSON.stringify(accepted).slice(0, 300)}`);
    const tAccepted = performance.now();
    // Progress for the log, every 2 s, until the webhook arrives.
    const progress = setInterval(() => {
      void fetch(`${base}/api/batch/${accepted.id}`, { headers: { 'x-api-key': key } })
        .then((r) => r.json())
        .then((j) => console.error(`  ${name}: ${(j as { processed?: number }).processed}/${items} after ${((performance.now() - t0) / 1000).toFixed(1)} s`))
        .catch(() => {});
    }, 2000);
    const tHook = await hooks.waitFor(accepted.id);
    clearInterval(progress);
    peaks.stop();
    const job = (await (await fetch(`${base}/api/batch/${accepted.id}`, { headers: { 'x-api-key': key } })).json()) as {
      status: string; succeeded: number; failed: number; created_at: string; completed_at: string;
    };
    const seconds = (Date.parse(job.completed_at) - Date.parse(job.created_at)) / 1000;
    const row: Row = {
      workers, job: name, items, succeeded: job.succeeded, failed: job.failed, seconds,
      itemsPerSecond: items / seconds, perWorker: items / seconds / workers,
      webhookSeconds: (tHook - t0) / 1000, apiPeak: peaks.api, workerPeaks: peaks.workers,
    };
    if (HEAP_SNAPSHOTS) await heapSnapshots(workerPids);
    console.error(`  ${name}: ${job.status}, ${row.succeeded} ok / ${row.failed} failed, ${seconds.toFixed(1)} s (submit accepted in ${((tAccepted - t0) / 1000).toFixed(2)} s), ${row.itemsPerSecond.toFixed(0)} items/s, webhook at ${row.webhookSeconds.toFixed(1)} s`);
    return row;
  }

  const rows: Row[] = [];
  const hwm: { workers: number; peaks: number[] }[] = [];
  const bodies = { small: ndjson(bases, SMALL, false), big: ndjson(bases, ITEMS, false), home: ndjson(bases, HOME_ITEMS, true), warm: ndjson(bases, 2000, true) };
  console.error(`NDJSON bodies: ${mb(bodies.big.length)} MB for ${ITEMS} items, ${mb(bodies.home.length)} MB for ${HOME_ITEMS} with homes`);
  try {
    for (const count of WORKER_COUNTS) {
      console.error(`--- ${count} worker process(es), concurrency ${CONCURRENCY} each`);
      const workers: ChildProcess[] = [];
      for (let i = 0; i < count; i++) workers.push(await startWorker(workerEnv, i + 1));
      const pids = workers.map((w) => w.pid!);
      await runJob('warm-up (2,000 with homes)', bodies.warm, 2000, pids, count); // not reported
      rows.push(await runJob(`${SMALL.toLocaleString('en')} addresses`, bodies.small, SMALL, pids, count));
      rows.push(await runJob(`${ITEMS.toLocaleString('en')} addresses`, bodies.big, ITEMS, pids, count));
      rows.push(await runJob(`${HOME_ITEMS.toLocaleString('en')} addresses + homes`, bodies.home, HOME_ITEMS, pids, count));
      hwm.push({ workers: count, peaks: pids.map((pid) => procStatus(pid, 'VmHWM')) });
      for (const w of workers) await stopWorker(w);
    }
  } finally {
    hooks.server.close();
    await cleanRedis();
    await stack.close();
  }

  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`\nnode ${process.version}, ${cpus().length} CPUs, load average ${load}, ${new Date().toISOString()}, worker concurrency ${CONCURRENCY}\n`);
  console.log('| workers | job | items/s (submit → completed) | items/s per worker | completed in s | submit → webhook s | ok / failed | API peak RSS MB | worker peak RSS MB |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.workers} | ${r.job} | ${r.itemsPerSecond.toFixed(0)} | ${r.perWorker.toFixed(0)} | ${r.seconds.toFixed(1)} | ${r.webhookSeconds.toFixed(1)} | ${r.succeeded} / ${r.failed} | ${mb(r.apiPeak)} | ${r.workerPeaks.map(mb).join(', ')} |`);
  }
  for (const h of hwm) console.log(`\nworker VmHWM after all jobs with ${h.workers} worker(s): ${h.peaks.map(mb).join(', ')} MB`);
  const small = rows.filter((r) => r.job.startsWith(SMALL.toLocaleString('en')));
  const big = rows.filter((r) => r.job.startsWith(ITEMS.toLocaleString('en')) && !r.job.includes('homes'));
  if (small.length && big.length) {
    const apiRatio = median(big.map((r) => r.apiPeak)) / median(small.map((r) => r.apiPeak));
    const workerRatio = median(big.map((r) => Math.max(...r.workerPeaks))) / median(small.map((r) => Math.max(...r.workerPeaks)));
    console.log(`peak RSS ${ITEMS} / ${SMALL} items: API ×${apiRatio.toFixed(2)}, worker ×${workerRatio.toFixed(2)}`);
  }
}

async function cleanRedis(): Promise<void> {
  const { createClient } = await import('redis');
  const client = createClient({ url: process.env.REDIS_URL });
  await client.connect();
  let deleted = 0;
  for await (const batch of client.scanIterator({ MATCH: `${process.env.BATCH_KEY_PREFIX}*`, COUNT: 1000 })) {
    const keys = (Array.isArray(batch) ? batch : [batch]) as string[];
    if (keys.length) deleted += await client.del(keys);
  }
  await client.quit();
  console.error(`deleted ${deleted} Redis keys under ${process.env.BATCH_KEY_PREFIX}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
