/**
 * bench/batch-engine: 200,000 trivial items through the batch engine, in-process and on Redis
 * (BullMQ on node-redis), each run in a fresh child process so that its peak RSS is its own. Items
 * are made lazily as submit() reads them and results are counted as they stream back, so peak RSS
 * shows what the engine holds. A third run keeps the same items and results in arrays, for scale.
 * Usage: npx tsc -p tsconfig.json --outDir .build/engine && node .build/engine/bench/batch-engine.js
 *          [--items 200000] [--chunk 1000] [--concurrency 4] [--only in-process|redis|arrays]
 * Redis: REDIS_URL (default redis://127.0.0.1:6379); keys go under a fresh prefix, deleted afterwards.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { createBatchEngine, type ChunkProcessor, type ItemResult } from '../platform/batch-engine';
import { flag, option } from './cli';

type Mode = 'in-process' | 'redis' | 'arrays';

interface RunReport {
  mode: Mode;
  items: number;
  /** submit() start to the job's end. */
  processMs: number;
  /** Reading every result back. */
  resultsMs: number;
  baselineRssMb: number;
  peakRssMb: number;
  /** Heap and Buffers still held once the job is read back, after a full GC: what the run keeps. */
  retainedMb: number;
}

const ITEMS = Number(option('items', '200000'));
const CHUNK = Number(option('chunk', '1000'));
const CONCURRENCY = Number(option('concurrency', '4'));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function item(index: number) {
  return { address: `Chilonzor ${index % 25}-kvartal, ${index}-uy`, home: { rooms: 1 + (index % 5), area: 40 + (index % 80) } };
}

async function* items(count: number) {
  for (let index = 0; index < count; index++) yield item(index);
}

const echo: ChunkProcessor = async (chunk, context) =>
  chunk.map((value, position): ItemResult => ({ index: context.firstIndex + position, ok: true, result: { echo: value, square: (context.firstIndex + position) ** 2 } }));

/** Samples RSS every 10 ms; the kernel's own peak (maxRSS) is taken as well, whichever is higher. */
function rssPeakTracker() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.resourceUsage().maxRSS * 1024);
  };
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Heap plus Buffers after a full GC (the bench runs with --expose-gc). */
function retainedBytes(): number {
  global.gc?.();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/**
 * Measures one run. `run` calls `ended()` once the job has ended, reads every result back, and
 * returns what it must keep alive until the memory it holds has been measured.
 */
async function measured(mode: Mode, run: (ended: () => void) => Promise<unknown>): Promise<RunReport> {
  const baselineRetained = retainedBytes();
  const baseline = process.memoryUsage().rss;
  const peak = rssPeakTracker();
  const started = Date.now();
  let endedAt = started;
  const kept = await run(() => (endedAt = Date.now()));
  const readAt = Date.now();
  const peakRss = peak();
  const retained = retainedBytes() - baselineRetained;
  if (kept === null) throw new Error('unreachable'); // holds `kept` until after the measurement
  return {
    mode,
    items: ITEMS,
    processMs: endedAt - started,
    resultsMs: readAt - endedAt,
    baselineRssMb: mb(baseline),
    peakRssMb: mb(peakRss),
    retainedMb: mb(retained),
  };
}

async function runEngine(mode: 'in-process' | 'redis'): Promise<RunReport> {
  const keyPrefix = `bench:batch:${randomBytes(4).toString('hex')}:`;
  const engine = await createBatchEngine({ redisUrl: mode === 'redis' ? REDIS_URL : '', keyPrefix });
  await engine.startWorker({ processChunk: echo, concurrency: CONCURRENCY });
  const report = await measured(mode, async (ended) => {
    const job = await engine.submit('bench', items(ITEMS), { chunkSize: CHUNK });
    for await (const event of engine.progress('bench', job.id)) if (event.final && event.status !== 'completed') throw new Error(`job ${event.status}`);
    ended();
    let inOrder = 0;
    for await (const result of engine.results('bench', job.id)) if (result.index === inOrder) inOrder++;
    if (inOrder !== ITEMS) throw new Error(`read ${inOrder} results in order, expected ${ITEMS}`);
  });
  await engine.close();
  if (mode === 'redis') await deleteKeys(keyPrefix);
  return report;
}

/** The same data as plain arrays: what holding a whole job in memory costs. */
function runArrays(): Promise<RunReport> {
  return measured('arrays', async (ended) => {
    const all: unknown[] = [];
    for await (const value of items(ITEMS)) all.push(value);
    const results: ItemResult[] = [];
    for (let first = 0; first < ITEMS; first += CHUNK) {
      const context = { jobId: 'arrays', organisation: 'bench', chunkIndex: first / CHUNK, firstIndex: first, attempt: 1 };
      results.push(...(await echo(all.slice(first, first + CHUNK), context)));
    }
    ended();
    if (results.filter((result, index) => result.index === index).length !== ITEMS) throw new Error('arrays run is wrong');
    return [all, results];
  });
}

async function deleteKeys(prefix: string): Promise<void> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) if (keys.length > 0) await client.del(keys);
  await client.close();
}

function runChild(mode: Mode): Promise<RunReport> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [...process.argv.slice(2), '--child', mode], { execArgv: ['--expose-gc'] });
    child.once('message', (report: RunReport) => resolve(report));
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`${mode} run exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const childMode = flag('child') ? (option('child', '') as Mode) : undefined;
  if (childMode) {
    const report = childMode === 'arrays' ? await runArrays() : await runEngine(childMode);
    process.send?.(report, () => process.exit(0));
    return;
  }
  const only = option('only', '');
  const modes = (['in-process', 'redis', 'arrays'] as const).filter((mode) => !only || mode === only);
  console.log(`${ITEMS.toLocaleString('en')} items, chunks of ${CHUNK}, worker concurrency ${CONCURRENCY}\n`);
  console.log('adapter      submit→completed   items/s   results read   results/s   RSS before   peak RSS   retained');
  for (const mode of modes) {
    const r = await runChild(mode);
    const perSecond = (ms: number) => Math.round((r.items / Math.max(ms, 1)) * 1000).toLocaleString('en');
    console.log(
      `${r.mode.padEnd(12)} ${`${(r.processMs / 1000).toFixed(2)} s`.padStart(16)} ${perSecond(r.processMs).padStart(9)} ` +
        `${`${(r.resultsMs / 1000).toFixed(2)} s`.padStart(14)} ${perSecond(r.resultsMs).padStart(11)} ` +
        `${`${r.baselineRssMb} MB`.padStart(12)} ${`${r.peakRssMb} MB`.padStart(10)} ${`${r.retainedMb} MB`.padStart(10)}`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
