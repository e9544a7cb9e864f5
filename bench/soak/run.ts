/**
 * bench/soak: the home route held at a share of its measured capacity for a long time, with batch
 * jobs running in the same service the whole while (issue 8). The service runs all-in-one in a
 * child process (bench/rest-home/server.ts, its in-process batch worker included); autocannon and
 * the batch driver run here.
 *
 *   npm run build && node dist/bench/soak/run.js [--minutes 10] [--share 0.7] [--connections 16]
 *        [--window 10] [--batch-items 20000] [--redis redis://127.0.0.1:6379] [--retention-ms 120000] [--out docs/soak]
 *
 * With --redis (default REDIS_URL) the batch jobs live in Redis, as in production; without one they
 * live in the service's memory, where every finished job's results are kept for the retention, so
 * the server's RSS then grows with the jobs done (by design, not a leak): keep --retention-ms short.
 *
 * 1. Capacity: POST /api/predict/home at --connections, unthrottled, 15 s after a 5 s warm-up, no batch.
 * 2. Soak: --minutes at share × capacity (autocannon's overallRate) while batch jobs of --batch-items
 *    addresses follow one another. Per --window seconds: requests, errors (non-2xx or socket errors),
 *    p50/p99 latency, and the server's peak RSS (/proc/<pid>/status, sampled every second).
 * Writes <out>.json (every window) and <out>.svg (p99, RSS and error rate over time), and prints a
 * markdown summary for docs/RELIABILITY.md.
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { renderSvg } from '../../tools/cards/card-kit';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { benchAddress, placeableBases } from '../batch/addresses';
import { option } from '../cli';
import { processRssMb as rssMb } from '../proc';

const MINUTES = Number(option('minutes', '10'));
const SHARE = Number(option('share', '0.7'));
const CONNECTIONS = Number(option('connections', '16'));
const WINDOW_S = Number(option('window', '10'));
const BATCH_ITEMS = Number(option('batch-items', '20000'));
const OUT = resolve(option('out', 'docs/soak'));
const REDIS = option('redis', process.env.REDIS_URL ?? '');
const RETENTION_MS = option('retention-ms', '120000');

interface Urls { gateway: string; key: string }
interface Window {
  t: number; // seconds since the soak began, at the window's end
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  rssMb: number;
  batchItemsDone: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const median = (values: readonly number[]) => percentile([...values].sort((a, b) => a - b), 50);
const round1 = (x: number) => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const server = fork(join(__dirname, '..', 'rest-home', 'server.js'), {
    stdio: 'inherit',
    env: {
      ...process.env,
      BENCH_MAX_BATCH_ITEMS: String(BATCH_ITEMS),
      BENCH_REDIS_URL: REDIS,
      BATCH_RETENTION_MS: RETENTION_MS,
      BATCH_KEY_PREFIX: `soak-${process.pid}:`,
    },
  });
  const urls = await new Promise<Urls>((done, fail) => {
    server.once('message', (m) => done(m as Urls));
    server.once('exit', (code) => fail(new Error(`server exited with ${code}`)));
  });
  const home = {
    url: `${urls.gateway}/api/predict/home`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'x-api-key': urls.key },
    body: JSON.stringify(SAMPLE_HOME_REQUEST),
  };

  await autocannon({ ...home, connections: CONNECTIONS, duration: 5 });
  const measured = await autocannon({ ...home, connections: CONNECTIONS, duration: 15 });
  const capacity = measured.requests.average;
  const rate = Math.max(1, Math.round(capacity * SHARE));
  console.error(`capacity ${Math.round(capacity)} req/s (p99 ${measured.latency.p99} ms); soaking ${MINUTES} min at ${rate} req/s with batch jobs of ${BATCH_ITEMS}`);

  // Batch jobs, one after another, for as long as the soak lasts.
  const { loadGazetteer, geocode } = await import('../../models/location/geocode');
  const bases = placeableBases(loadGazetteer(), geocode);
  const ndjson = Array.from({ length: BATCH_ITEMS }, (_, i) => JSON.stringify({ address: benchAddress(bases, i) })).join('\n');
  let soaking = true;
  let batchItemsDone = 0;
  const jobs: { id: string; itemsPerSecond: number }[] = [];
  const batches = (async () => {
    while (soaking) {
      const submitted = await fetch(`${urls.gateway}/api/batch`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': urls.key }, body: ndjson });
      if (submitted.status !== 202) throw new Error(`batch submission answered ${submitted.status}: ${await submitted.text()}`);
      const { id } = (await submitted.json()) as { id: string };
      let counted = 0;
      for (;;) {
        await new Promise((r) => setTimeout(r, 1000));
        const job = (await (await fetch(`${urls.gateway}/api/batch/${id}`, { headers: { 'x-api-key': urls.key } })).json()) as { status: string; processed: number; created_at: string; completed_at: string | null };
        batchItemsDone += job.processed - counted;
        counted = job.processed;
        if (job.status === 'completed') {
          jobs.push({ id, itemsPerSecond: BATCH_ITEMS / ((Date.parse(job.completed_at!) - Date.parse(job.created_at)) / 1000) });
          break;
        }
        if (job.status !== 'running' && job.status !== 'queued') throw new Error(`batch job ${id} ended ${job.status}`);
        if (!soaking) return; // the soak is over: leave the job
      }
    }
  })();

  const windows: Window[] = [];
  let latencies: number[] = [];
  let requests = 0;
  let errors = 0;
  let peakRss = 0;
  const started = Date.now();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid!))), 1000);
  const closer = setInterval(() => {
    latencies.sort((a, b) => a - b);
    windows.push({ t: Math.round((Date.now() - started) / 1000), requests, errors, p50: round1(percentile(latencies, 50)), p99: round1(percentile(latencies, 99)), rssMb: Math.round(Math.max(peakRss, rssMb(server.pid!))), batchItemsDone });
    const w = windows[windows.length - 1];
    console.error(`${w.t}s: ${w.requests} req, ${w.errors} errors, p99 ${w.p99} ms, RSS ${w.rssMb} MB, batch items ${w.batchItemsDone}`);
    latencies = [];
    requests = 0;
    errors = 0;
    peakRss = 0;
  }, WINDOW_S * 1000);

  let finish!: (result: autocannon.Result) => void;
  const finished = new Promise<autocannon.Result>((done) => (finish = done));
  // The callback form returns the instance, whose events give each response's status and time.
  const soak = autocannon({ ...home, connections: CONNECTIONS, overallRate: rate, duration: MINUTES * 60 }, (error, result) => {
    if (error) throw error;
    finish(result);
  });
  soak.on('response', (_client, statusCode, _bytes, responseTime) => {
    requests += 1;
    if (statusCode < 200 || statusCode >= 300) errors += 1;
    latencies.push(responseTime);
  });
  soak.on('reqError', () => {
    requests += 1;
    errors += 1;
  });
  const result = await finished;
  clearInterval(closer);
  clearInterval(sampler);
  soaking = false;
  await batches;
  server.send('stop');
  await new Promise((r) => server.once('exit', r));

  const total = windows.reduce((sum, w) => sum + w.requests, 0);
  const failed = windows.reduce((sum, w) => sum + w.errors, 0);
  const perMinute = Math.max(1, Math.round(60 / WINDOW_S));
  const firstMinute = windows.slice(0, perMinute).map((w) => w.rssMb);
  const lastMinute = windows.slice(-perMinute).map((w) => w.rssMb);
  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    capacity: Math.round(capacity),
    rate,
    minutes: MINUTES,
    batchStorage: REDIS ? 'redis' : 'in-process',
    retentionMs: Number(RETENTION_MS),
    connections: CONNECTIONS,
    requests: total,
    errorRate: total ? failed / total : 0,
    p99Overall: result.latency.p99,
    p50Overall: result.latency.p50,
    rssFirstMinuteMb: median(firstMinute),
    rssLastMinuteMb: median(lastMinute),
    batchJobsCompleted: jobs.length,
    batchItemsDone,
    batchItemsPerSecondMedian: Math.round(median(jobs.map((j) => j.itemsPerSecond))),
  };
  writeFileSync(`${OUT}.json`, `${JSON.stringify({ summary, windows }, null, 1)}\n`);
  writeFileSync(`${OUT}.svg`, await plot(windows));
  console.log(JSON.stringify(summary, null, 1));
  console.log(`\n| minute | requests | errors | p50 ms | p99 ms | peak RSS MB | batch items done |\n|---:|---:|---:|---:|---:|---:|---:|`);
  for (let m = 0; m * perMinute < windows.length; m++) {
    const ws = windows.slice(m * perMinute, (m + 1) * perMinute);
    const lat = ws.map((w) => w.p99);
    console.log(`| ${m + 1} | ${ws.reduce((s, w) => s + w.requests, 0)} | ${ws.reduce((s, w) => s + w.errors, 0)} | ${median(ws.map((w) => w.p50))} | ${Math.max(...lat)} | ${Math.max(...ws.map((w) => w.rssMb))} | ${ws[ws.length - 1].batchItemsDone} |`);
  }
}

/** Three panels over time: p99 latency, peak RSS, errors per request. */
function plot(windows: readonly Window[]): Promise<string> {
  const rows = windows.flatMap((w) => [
    { minute: w.t / 60, measure: 'p99 latency (ms)', value: w.p99 },
    { minute: w.t / 60, measure: 'server RSS (MB)', value: w.rssMb },
    { minute: w.t / 60, measure: 'error rate (%)', value: w.requests ? (100 * w.errors) / w.requests : 0 },
  ]);
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    data: { values: rows },
    facet: { row: { field: 'measure', type: 'nominal', title: null, sort: ['p99 latency (ms)', 'server RSS (MB)', 'error rate (%)'] } },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 560,
      height: 110,
      mark: { type: 'line', point: false },
      encoding: {
        x: { field: 'minute', type: 'quantitative', title: 'minutes into the soak' },
        y: { field: 'value', type: 'quantitative', title: null, scale: { zero: true } },
      },
    },
  };
  return renderSvg(spec, []);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
