/**
 * `npm run collect -- …` (docs/COLLECTING.md):
 *   --site uybor|olx|avtoelon   (repeat or comma-separate; default all three)
 *   --once                      one run of each site now, with progress, then exit
 *   --from-dir DIR [--complete] [--day YYYY-MM-DD]   ingest saved pages instead of fetching
 *   --status                    what the store holds
 *   --export [--day YYYY-MM-DD] the collected homes as a dated training source, and weekly market points
 *   (none of these)             stay up and run every day at COLLECT_DAILY_AT (UTC): a BullMQ
 *                               repeatable job with REDIS_URL, an in-process timer without
 * Stopping (Ctrl-C, SIGTERM, even SIGKILL) loses nothing: each stored page is checkpointed, and the
 * next run resumes after it.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { adapterTools, COLLECT_SITES, isCollectSite, lifeFacts, type CollectSite } from '../../models/ingest/collectors';
import { startBullmqDailySchedule } from './bullmq-schedule';
import { dayOf, systemClock } from './clock';
import { collectSites } from './collect-service';
import { collectConfigFromEnv } from './config';
import type { CrawlProgress, CrawlResult } from './crawl-run';
import { startInProcessDailySchedule } from './daily-schedule';
import { ingestDirectory } from './from-directory';
import { LifecycleStore } from './lifecycle-store';
import { exportTrainingSource } from './training-export';

function sitesOf(values: string[] | undefined): CollectSite[] {
  const names = (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (names.length === 0) return [...COLLECT_SITES];
  for (const name of names) if (!isCollectSite(name)) throw new Error(`unknown site "${name}" (uybor, olx, avtoelon)`);
  return names as CollectSite[];
}

function progressLine(p: CrawlProgress): string {
  const total = p.total !== null ? ` of ~${p.total}` : '';
  return `${p.site}${p.resumed ? ' (resumed)' : ''}: page ${p.pages}, ${p.listings} listings${total}, ${p.skipped} skipped, ${p.requests} requests; next: ${p.where}`;
}

function resultLine(r: CrawlResult): string {
  const done = r.completion
    ? `, ${r.completion.removedToday + r.completion.confirmedGone} removed today (${r.completion.confirmedGone} by their own page), ${r.completion.linkedDuplicates} cross-site duplicates linked`
    : '';
  return `${r.site}: ${r.status}${r.reason ? ` (${r.reason}; the next run resumes here)` : ''}: ${r.pages} pages, ${r.listings} listings, ${r.requests} requests${done}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      site: { type: 'string', multiple: true },
      once: { type: 'boolean', default: false },
      'from-dir': { type: 'string' },
      complete: { type: 'boolean', default: false },
      day: { type: 'string' },
      status: { type: 'boolean', default: false },
      export: { type: 'boolean', default: false },
    },
  });
  const config = collectConfigFromEnv();
  const sites = sitesOf(values.site);
  const log = (message: string) => process.stderr.write(`${message}\n`);

  if (values.status) {
    const store = LifecycleStore.open(config.directory);
    const summary = store.summary();
    let cuts = 0;
    for (const life of store.all()) cuts += lifeFacts(life).priceCuts > 0 ? 1 : 0;
    process.stdout.write(`${JSON.stringify({ directory: config.directory, ...summary, listingsWithPriceCuts: cuts }, null, 2)}\n`);
    return;
  }

  if (values.export) {
    const store = LifecycleStore.open(config.directory);
    const written = exportTrainingSource(store, values.day ?? dayOf(systemClock));
    log(`${written.records} home records → ${written.recordsPath}; ${written.cars} car records → ${written.carsPath}; weekly points → ${written.indexPath}`);
    process.stdout.write(`${JSON.stringify(written.weekly, null, 2)}
`);
    return;
  }

  if (values['from-dir']) {
    const store = LifecycleStore.open(config.directory);
    const day = values.day ?? dayOf(systemClock);
    const { normaliser, lookups } = adapterTools();
    const report = ingestDirectory(values['from-dir'], store, {
      home: { normaliser, seenOn: day },
      vehicles: { lookups, seenOn: day },
      runId: `dir-${day}-${randomBytes(4).toString('hex')}`,
      complete: values.complete,
    });
    if (!values.complete) store.compact();
    log(`from ${values['from-dir']}: ${report.files} files, listings ${JSON.stringify(report.listings)}, ${report.skipped} skipped${report.unrecognised.length ? `, not recognised: ${report.unrecognised.join(', ')}` : ''}`);
    return;
  }

  const runOnce = async (runSites: readonly CollectSite[]) => {
    const results = await collectSites({ config, sites: runSites, onProgress: (p) => log(progressLine(p)) });
    for (const result of results) log(resultLine(result));
  };

  if (values.once) {
    await runOnce(sites);
    return;
  }

  if (process.env.REDIS_URL) {
    const schedule = await startBullmqDailySchedule(process.env.REDIS_URL, config.dailyAtUtc, sites, (job) => runOnce(job.sites), log);
    log(`collect: daily at ${config.dailyAtUtc} UTC on BullMQ (${sites.join(', ')}); Ctrl-C to stop`);
    const stop = () => void schedule.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  const schedule = startInProcessDailySchedule(config.dailyAtUtc, () => runOnce(sites), log);
  log(`collect: daily at ${config.dailyAtUtc} UTC in this process (${sites.join(', ')}); Ctrl-C to stop`);
  const stop = () => {
    schedule.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`collect: ${error.message}\n`);
  process.exit(1);
});
