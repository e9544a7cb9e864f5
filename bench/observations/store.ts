/**
 * bench/observations/store: what recording 10,000 observations costs in each observation store
 * (issue 18's target is 10,000 recorded in under 2 s end to end, of which the store must be a
 * small part). Appends 10,000 records to a fresh store in calls of 1,000 and in one call of
 * 10,000, five runs each, and prints the medians, with a read of them all back for scale.
 * Usage: npx tsc -p tsconfig.json && node dist/bench/observations/store.js [--records 10000] [--runs 5] [--only memory|file|redis]
 * File: a fresh temporary directory per run (fsync per call, on whatever disk holds the temp dir).
 * Redis: REDIS_URL (default redis://127.0.0.1:6379); keys go under a fresh prefix, deleted afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { median } from '../../models/ensemble/metrics';
import { createObservationRedisClient, FileObservationStore, RedisObservationStore, type ObservationStore, type StoredObservation } from '../../subgraphs/common/observation-store';
import { option } from '../cli';

type Kind = 'memory' | 'file' | 'redis';

const RECORDS = Number(option('records', '10000'));
const RUNS = Number(option('runs', '5'));
const ONLY = option('only');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DISTRICTS = ['Chilonzor', 'Yunusobod', 'Mirzo Ulugbek', 'Yakkasaroy', 'Shayxontohur', 'Olmazor'];

/** A home observation as the service will store it: input, groups and the base model's scores. */
function record(run: number, index: number): StoredObservation {
  const district = DISTRICTS[index % DISTRICTS.length];
  return {
    id: `obs_${run}_${String(index).padStart(6, '0')}`,
    kind: 'home',
    observedAt: `2024-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`,
    recordedAt: '2024-12-01T09:30:00.000Z',
    priceUsd: 40_000 + (index % 500) * 150,
    priceType: 'sale',
    reference: `LOAN-${1_000_000 + index}`,
    input: { district, rooms: 1 + (index % 5), area: 35 + (index % 90), floor: 1 + (index % 12), floors: 12, buildYear: 1975 + (index % 45), renovation: 'euro', lat: 41.3 + (index % 100) / 1000, lon: 69.2 + (index % 100) / 1000 },
    groups: { district, segment: index % 3 === 0 ? 'new-build' : 'secondary' },
    base: { estimate: 41_000 + (index % 500) * 148, low: 36_000, high: 48_000, coverage: 0.8, modelVersion: 'residential-2024.11' },
  };
}

interface Opened {
  store: ObservationStore;
  cleanUp(): Promise<void>;
}

async function open(kind: Kind): Promise<Opened> {
  if (kind === 'memory') return { store: await FileObservationStore.open({ directory: null }), cleanUp: async () => undefined };
  if (kind === 'file') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-observations-'));
    return { store: await FileObservationStore.open({ directory: join(dir, 'store') }), cleanUp: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const client = createObservationRedisClient(REDIS_URL);
  await client.connect();
  const keyPrefix = `bench:observations:${randomBytes(4).toString('hex')}:`;
  return {
    store: new RedisObservationStore(client, { keyPrefix, onClose: () => client.close() }),
    cleanUp: async () => {
      const admin = createClient({ url: REDIS_URL });
      await admin.connect();
      const keys: string[] = [];
      for await (const batch of admin.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 })) keys.push(...batch);
      if (keys.length > 0) await admin.del(keys);
      await admin.close();
    },
  };
}

/** One run: append RECORDS in calls of `callSize` to a fresh store, then read them all back. */
async function run(kind: Kind, callSize: number, runIndex: number): Promise<{ appendMs: number; listMs: number }> {
  const records = Array.from({ length: RECORDS }, (_, index) => record(runIndex, index));
  const { store, cleanUp } = await open(kind);
  try {
    const started = performance.now();
    for (let at = 0; at < records.length; at += callSize) await store.append('bank-1', 'home', records.slice(at, at + callSize));
    const appended = performance.now();
    const listed = await store.list('bank-1', 'home');
    const read = performance.now();
    if (listed.length !== RECORDS) throw new Error(`read back ${listed.length} of ${RECORDS}`);
    return { appendMs: appended - started, listMs: read - appended };
  } finally {
    await store.close();
    await cleanUp();
  }
}

async function main(): Promise<void> {
  const kinds: Kind[] = ONLY ? [ONLY as Kind] : ['memory', 'file', 'redis'];
  console.log(`${RECORDS} records, median of ${RUNS} runs (ms); Node ${process.version}`);
  console.log('store   calls of   append   list all');
  for (const kind of kinds) {
    for (const callSize of [1_000, 10_000]) {
      await run(kind, callSize, -1); // warm-up, not counted
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await run(kind, callSize, i));
      const appendMs = median(runs.map((one) => one.appendMs));
      const listMs = median(runs.map((one) => one.listMs));
      console.log(`${kind.padEnd(7)} ${String(callSize).padStart(8)} ${appendMs.toFixed(1).padStart(8)} ${listMs.toFixed(1).padStart(10)}`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
