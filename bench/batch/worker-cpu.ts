/**
 * CPU cost of a batch worker per address, without Redis or timing noise from other processes: the
 * worker's own loop over bench-style chunks (./run.ts's addresses, 1,000 a chunk): decode the
 * stored items, the location chunk processor (geocode, score), encode the results. Measured with
 * process.cpuUsage() (CPU time of this process, all threads: GC included), which a loaded machine
 * inflates far less than wall-clock time. Also prints the heap and RSS as the job goes on.
 *
 *   node .build/perf/bench/batch/worker-cpu.js [--chunks 60] [--warm 5] [--root DIR]
 *   node .build/perf/bench/batch/worker-cpu.js --against OTHER_ROOT [--rounds 3]
 *   node --expose-gc .build/perf/bench/batch/worker-cpu.js --gc …   (memory after a full GC)
 *
 * --mix listings: the listing files' 4,000-odd distinct addresses in turn instead of ./run.ts's items
 * (few repeats: with --warm 0 the first 4 chunks are the cold-cache cost).
 * --root: the compiled tree to measure (default: this one); --against: measures this tree and
 * OTHER_ROOT (e.g. a build of the previous commit) in alternating child processes, `rounds` times
 * each, and prints both.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchAddress, listingAddresses, placeableBases } from './addresses';
import { flag, option } from '../cli';

const CHUNK = 1000;
const CHUNKS = Number(option('chunks', '60'));
const WARM = Number(option('warm', '5'));
const ROUNDS = Number(option('rounds', '3'));
/** bench: ./run.ts's items; listings: the listing files' distinct addresses as written, in turn (few repeats, some unplaceable). */
const MIX = option('mix', 'bench');
const THIS_ROOT = join(__dirname, '..', '..');
/** With --gc (and node --expose-gc), memory is read after a full collection: what is retained, not garbage not yet collected. */
const GC = flag('gc') ? (globalThis as { gc?: () => void }).gc : undefined;

interface Measured {
  root: string;
  /** CPU µs per address, each measured chunk. */
  perAddress: number[];
  /** Of which: decoding the items, the processor, encoding the results (µs per address, each chunk). */
  phases: { decode: number[]; process: number[]; encode: number[] };
  heapMb: number[];
  rssMb: number[];
}

/* eslint-disable @typescript-eslint/no-require-imports */
async function measure(root: string): Promise<Measured> {
  const from = <T>(path: string): T => require(resolve(root, path)) as T;
  const { loadGazetteer, geocode } = from<typeof import('../../models/location/geocode')>('models/location/geocode/index.js');
  const { DATA_DIR } = from<typeof import('../../models/paths')>('models/paths.js');
  const { loadLocationServices } = from<typeof import('../../subgraphs/location/services')>('subgraphs/location/services.js');
  const { createChunkProcessor } = from<typeof import('../../subgraphs/batch/processor')>('subgraphs/batch/processor.js');
  const { buildLocationSchema } = from<typeof import('../../subgraphs/location')>('subgraphs/location/index.js');
  const { createLocationContext } = from<typeof import('../../subgraphs/location/context')>('subgraphs/location/context.js');
  const { inProcessGraphClient } = from<typeof import('../../platform/graph-client')>(
    // A tree compiled before issue 36 has the graph client in subgraphs/common/.
    existsSync(resolve(root, 'platform/graph-client.js')) ? 'platform/graph-client.js' : 'subgraphs/common/graph-client.js',
  );
  const { encodeChunk, decodeChunk } = from<typeof import('../../platform/batch-engine/chunk-codec')>('platform/batch-engine/chunk-codec.js');

  const bases = MIX === 'listings' ? listingAddresses(DATA_DIR) : placeableBases(loadGazetteer(), geocode);
  const addressOf = (i: number) => (MIX === 'listings' ? bases[i % bases.length] : benchAddress(bases, i));
  // The worker's share and the location subgraph's, the latter answering in process (no socket).
  const services = loadLocationServices();
  const location = inProcessGraphClient({ schema: await buildLocationSchema(), context: () => createLocationContext(services) });
  const processChunk = createChunkProcessor({ location, residential: { request: async () => { throw new Error('no homes in this bench'); } } });
  const perAddress: number[] = [];
  const phases: Measured['phases'] = { decode: [], process: [], encode: [] };
  const perItem = (from: NodeJS.CpuUsage, to: NodeJS.CpuUsage) => (to.user - from.user + to.system - from.system) / CHUNK;
  const heapMb: number[] = [];
  const rssMb: number[] = [];
  let failed = 0;
  for (let c = 0; c < WARM + CHUNKS; c++) {
    // Stored as the API process stores it; what follows is the worker's share.
    const stored = encodeChunk(Array.from({ length: CHUNK }, (_, i) => ({ address: addressOf(c * CHUNK + i) })));
    const t0 = process.cpuUsage();
    const items = decodeChunk<unknown>(stored);
    const t1 = process.cpuUsage();
    const results = await processChunk(items, { jobId: 'cpu', organisation: 'bench', chunkIndex: c, firstIndex: c * CHUNK, attempt: 1 });
    const t2 = process.cpuUsage();
    encodeChunk(results);
    const t3 = process.cpuUsage();
    failed += results.filter((r) => !r.ok).length;
    if (c < WARM) continue;
    perAddress.push(perItem(t0, t3));
    phases.decode.push(perItem(t0, t1));
    phases.process.push(perItem(t1, t2));
    phases.encode.push(perItem(t2, t3));
    if ((c - WARM) % 10 === 9) {
      if (GC) GC();
      const memory = process.memoryUsage();
      heapMb.push(memory.heapUsed / 2 ** 20);
      rssMb.push(memory.rss / 2 ** 20);
    }
  }
  if (failed > 0 && MIX === 'bench') throw new Error(`${failed} items failed: the bench addresses should all be placed`);
  return { root, perAddress, phases, heapMb, rssMb };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / values.length;

function summary(m: Measured): string {
  const perAddress = median(m.perAddress);
  const phase = (name: keyof Measured['phases']) => `${name} ${median(m.phases[name]).toFixed(1)}`;
  return `${m.root}: ${perAddress.toFixed(1)} µs CPU per address (median of ${m.perAddress.length} chunks; mean ${mean(m.perAddress).toFixed(1)}; `
    + `${phase('decode')}, ${phase('process')}, ${phase('encode')}), i.e. ${Math.round(1e6 / perAddress)} addresses per CPU second; `
    + `heap MB every 10 chunks${GC ? ' after a full GC' : ''} ${m.heapMb.map((v) => v.toFixed(0)).join(' ')}; RSS MB ${m.rssMb.map((v) => v.toFixed(0)).join(' ')}`;
}

async function main(): Promise<void> {
  const against = option('against', '');
  if (flag('child') || !against) {
    const m = await measure(resolve(option('root', THIS_ROOT)));
    if (flag('child')) process.stdout.write(JSON.stringify(m));
    else console.log(summary(m));
    return;
  }
  const roots = [resolve(THIS_ROOT), resolve(against)];
  const runs = new Map<string, Measured[]>(roots.map((r) => [r, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const root of round % 2 === 0 ? roots : [...roots].reverse()) {
      const childArgs = [...(GC ? ['--expose-gc'] : []), __filename, '--child', '--root', root, '--chunks', String(CHUNKS), '--warm', String(WARM), '--mix', MIX, ...(GC ? ['--gc'] : [])];
      const child = spawnSync(process.execPath, childArgs, { encoding: 'utf8', maxBuffer: 1 << 26 });
      if (child.status !== 0) throw new Error(`child for ${root} failed: ${child.stderr}`);
      const m = JSON.parse(child.stdout) as Measured;
      runs.get(root)!.push(m);
      console.log(`round ${round + 1}: ${summary(m)}`);
    }
  }
  const best = roots.map((root) => median(runs.get(root)!.map((m) => median(m.perAddress))));
  console.log(`\nmedian over rounds: ${roots[0]} ${best[0].toFixed(1)} µs/address, ${roots[1]} ${best[1].toFixed(1)} µs/address (×${(best[1] / best[0]).toFixed(2)} as much CPU)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
