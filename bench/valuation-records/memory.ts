/**
 * Redis memory per valuation record (issue 19): N real home valuations (the model in service, a
 * spread of flats over the districts) recorded as the service records them, in calls of 100, into
 * a private key prefix of the Redis at REDIS_URL (default 127.0.0.1:6379); memory read from INFO
 * before and after, and per key with MEMORY USAGE. The keys are deleted at the end.
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/valuation-records/memory.js [--records 20000]
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createClient } from 'redis';
import { DISTRICT_IDS, DISTRICT_NAMES } from '../../models/vocabulary';
import { currentVersion, RESIDENTIAL_DIR } from '../../models/residential/manifest';
import { normaliseHomeInput } from '../../models/residential';
import { ResidentialModelSet } from '../../models/residential/runtime';
import { newRecordId, RedisRecordStore, type ValuationRecord } from '../../subgraphs/common/valuation-records';
import { option } from '../cli';

async function main(): Promise<void> {
  const n = Number(option('records', '20000'));
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const runtime = await ResidentialModelSet.load(currentVersion()!, RESIDENTIAL_DIR);
  const inputs = Array.from({ length: 200 }, (_, i) => normaliseHomeInput({ district: DISTRICT_NAMES[DISTRICT_IDS[i % 12]], area: 35 + (i % 90), rooms: 1 + (i % 4), floor: 1 + (i % 9), totalFloors: 9 + (i % 8), market: i % 2 ? 'resale' : 'new' }));
  const values = await runtime.value(inputs.map((x) => x.request as Parameters<typeof runtime.value>[0][number]));
  await runtime.close();
  const client = createClient({ url });
  await client.connect();
  const prefix = `bench:valuations:${randomBytes(4).toString('hex')}:`;
  const store = new RedisRecordStore(client, { keyPrefix: prefix });
  const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
  const before = await used();
  let json = 0;
  let gzip = 0;
  const started = Date.now();
  for (let done = 0; done < n; done += 100) {
    const now = Date.now();
    const records: ValuationRecord[] = Array.from({ length: Math.min(100, n - done) }, (_, j) => {
      const i = (done + j) % inputs.length;
      const id = newRecordId(now);
      const valuation = { ...values[i], location: inputs[i].location, valuedAt: new Date(now).toISOString(), warnings: [], marketAdjustment: null, exchangeRate: null, valuationId: id };
      return { id, kind: 'home', createdAt: new Date(now).toISOString(), keepUntil: '2029-11-24', requestId: randomBytes(16).toString('hex'), input: { request: inputs[i].request, location: inputs[i].location }, valuation };
    });
    for (const r of records) {
      const text = JSON.stringify(r);
      json += Buffer.byteLength(text);
      gzip += gzipSync(text).length;
    }
    await store.append('bench-org', records);
  }
  const seconds = (Date.now() - started) / 1000;
  const after = await used();
  const keys = [`${prefix}ids:bench-org`, `${prefix}rec:bench-org`, `${prefix}expiry`];
  const perKey = await Promise.all(keys.map(async (k) => [k.slice(prefix.length), Number(await client.memoryUsage(k, { SAMPLES: 0 }))] as const));
  console.log(`# Valuation records in Redis (node ${process.version}, ${new Date().toISOString()}, ${n.toLocaleString('en')} home records)`);
  console.log(`record JSON: ${(json / n).toFixed(0)} bytes on average; gzip'd as stored: ${(gzip / n).toFixed(0)} bytes`);
  console.log(`used_memory grew by ${((after - before) / n).toFixed(0)} bytes a record (${((after - before) / 2 ** 20).toFixed(1)} MiB)`);
  for (const [key, bytes] of perKey) console.log(`MEMORY USAGE ${key}: ${(bytes / n).toFixed(0)} bytes a record`);
  console.log(`appended in calls of 100: ${(n / seconds).toFixed(0)} records/s`);
  for (const k of keys) await client.del(k);
  await client.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
