/**
 * The collecting process of the bench (./measure.ts): one run of each site given against the fake
 * site at `argv[2]`, storing under `argv[3]`, with the politeness delay at 0. Prints one JSON line:
 * its wall time, peak RSS and what it stored.
 */
import { collectSites, LifecycleStore, systemClock } from '../../platform/collect';
import type { CollectSite } from '../../models/ingest/collectors';

async function main(): Promise<void> {
  const [, , baseUrl, directory, sitesArg] = process.argv;
  const sites = sitesArg.split(',') as CollectSite[];
  const started = performance.now();
  const store = LifecycleStore.open(directory);
  const results = await collectSites({
    config: {
      directory,
      minIntervalMs: 0,
      maxRequestsPerRun: 100_000,
      userAgent: 'TashkentValuationCollector/bench',
      backoffBaseMs: 0,
      backoffCapMs: 0,
      maxRetriesPerPage: 3,
      baseUrls: { uybor: baseUrl, olx: baseUrl, avtoelon: baseUrl },
      dailyAtUtc: '02:30',
    },
    sites,
    store,
    clock: systemClock,
  });
  const wallMs = performance.now() - started;
  process.stdout.write(
    `${JSON.stringify({
      wallMs: Math.round(wallMs),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      stored: store.size,
      runs: results.map((r) => ({ site: r.site, status: r.status, pages: r.pages, listings: r.listings, requests: r.requests })),
    })}\n`,
  );
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
