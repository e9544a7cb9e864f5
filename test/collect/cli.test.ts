/**
 * Issue 37, items 2 and 5: the CLI as a bank runs it (`npm run collect -- …` is `node
 * dist/platform/collect/cli.js …`), against the fake site through the COLLECT_* variables: a
 * `--site uybor --once` run printing its progress, `--status`, and `--from-dir`.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../models/paths';
import { FakeSite } from './support/fake-site';
import { uyborFlat } from './support/listings';

const run = promisify(execFile);
const CLI = join(PROJECT_ROOT, 'dist', 'platform', 'collect', 'cli.js');

describe('npm run collect', () => {
  let site: FakeSite;
  let directory: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    site = await new FakeSite().start();
    site.uybor = Array.from({ length: 230 }, (_, n) => uyborFlat(n));
    directory = mkdtempSync(join(tmpdir(), 'collect-cli-'));
    env = { ...process.env, COLLECT_DIR: join(directory, 'store'), COLLECT_UYBOR_BASE: site.baseUrl, COLLECT_MIN_INTERVAL_MS: '0', REDIS_URL: '' };
  });
  afterAll(async () => {
    await site.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('--site uybor --once runs one site with progress lines, then --status counts what it stored', async () => {
    const once = await run(process.execPath, [CLI, '--site', 'uybor', '--once'], { env });
    expect(once.stderr).toContain('uybor: page 1, 100 listings of ~230, 0 skipped, 2 requests; next: category 7 page 2');
    expect(once.stderr).toMatch(/uybor: completed: 4 pages, 230 listings, 5 requests/);
    expect(new Set(site.requests.map((r) => r.userAgent))).toEqual(new Set([expect.stringMatching(/^TashkentValuationCollector\/0\.1 \(/)]));
    const status = JSON.parse((await run(process.execPath, [CLI, '--status'], { env })).stdout) as { listings: number; active: number };
    expect(status).toMatchObject({ listings: 230, active: 230 });
  });

  it('--from-dir ingests saved answers', async () => {
    const saved = join(directory, 'saved');
    mkdirSync(saved);
    copyFileSync(join(PROJECT_ROOT, 'test', 'collect', 'fixtures', 'olx-offers.json'), join(saved, 'olx.json'));
    const ingest = await run(process.execPath, [CLI, '--from-dir', saved, '--day', '2026-06-30'], { env });
    expect(ingest.stderr).toContain('1 files, listings {"uybor":0,"olx":3,"avtoelon":0}, 1 skipped');
    const status = JSON.parse((await run(process.execPath, [CLI, '--status'], { env })).stdout) as { listings: number };
    expect(status.listings).toBe(233);
  });

  it('refuses an unknown site', async () => {
    await expect(run(process.execPath, [CLI, '--site', 'avito', '--once'], { env })).rejects.toMatchObject({ stderr: expect.stringContaining('unknown site "avito"') });
  });
});
