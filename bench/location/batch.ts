/**
 * Location index speed: one score and 10,000 scores in the library, and locationIndexes for
 * 10,000 points through the gateway (GraphQL over HTTP, composite and nine subindex scores).
 * Run: npm run build && node dist/bench/location/batch.js
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

process.env.NODE_ENV ??= 'production'; // as the entry points run (platform/production-mode.ts)
process.env.APOLLO_TELEMETRY_DISABLED = '1';
process.env.VALUATION_HOME = mkdtempSync(join(tmpdir(), 'bench-location-'));

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const { LocationIndex } = await import('../../models/location');
  const { gatewayConfigFromEnv } = await import('../../gateway/config');
  const { startStack } = await import('../../gateway/stack');

  // A grid over the city centre and its ring: every point lies inside a district.
  const points = Array.from({ length: 10_000 }, (_, i) => ({ lat: 41.26 + (i % 100) * 0.0008, lon: 69.2 + Math.floor(i / 100) * 0.0012 }));
  const index = LocationIndex.load();
  for (let i = 0; i < 3; i++) index.scoreMany(points);
  const one: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const p = points[i];
    const t = performance.now();
    index.score(p.lat, p.lon);
    one.push(performance.now() - t);
  }
  const many: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    index.scoreMany(points);
    many.push(performance.now() - t);
  }

  const stack = await startStack({ gateway: { ...gatewayConfigFromEnv(), host: '127.0.0.1', port: 0 } });
  const key = stack.gateway.keys.create({ org: 'bench', plan: 'enterprise' }).key;
  const body = JSON.stringify({
    query: 'query($p: [PointInput!]!) { locationIndexes(points: $p) { index result { composite { score } subindexes { id score coverage } } error { code } } }',
    variables: { p: points },
  });
  const viaGateway: number[] = [];
  for (let i = 0; i < 6; i++) {
    const t = performance.now();
    const response = await fetch(`${stack.gateway.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body });
    const result = (await response.json()) as { data?: { locationIndexes: unknown[] }; errors?: unknown };
    if (!result.data || result.data.locationIndexes.length !== points.length) throw new Error(`unexpected reply: ${JSON.stringify(result.errors)}`);
    if (i > 0) viaGateway.push(performance.now() - t); // the first call warms the caches
  }
  await stack.close();

  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  console.log('| measure | median |');
  console.log('|---|---:|');
  console.log(`| one score (library) | ${(median(one) * 1000).toFixed(1)} µs |`);
  console.log(`| 10,000 scores, scoreMany (library) | ${median(many).toFixed(0)} ms |`);
  console.log(`| locationIndexes, 10,000 points through the gateway (HTTP, composite + 9 subindexes) | ${median(viaGateway).toFixed(0)} ms |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
