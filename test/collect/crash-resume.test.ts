/**
 * Issue 37, "numbers to reach": a run killed with SIGKILL mid-way loses nothing. A child process
 * crawls the fake site slowly; it is killed once its checkpoint shows a few pages stored; the next
 * run (here, in this process) resumes the same run from the page after the last one stored, and the
 * store then holds each listing exactly once.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uyborCollector } from '../../models/ingest/collectors';
import { createNormaliser } from '../../models/ingest/normaliser';
import { crawlSite, LifecycleStore, ManualClock, readCheckpoint } from '../../platform/collect';
import { fakeSiteConfig, FakeSite } from './support/fake-site';
import { uyborFlat } from './support/listings';

const LISTINGS = 3000; // 30 pages

describe('a run killed with SIGKILL', () => {
  let site: FakeSite;
  let directory: string;
  beforeAll(async () => {
    site = await new FakeSite().start();
    site.uybor = Array.from({ length: LISTINGS }, (_, n) => uyborFlat(n));
    directory = mkdtempSync(join(tmpdir(), 'collect-crash-'));
  });
  afterAll(async () => {
    await site.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('resumes from its checkpoint and stores each listing once', async () => {
    const child = spawn(process.execPath, [join(__dirname, 'support', 'crawl-child.js'), site.baseUrl, directory, '40'], { stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const deadline = Date.now() + 30_000;
    while ((readCheckpoint(directory, 'uybor')?.pages ?? 0) < 5) {
      if (Date.now() > deadline) throw new Error('the child stored no pages in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const killedAt = readCheckpoint(directory, 'uybor')!;
    expect(killedAt.pages).toBeGreaterThanOrEqual(5);
    expect(killedAt.pages).toBeLessThan(30);
    expect(existsSync(join(directory, 'run-uybor.lock'))).toBe(true); // left behind by the killed run

    const store = LifecycleStore.open(directory);
    const before = store.size;
    expect(before).toBeGreaterThanOrEqual(killedAt.pages * 100); // the journal kept every stored page
    const pagesAskedBefore = site.countRequests('/api/v1/listings');
    const result = await crawlSite({
      collector: uyborCollector({ normaliser: createNormaliser() }, [7]),
      config: fakeSiteConfig(site.baseUrl, directory),
      store,
      clock: new ManualClock(Date.now()),
    });
    expect(result).toMatchObject({ status: 'completed', resumed: true, runId: killedAt.runId, pages: 30, listings: LISTINGS });
    // The resumed run asked only the pages after the checkpoint.
    expect(site.countRequests('/api/v1/listings') - pagesAskedBefore).toBe(30 - killedAt.pages);

    const reopened = LifecycleStore.open(directory);
    expect(reopened.size).toBe(LISTINGS);
    const lines = readFileSync(join(directory, 'listings.ndjson'), 'utf8').trim().split('\n').slice(1);
    const keys = lines.map((line) => (JSON.parse(line) as { key: string }).key);
    expect(keys).toHaveLength(LISTINGS);
    expect(new Set(keys).size).toBe(LISTINGS);
    // One run saw them all: none is counted as missed.
    expect([...reopened.all()].every((life) => life.missedRuns === 0 && life.lastRun === killedAt.runId)).toBe(true);
  });
});
