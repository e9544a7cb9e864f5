/**
 * The benchmark's server process: the whole service (all-in-one) plus the ceiling, a bare
 * node:http handler doing the same valuation in process (JSON → normalise → ONNX → JSON).
 * It reports its URLs to the parent over IPC, so the load generator runs in another process.
 */
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const home = mkdtempSync(join(tmpdir(), 'bench-rest-home-'));
process.env.VALUATION_HOME = home;
process.env.APOLLO_TELEMETRY_DISABLED = '1';
process.env.NODE_ENV ??= 'production'; // as the entry points run (platform/production-mode.ts)
// A plan no benchmark can exhaust, so quotas are counted but never refuse.
process.env.PLANS_FILE = join(home, 'plans.json');
writeFileSync(process.env.PLANS_FILE, JSON.stringify({ bench: { quota: { perMinute: 1_000_000_000, perDay: 1_000_000_000 }, valuations: { perMinute: 1_000_000_000, perDay: 1_000_000_000 }, maxBatchItems: Number(process.env.BENCH_MAX_BATCH_ITEMS ?? 1000), batchItemsPerDay: 1_000_000_000 } }));

async function main(): Promise<void> {
  // Imported after the environment is set: the plans and key store read it at load.
  const { gatewayConfigFromEnv } = await import('../../gateway/config');
  const { startStack } = await import('../../gateway/stack');
  const { parseHomeRestBody } = await import('../../schema/home-rest');
  const { apartmentRequest, normaliseHomeInput } = await import('../../models/residential/request');
  const { ResidentialModelSet } = await import('../../models/residential/runtime');
  const { currentVersion } = await import('../../models/residential/manifest');

  const stack = await startStack({ gateway: { ...gatewayConfigFromEnv(), host: '127.0.0.1', port: 0, redisUrl: process.env.BENCH_REDIS_URL } });
  const key = stack.gateway.keys.create({ org: 'bench', plan: 'bench' }).key;
  // A second organisation, for benches comparing two (bench/observations/service: with and without observations).
  const otherKey = stack.gateway.keys.create({ org: 'bench-other', plan: 'bench' }).key;

  const runtime = await ResidentialModelSet.load(currentVersion()!);
  const bare = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', async () => {
      const input = normaliseHomeInput(parseHomeRestBody(JSON.parse(Buffer.concat(chunks).toString())).input as never);
      const [value] = await runtime.value([apartmentRequest(input.request)]);
      const body = JSON.stringify({ ...value, location: input.location, valued_at: new Date().toISOString(), warnings: input.warnings });
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const address = bare.address();
  process.send!({
    bare: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`,
    subgraph: stack.residential.url,
    gateway: stack.gateway.url,
    internalToken: stack.internalToken,
    key,
    otherKey,
  });
  process.on('message', async (message) => {
    if (message === 'stop') {
      bare.close();
      await stack.close();
      process.exit(0);
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
