/**
 * bench/batch/upload-memory: what a streamed CSV upload costs the gateway process in memory.
 * A child process runs the service (gateway + subgraphs, all in one; jobs in Redis, BATCH_WORKERS=0
 * so nothing is valued meanwhile) and samples its own memory every 20 ms; this process uploads
 * generated CSV files to POST /api/batch with an enterprise key, the body streamed from a generator
 * (fetch with a ReadableStream body, duplex: 'half'), so neither side ever holds a whole file.
 * Per upload: rows, MB sent, time to the 202, and the service's peak RSS and heap during the upload
 * against its level just before. Not a timed test: numbers for docs/BENCHMARKS.md.
 * Usage: npm run build && node dist/bench/batch/upload-memory.js [--rows 100000,1000000] [--json 100000]
 *        [--old-space MB] (the service's --max-old-space-size: an upload that held its rows would not fit)
 *   --json N also submits N items as one JSON body (read whole: the path kept for JSON), for contrast.
 * "heap after GC" is read once the 202 is in, garbage collected first: what the upload left behind.
 * Needs Redis at REDIS_URL (default redis://127.0.0.1:6379); its keys go under a fresh prefix, deleted at the end.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { option } from '../cli';

const ROW_COUNTS = option('rows', '100000,1000000').split(',').map(Number);
const JSON_ITEMS = Number(option('json', '0'));
const OLD_SPACE_MB = option('old-space');
const HEADER = 'address,area,rooms,floor,total_floors,renovation,mebel,sanuzel';
const DISTRICTS = ['Chilonzor tumani', 'Yunusobod tumani', "Mirzo Ulug'bek tumani", 'Sergeli tumani', 'Yakkasaroy tumani', 'Uchtepa tumani'];

/** Item i of the generated portfolio: an address with a house number, and a flat (REST names). */
function item(i: number) {
  const address = `${DISTRICTS[i % DISTRICTS.length]}, ${1 + (i % 19)}-kvartal, ${1 + (i % 97)}-uy`;
  return { address, home: { area: 35 + (i % 90), rooms: 1 + (i % 4), floor: 1 + (i % 9), total_floors: 9, renovation: 'Evro', mebel: 'ha', sanuzel: 'alohida' } };
}

/** Item i as a CSV row under HEADER (about 70 bytes). */
function row(i: number): string {
  const { address, home } = item(i);
  return `"${address}",${home.area},${home.rooms},${home.floor},${home.total_floors},${home.renovation},${home.mebel},${home.sanuzel}`;
}

/** The CSV of `rows` rows as a stream of ~64 KB slices, made as it is read; counts the bytes it gives. */
function csvStream(rows: number, sent: { bytes: number }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = -1; // the header first
  return new ReadableStream({
    pull(controller) {
      if (next >= rows) return controller.close();
      let text = '';
      if (next < 0) {
        text = `${HEADER}\n`;
        next = 0;
      }
      const end = Math.min(rows, next + 900);
      for (; next < end; next++) text += `${row(next)}\n`;
      const bytes = encoder.encode(text);
      sent.bytes += bytes.length;
      controller.enqueue(bytes);
    },
  });
}

// ---- the service, in a child process ----------------------------------------------------------
interface Peaks {
  rss: number;
  heapUsed: number;
}
interface Sampled {
  before: Peaks;
  peak: Peaks;
  /** Heap used once garbage is collected after the upload. */
  retained: number;
}
type ToService = { type: 'start-sampling' } | { type: 'stop-sampling' } | { type: 'close' };
type FromService = { type: 'ready'; url: string; key: string } | ({ type: 'peaks' } & Sampled) | { type: 'closed' };

async function serve(): Promise<void> {
  const { gatewayConfigFromEnv } = await import('../../gateway/config');
  const { startStack } = await import('../../gateway/stack');
  const stack = await startStack({ gateway: { ...gatewayConfigFromEnv(), host: '127.0.0.1', port: 0, redisUrl: process.env.REDIS_URL }, log: () => undefined });
  const key = stack.gateway.keys.create({ org: 'bench-upload', plan: 'enterprise' }).key;
  const send = (message: FromService) => process.send!(message);
  let sampler: NodeJS.Timeout | undefined;
  let before: Peaks = { rss: 0, heapUsed: 0 };
  let peak: Peaks = { rss: 0, heapUsed: 0 };
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peak = { rss: Math.max(peak.rss, rss), heapUsed: Math.max(peak.heapUsed, heapUsed) };
  };
  process.on('message', async (message: ToService) => {
    if (message.type === 'start-sampling') {
      global.gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      before = { rss, heapUsed };
      peak = { ...before };
      sampler = setInterval(sample, 20);
    } else if (message.type === 'stop-sampling') {
      clearInterval(sampler);
      sample();
      global.gc?.();
      send({ type: 'peaks', before, peak, retained: process.memoryUsage().heapUsed });
    } else {
      await stack.close();
      send({ type: 'closed' });
      process.exit(0);
    }
  });
  send({ type: 'ready', url: stack.gateway.url, key });
}

class Service {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly key: string,
  ) {}

  static start(env: NodeJS.ProcessEnv): Promise<Service> {
    const execArgv = ['--expose-gc', ...(process.env.SERVICE_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVICE_CPU_PROF}`] : []), ...(OLD_SPACE_MB ? [`--max-old-space-size=${OLD_SPACE_MB}`] : [])];
    const child = fork(__filename, ['--serve'], { env, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('message', (message: FromService) => {
        if (message.type === 'ready') resolve(new Service(child, message.url, message.key));
      });
      child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
    });
  }

  private ask<T extends FromService['type']>(message: ToService, answer: T): Promise<Extract<FromService, { type: T }>> {
    return new Promise((resolve) => {
      const onMessage = (reply: FromService) => {
        if (reply.type !== answer) return;
        this.child.off('message', onMessage);
        resolve(reply as Extract<FromService, { type: T }>);
      };
      this.child.on('message', onMessage);
      this.child.send(message);
    });
  }

  startSampling(): void {
    this.child.send({ type: 'start-sampling' } satisfies ToService);
  }

  stopSampling() {
    return this.ask({ type: 'stop-sampling' }, 'peaks');
  }

  async close(): Promise<void> {
    await this.ask({ type: 'close' }, 'closed');
  }
}

// ---- the uploads -------------------------------------------------------------------------------
interface Row {
  what: string;
  rows: number;
  sentMb: number;
  seconds: number;
  status: number;
  total: number;
  sampled: Sampled;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

async function measure(service: Service, what: string, rows: number, send: (sent: { bytes: number }) => Promise<Response>): Promise<Row> {
  const sent = { bytes: 0 };
  service.startSampling();
  await new Promise((resolve) => setTimeout(resolve, 200)); // the baseline is read, sampling runs
  const t0 = performance.now();
  const response = await send(sent);
  const body = (await response.json()) as { id?: string; total?: number };
  const seconds = (performance.now() - t0) / 1000;
  const sampled = await service.stopSampling();
  const { before, peak } = sampled;
  if (response.status !== 202 || !body.id) throw new Error(`${what}: answered ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  // Nothing values the job (no workers): cancel it, so that its items leave Redis.
  await fetch(`${service.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': service.key }, body: JSON.stringify({ query: `mutation { cancelBatch(id: "${body.id}") { status } }` }) });
  const result = { what, rows, sentMb: mb(sent.bytes), seconds, status: response.status, total: body.total ?? 0, sampled };
  console.error(`${what}: ${rows} rows, ${result.sentMb.toFixed(1)} MB in ${seconds.toFixed(1)} s → ${response.status}, total ${result.total}; RSS ${mb(before.rss).toFixed(0)} → peak ${mb(peak.rss).toFixed(0)} MB, heap ${mb(before.heapUsed).toFixed(0)} → peak ${mb(peak.heapUsed).toFixed(0)} MB, ${mb(sampled.retained).toFixed(0)} MB after GC`);
  return result;
}

async function main(): Promise<void> {
  const prefix = `bench-upload-${randomBytes(4).toString('hex')}:`;
  const env = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    APOLLO_TELEMETRY_DISABLED: '1',
    VALUATION_HOME: mkdtempSync(join(tmpdir(), 'bench-upload-')),
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    BATCH_WORKERS: '0',
    BATCH_KEY_PREFIX: prefix,
  };
  const service = await Service.start(env);
  const rows: Row[] = [];
  try {
    const upload = (count: number) => (sent: { bytes: number }) =>
      fetch(`${service.url}/api/batch`, { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': service.key }, body: csvStream(count, sent), duplex: 'half' } as RequestInit);
    await measure(service, 'warm-up (CSV, not reported)', 20_000, upload(20_000));
    for (const count of ROW_COUNTS) rows.push(await measure(service, 'CSV, streamed', count, upload(count)));
    if (JSON_ITEMS > 0) {
      const json = JSON.stringify({ items: Array.from({ length: JSON_ITEMS }, (_, i) => item(i)) });
      rows.push(await measure(service, 'JSON, read whole (submitBatch)', JSON_ITEMS, async (sent) => {
        sent.bytes = Buffer.byteLength(json);
        return fetch(`${service.url}/api/batch`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': service.key }, body: json });
      }));
    }
  } finally {
    await service.close();
    await cleanRedis(env.REDIS_URL, prefix);
  }
  console.log(`\nnode ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${new Date().toISOString()}, service old space ${OLD_SPACE_MB ? `${OLD_SPACE_MB} MB` : 'unbounded (V8 default)'}\n`);
  console.log('| upload | rows | MB sent | s to the 202 | rows/s | RSS before → peak MB | heap used before → peak MB | heap after GC MB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const { what, rows: count, sentMb, seconds, sampled: { before, peak, retained } } of rows) {
    console.log(`| ${what} | ${count.toLocaleString('en')} | ${sentMb.toFixed(1)} | ${seconds.toFixed(1)} | ${Math.round(count / seconds).toLocaleString('en')} | ${mb(before.rss).toFixed(0)} → ${mb(peak.rss).toFixed(0)} | ${mb(before.heapUsed).toFixed(0)} → ${mb(peak.heapUsed).toFixed(0)} | ${mb(retained).toFixed(0)} |`);
  }
}

async function cleanRedis(url: string, prefix: string): Promise<void> {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
  await client.quit();
}

if (process.argv.includes('--serve')) {
  serve().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
