/**
 * Issue 37, items 1–2: the crawler against the local fake site. Paging of each site (uybor
 * page/limit/total, olx offset/limit with price-band slices past offset 1,000, avtoelon pages ending
 * in a redirect), errors (403, 429 with Retry-After, 410, 5xx), robots.txt, the per-host rate limit
 * measured on an injected clock, the request bound and resuming after it, the run lock.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { olxCollector, uyborCollector, avtoelonCollector } from '../../models/ingest/collectors';
import { createNormaliser } from '../../models/ingest/normaliser';
import { createVehicleLookups } from '../../models/vehicle/ingest/lookups';
import { collectStatus, crawlSite, siteRunStatus, LifecycleStore, ManualClock, PoliteFetcher, readCheckpoint, RunInProgress, acquireRunLock, retryAfterMs, type CollectConfig } from '../../platform/collect';
import { fakeSiteConfig, FakeSite } from './support/fake-site';
import { fakeCar, olxFlat, uyborFlat } from './support/listings';

const normaliser = createNormaliser();
const lookups = createVehicleLookups();
const JUNE_30 = Date.parse('2026-06-30T03:00:00Z');

describe('crawler against the fake site', () => {
  let site: FakeSite;
  let directory: string;
  let config: CollectConfig;

  beforeEach(async () => {
    site = await new FakeSite().start();
    directory = mkdtempSync(join(tmpdir(), 'collect-crawler-'));
    config = fakeSiteConfig(site.baseUrl, directory);
  });
  afterEach(async () => {
    await site.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  const crawl = (collector: Parameters<typeof crawlSite>[0]['collector'], clock = new ManualClock(JUNE_30), overrides: Partial<CollectConfig> = {}) => {
    const store = LifecycleStore.open(directory);
    return crawlSite({ collector, config: { ...config, ...overrides }, store, clock }).then((result) => ({ result, store }));
  };

  it('walks uybor page by page (limit 100) to its total, with our User-Agent, robots.txt first', async () => {
    site.uybor = Array.from({ length: 250 }, (_, n) => uyborFlat(n));
    const { result, store } = await crawl(uyborCollector({ normaliser }, [7]));
    expect(result).toMatchObject({ status: 'completed', pages: 3, listings: 250, skipped: 0, requests: 4 });
    expect(store.size).toBe(250);
    expect(site.requests[0].path).toBe('/robots.txt');
    expect(site.requests.slice(1).map((r) => new URL(r.path, 'http://x').searchParams.get('page'))).toEqual(['1', '2', '3']);
    expect(site.requests.slice(1).every((r) => new URL(r.path, 'http://x').searchParams.get('limit') === '100')).toBe(true);
    expect(new Set(site.requests.map((r) => r.userAgent))).toEqual(new Set(['TestCollector/1.0 (+tests)']));
    expect(readCheckpoint(directory, 'uybor')).toBeNull();
  });

  it('splits an olx query whose total passes offset 1,000 into price bands and never asks past it', async () => {
    site.olx = Array.from({ length: 1400 }, (_, n) => olxFlat(n, 20_000 + n * 100));
    const { result, store } = await crawl(olxCollector({ normaliser }, [{ categoryId: 13, propertyType: 'apartment' }]));
    expect(result.status).toBe('completed');
    expect(store.size).toBe(1400);
    const offsets = site.requests.filter((r) => r.path.startsWith('/api/v1/offers/')).map((r) => Number(new URL(r.path, 'http://x').searchParams.get('offset')));
    expect(Math.max(...offsets)).toBeLessThanOrEqual(1000);
    expect(site.requests.filter((r) => r.path.includes('limit=') && !r.path.includes('limit=50'))).toEqual([]);
  });

  it('walks avtoelon pages while the pager links the next, and a redirect past the last page ends the query', async () => {
    site.cars = Array.from({ length: 45 }, (_, n) => fakeCar(n));
    const { result, store } = await crawl(avtoelonCollector({ lookups }));
    expect(result).toMatchObject({ status: 'completed', pages: 3, listings: 45 });
    expect(store.get('avtoelon', String(fakeCar(44).id))?.vehicle).toMatchObject({ make: 'Chevrolet', model: 'Cobalt', year: fakeCar(44).year, mileageKm: fakeCar(44).mileageKm });
  });

  it('treats a redirect answering a page as the end of the query', async () => {
    site.cars = Array.from({ length: 25 }, (_, n) => fakeCar(n));
    site.faults.push({ match: 'page=2', status: 302, headers: { location: '/avto/' }, times: 1 });
    const { result } = await crawl(avtoelonCollector({ lookups }));
    expect(result).toMatchObject({ status: 'completed', pages: 2, listings: 20 });
  });

  it('backs off exponentially on 403 up to its cap, and honours 429 Retry-After', async () => {
    site.uybor = Array.from({ length: 150 }, (_, n) => uyborFlat(n));
    site.faults.push({ match: 'page=1', status: 403, times: 5 });
    site.faults.push({ match: 'page=2', status: 429, headers: { 'retry-after': '5' }, times: 1 });
    const clock = new ManualClock(JUNE_30);
    const { result, store } = await crawl(uyborCollector({ normaliser }, [7]), clock);
    expect(result.status).toBe('completed');
    expect(store.size).toBe(150);
    // 403 ×5: 1, 2, 4, 8 s, then the 8 s cap; 429: its Retry-After, 5 s.
    expect(clock.sleeps).toEqual([1000, 2000, 4000, 8000, 8000, 5000]);
  });

  it('stops rather than ask sooner when Retry-After is longer than the cap; the next run resumes', async () => {
    site.uybor = Array.from({ length: 150 }, (_, n) => uyborFlat(n));
    site.faults.push({ match: 'page=2', status: 429, headers: { 'retry-after': '3600' }, times: 1 });
    const clock = new ManualClock(JUNE_30);
    const first = await crawl(uyborCollector({ normaliser }, [7]), clock);
    expect(first.result).toMatchObject({ status: 'stopped', pages: 1 });
    expect(first.result.reason).toMatch(/asks to wait 3600 s/);
    expect(clock.sleeps).toEqual([]);
    const second = await crawl(uyborCollector({ normaliser }, [7]));
    expect(second.result).toMatchObject({ status: 'completed', resumed: true, listings: 150 });
  });

  it('stops a run for the day when a site keeps refusing, keeping the checkpoint', async () => {
    site.uybor = Array.from({ length: 150 }, (_, n) => uyborFlat(n));
    site.faults.push({ match: 'page=2', status: 403, times: 100 });
    const { result } = await crawl(uyborCollector({ normaliser }, [7]), new ManualClock(JUNE_30), { maxRetriesPerPage: 2 });
    expect(result.status).toBe('stopped');
    expect(result.reason).toMatch(/answered 403 3 times/);
    expect(readCheckpoint(directory, 'uybor')).toMatchObject({ pages: 1, cursor: { page: 2 } });
  });

  it('stops on a server error and resumes from the same page on the next run', async () => {
    site.uybor = Array.from({ length: 250 }, (_, n) => uyborFlat(n));
    site.faults.push({ match: 'page=3', status: 503, times: 1 });
    const first = await crawl(uyborCollector({ normaliser }, [7]));
    expect(first.result).toMatchObject({ status: 'stopped', pages: 2, listings: 200 });
    const second = await crawl(uyborCollector({ normaliser }, [7]));
    expect(second.result).toMatchObject({ status: 'completed', resumed: true, runId: first.result.runId, pages: 3, listings: 250 });
    expect(second.store.size).toBe(250);
  });

  it('leaves each run\'s status for the dashboard: stopped with its reason (interrupted until resumed), then completed; a live lock reads as running', async () => {
    expect(collectStatus(directory).map((s) => [s.site, s.state])).toEqual([['uybor', 'never'], ['olx', 'never'], ['avtoelon', 'never']]);
    site.uybor = Array.from({ length: 250 }, (_, n) => uyborFlat(n));
    site.faults.push({ match: 'page=3', status: 503, times: 1 });
    const clock = new ManualClock(JUNE_30);
    const first = await crawl(uyborCollector({ normaliser }, [7]), clock);
    // Stopped, checkpointed: the next run resumes it.
    expect(siteRunStatus(directory, 'uybor')).toMatchObject({ state: 'interrupted', runId: first.result.runId, day: '2026-06-30', pages: 2, listings: 200, requests: first.result.requests, reason: expect.stringMatching(/503/), startedAt: '2026-06-30T03:00:00.000Z', previous: null });
    // While a process holds the site's lock, the run is running.
    const lock = acquireRunLock(directory, 'uybor');
    expect(siteRunStatus(directory, 'uybor')).toMatchObject({ state: 'running', pages: 2, listings: 200, requests: null, endedAt: null });
    lock.release();
    const second = await crawl(uyborCollector({ normaliser }, [7]), clock);
    expect(siteRunStatus(directory, 'uybor')).toMatchObject({ state: 'completed', runId: second.result.runId, pages: 3, listings: 250, reason: null, requests: second.result.requests, endedAt: new Date(clock.now()).toISOString() });
    expect(siteRunStatus(directory, 'olx').state).toBe('never');
  });

  it('stops, checkpointed, on an answer that is not the page (a changed layout) and on no answer at all', async () => {
    site.uybor = Array.from({ length: 150 }, (_, n) => uyborFlat(n));
    site.faults.push({ match: 'page=2', status: 200, headers: { 'content-type': 'text/html' }, times: 1 });
    const first = await crawl(uyborCollector({ normaliser }, [7]));
    expect(first.result).toMatchObject({ status: 'stopped', pages: 1 });
    expect(first.result.reason).toMatch(/not the site's page/);
    site.faults.push({ match: 'page=2', status: 0, times: 1 }); // the connection is dropped
    const second = await crawl(uyborCollector({ normaliser }, [7]));
    expect(second.result).toMatchObject({ status: 'stopped', resumed: true, pages: 1 });
    expect(second.result.reason).toMatch(/no answer/);
    const third = await crawl(uyborCollector({ normaliser }, [7]));
    expect(third.result).toMatchObject({ status: 'completed', resumed: true, pages: 2, listings: 150 });
  });

  it('a 410 answering a page ends that query; the next category is still walked', async () => {
    site.uybor = [...Array.from({ length: 150 }, (_, n) => uyborFlat(n)), ...Array.from({ length: 5 }, (_, n) => ({ ...uyborFlat(900 + n), category: { id: 8 }, square: 150, floorTotal: 2, squareGround: 6 }))];
    site.faults.push({ match: 'category__eq=7&region__eq=13&isActive__eq=true&moderationStatus__in=approved&mode=search&order=-createdAt&embed=category%2CsubCategory%2CresidentialComplex%2Cregion%2Ccity%2Cdistrict%2Czone%2Cstreet%2Cmetro&page=2', status: 410, times: 1 });
    const { result, store } = await crawl(uyborCollector({ normaliser }, [7, 8]));
    expect(result).toMatchObject({ status: 'completed', pages: 3, listings: 105 });
    expect(store.size).toBe(105);
  });

  it('a 400 from olx (offset past 1,000) ends that slice, not the run', async () => {
    site.olx = [...Array.from({ length: 120 }, (_, n) => olxFlat(n)), ...Array.from({ length: 10 }, (_, n) => ({ ...olxFlat(500 + n), category: { id: 14 } }))];
    site.faults.push({ match: 'offset=100', status: 400, times: 1 });
    const { result, store } = await crawl(olxCollector({ normaliser }, [{ categoryId: 13, propertyType: 'apartment' }, { categoryId: 14, propertyType: 'apartment' }]));
    expect(result.status).toBe('completed');
    expect(store.size).toBe(110); // 100 offers of the first category before the 400, then the 10 of the second
  });

  it('honours robots.txt: a disallowed path is never asked for', async () => {
    site.robotsTxt = 'User-agent: *\nDisallow: /api/\n';
    site.uybor = [uyborFlat(1)];
    const { result } = await crawl(uyborCollector({ normaliser }, [7]));
    expect(result.status).toBe('stopped');
    expect(result.reason).toMatch(/robots\.txt disallows/);
    expect(site.requests.map((r) => r.path)).toEqual(['/robots.txt']);
  });

  it('reads no robots.txt (404) as everything allowed, and a Crawl-delay as a longer interval', async () => {
    site.robotsTxt = null;
    site.uybor = Array.from({ length: 150 }, (_, n) => uyborFlat(n));
    const { result } = await crawl(uyborCollector({ normaliser }, [7]));
    expect(result.status).toBe('completed');
    site.robotsTxt = 'User-agent: *\nCrawl-delay: 3\n';
    rmSync(join(directory, 'listings.ndjson'));
    const clock = new ManualClock(JUNE_30);
    await crawl(uyborCollector({ normaliser }, [7]), clock, { minIntervalMs: 1000 });
    expect(clock.sleeps).toEqual([3000, 3000]); // robots, page 1, page 2: 3 s apart
  });

  it('keeps one rate limit per host: requests to one host at least the interval apart, other hosts not held', async () => {
    const clock = new ManualClock(0);
    const fetcher = new PoliteFetcher({ ...config, minIntervalMs: 1000 }, clock);
    const other = await new FakeSite().start();
    try {
      // Two hosts: 127.0.0.1 and localhost, same fake site.
      const otherBase = other.baseUrl.replace('127.0.0.1', 'localhost');
      const sentAt: number[] = [];
      for (const url of [`${site.baseUrl}/avto/?page=1`, `${otherBase}/avto/?page=1`, `${site.baseUrl}/avto/?page=1`, `${otherBase}/avto/?page=1`]) {
        await fetcher.get(url);
        sentAt.push(clock.now());
      }
      // A: robots at 0, page at 1 s (waits 1 s); B: robots at 1 s, page at 2 s (waits 1 s);
      // A's second page at 2 s waits for nothing (B's requests do not hold A); B's at 3 s waits 1 s.
      expect(clock.sleeps).toEqual([1000, 1000, 1000]);
      expect(sentAt).toEqual([1000, 2000, 2000, 3000]);
      expect(site.requests.map((r) => r.path)).toEqual(['/robots.txt', '/avto/?page=1', '/avto/?page=1']);
      expect(other.requests.map((r) => r.path)).toEqual(['/robots.txt', '/avto/?page=1', '/avto/?page=1']);
      expect(fetcher.requests).toBe(6);
    } finally {
      await other.stop();
    }
  });

  it('spaces requests to one host by the configured interval (default 1 s) on the injected clock', async () => {
    site.uybor = Array.from({ length: 350 }, (_, n) => uyborFlat(n));
    const clock = new ManualClock(JUNE_30);
    const { result } = await crawl(uyborCollector({ normaliser }, [7]), clock, { minIntervalMs: 1000 });
    expect(result.requests).toBe(5);
    expect(clock.sleeps).toEqual([1000, 1000, 1000, 1000]);
    expect(clock.now() - JUNE_30).toBe(4000);
  });

  it('stops at the hard bound on requests, then the next run resumes and completes', async () => {
    site.uybor = Array.from({ length: 550 }, (_, n) => uyborFlat(n));
    const first = await crawl(uyborCollector({ normaliser }, [7]), new ManualClock(JUNE_30), { maxRequestsPerRun: 3 });
    expect(first.result).toMatchObject({ status: 'stopped', pages: 2, requests: 3 });
    expect(first.result.reason).toMatch(/bound of 3 requests/);
    const second = await crawl(uyborCollector({ normaliser }, [7]), new ManualClock(JUNE_30), { maxRequestsPerRun: 100 });
    expect(second.result).toMatchObject({ status: 'completed', resumed: true, pages: 6, listings: 550 });
    expect(site.countRequests('page=3')).toBe(1);
  });

  it('refuses a second run of one site while the first holds the lock; a dead holder’s lock is taken over', async () => {
    const held = acquireRunLock(directory, 'uybor');
    await expect(crawl(uyborCollector({ normaliser }, [7]))).rejects.toBeInstanceOf(RunInProgress);
    held.release();
    writeFileSync(join(directory, 'run-uybor.lock'), '999999999'); // a pid that is not running
    site.uybor = [uyborFlat(1)];
    const { result } = await crawl(uyborCollector({ normaliser }, [7]));
    expect(result.status).toBe('completed');
  });

  it('asks the own page of each listing a completed run missed: 410 or archived removes it at once', async () => {
    site.olx = Array.from({ length: 10 }, (_, n) => olxFlat(n));
    const categories = [{ categoryId: 13, propertyType: 'apartment' as const }];
    await crawl(olxCollector({ normaliser }, categories));
    const [deleted, archived, vanished] = site.olx.slice(0, 3).map((o) => String(o.id));
    site.olxArchived = [{ ...site.olx[1], status: 'archived' }];
    site.olxDeleted.add(deleted);
    site.olx = site.olx.slice(3);
    const { result, store } = await crawl(olxCollector({ normaliser }, categories), new ManualClock(JUNE_30 + 86_400_000));
    expect(result.completion).toMatchObject({ confirmedGone: 2, removedToday: 0 });
    expect(store.get('olx', deleted)!.removed).toEqual({ day: '2026-07-01', reason: 'gone' });
    expect(store.get('olx', archived)!.removed).toEqual({ day: '2026-07-01', reason: 'inactive' });
    expect(store.get('olx', vanished)).toMatchObject({ removed: null, missedRuns: 1 }); // 404: left to the two-run rule
    expect(site.countRequests('/api/v1/offers/7')).toBe(3);
  });

  it('does the same with avtoelon detail pages: archived or 410 removes the car at once', async () => {
    site.cars = Array.from({ length: 25 }, (_, n) => fakeCar(n));
    await crawl(avtoelonCollector({ lookups }));
    const [archived, deleted, stillLive] = site.cars.slice(0, 3);
    site.carsArchived = [archived];
    site.carsDeleted.add(String(deleted.id));
    site.cars = site.cars.slice(3);
    site.cars.push(stillLive); // moved to the end of the search: seen, not missed
    const { result, store } = await crawl(avtoelonCollector({ lookups }), new ManualClock(JUNE_30 + 86_400_000));
    expect(result.completion?.confirmedGone).toBe(2);
    expect(store.get('avtoelon', String(archived.id))!.removed).toEqual({ day: '2026-07-01', reason: 'inactive' });
    expect(store.get('avtoelon', String(deleted.id))!.removed).toEqual({ day: '2026-07-01', reason: 'gone' });
    expect(store.get('avtoelon', String(stillLive.id))!.removed).toBeNull();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('120', 0)).toBe(120_000);
    expect(retryAfterMs(new Date(30_000).toUTCString(), 0)).toBe(30_000);
    expect(retryAfterMs(undefined, 0)).toBeNull();
  });
});
