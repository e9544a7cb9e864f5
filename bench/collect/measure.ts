/**
 * A full collecting run against the local fake site (test/collect/support/fake-site.ts), measured:
 * the fake site serves `sizes` listings in this process; the collector runs in a child process
 * (./collector-child.ts) so its peak RSS is its own. Used by ./run.ts (20,000 listings) and by
 * test/collect/scale.test.ts (a smaller size).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeSite } from '../../test/collect/support/fake-site';
import { fakeCar, olxFlat, uyborFlat } from '../../test/collect/support/listings';

export interface CollectBenchSizes {
  uybor: number;
  olx: number;
  avtoelon: number;
}

export interface CollectBenchResult {
  listings: number;
  wallMs: number;
  peakRssMb: number;
  stored: number;
  runs: { site: string; status: string; pages: number; listings: number; requests: number }[];
}

export async function measureCollectRun(sizes: CollectBenchSizes): Promise<CollectBenchResult> {
  const site = await new FakeSite().start();
  const directory = mkdtempSync(join(tmpdir(), 'collect-bench-'));
  try {
    site.uybor = Array.from({ length: sizes.uybor }, (_, n) => uyborFlat(n));
    // Prices spread so that olx's query must be split into price bands under its 1,000-offset limit.
    site.olx = Array.from({ length: sizes.olx }, (_, n) => olxFlat(n, 20_000 + n * 37));
    site.cars = Array.from({ length: sizes.avtoelon }, (_, n) => fakeCar(n));
    const sites = (['uybor', 'olx', 'avtoelon'] as const).filter((s) => sizes[s] > 0);
    const child = spawn(process.execPath, [join(__dirname, 'collector-child.js'), site.baseUrl, directory, sites.join(',')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`the collector exited with ${code}`);
    return { listings: sizes.uybor + sizes.olx + sizes.avtoelon, ...(JSON.parse(out.trim()) as Omit<CollectBenchResult, 'listings'>) };
  } finally {
    await site.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}
