/**
 * Issue 37's number: a full fake-site run of 20,000 listings (10,000 uybor, 6,000 olx, 4,000
 * avtoelon) with the politeness delay at 0 ingests in under 2 minutes of wall time, in under 300 MB
 * of RSS. Run: `npx tsc -p tsconfig.json && node dist/bench/collect/run.js` (docs/BENCHMARKS.md).
 */
import { cpus } from 'node:os';
import { measureCollectRun } from './measure';

async function main(): Promise<void> {
  const result = await measureCollectRun({ uybor: 10_000, olx: 6_000, avtoelon: 4_000 });
  process.stdout.write(`${JSON.stringify({ ...result, node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, date: new Date().toISOString() }, null, 2)}\n`);
  const ok = result.stored === result.listings && result.wallMs < 120_000 && result.peakRssMb < 300;
  process.stdout.write(`${ok ? 'PASS' : 'FAIL'}: ${result.stored}/${result.listings} stored in ${(result.wallMs / 1000).toFixed(1)} s, peak RSS ${result.peakRssMb} MB (limits 120 s, 300 MB)\n`);
  if (!ok) process.exitCode = 1;
}

void main();
