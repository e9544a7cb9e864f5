/**
 * One run of one site: take the site's lock, resume from its checkpoint or start at its first page,
 * then page by page: fetch politely, adapt (models/ingest/collectors/), store the sightings, write the
 * checkpoint. A run that reaches the last page completes (the store applies removals and links
 * duplicates) and clears its checkpoint. A run stopped by its request bound, a refusing site,
 * robots.txt or a server error keeps its checkpoint, and the next run picks it up where it stopped.
 *
 * How a page's answer is read:
 * - 200: the page; its cursor says what comes next.
 * - a redirect, 404, 400 (olx past offset 1,000) or 410: this query has no such page: `endOfQuery`.
 * - 403/429 are retried with back-off inside the fetcher; 5xx, no answer, or a 200 that is not the
 *   page expected (unparseable) stops the run (the site is unwell, or changed).
 */
import { randomBytes } from 'node:crypto';
import { isSkipped, type CollectedListing, type CollectSite, type SiteCollector } from '../../models/ingest/collectors';
import { clearCheckpoint, readCheckpoint, writeCheckpoint, type RunCheckpoint } from './checkpoint';
import { dayOf, type Clock } from './clock';
import type { CollectConfig } from './config';
import type { LifecycleStore, RunCompletion } from './lifecycle-store';
import { DisallowedByRobots, PoliteFetcher, RequestBudgetSpent, SiteAsksToWait, SiteRefusing, type FetchedPage, type FetchEvents } from './polite-fetcher';
import { acquireRunLock } from './run-lock';
import { writeLastRun } from './run-status';

export interface CrawlProgress {
  site: CollectSite;
  runId: string;
  resumed: boolean;
  pages: number;
  listings: number;
  skipped: number;
  requests: number;
  total: number | null;
  where: string;
}

export interface CrawlResult {
  site: CollectSite;
  runId: string;
  status: 'completed' | 'stopped';
  /** Why a stopped run stopped. */
  reason: string | null;
  resumed: boolean;
  pages: number;
  listings: number;
  skipped: number;
  requests: number;
  completion: RunCompletion | null;
}

export interface CrawlOptions {
  collector: SiteCollector<any>;
  config: CollectConfig;
  store: LifecycleStore;
  clock: Clock;
  onProgress?: (progress: CrawlProgress) => void;
  fetchEvents?: FetchEvents;
}

/** Why fetching a page ended the run: the fetcher's own reasons, or no answer at all (like a 5xx). */
function whyStopped(error: unknown, where: string): string {
  if (error instanceof RequestBudgetSpent || error instanceof SiteRefusing || error instanceof SiteAsksToWait || error instanceof DisallowedByRobots) return error.message;
  return `${where}: no answer (${(error as Error).message})`;
}

function readOrNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/**
 * Asks the own page of each listing this run missed for the first time, within what is left of the
 * request bound: a 410 or an archived page removes it today instead of after a second missed run.
 * Anything else (still live, 404, refusals, the bound spent) leaves it to the two-run rule.
 */
async function confirmMissing(collector: SiteCollector<any>, store: LifecycleStore, fetcher: PoliteFetcher, base: string, day: string): Promise<number> {
  if (!collector.detailPath || !collector.readDetail) return 0;
  const missed = [...store.all()].filter((life) => life.site === collector.site && !life.removed && life.missedRuns === 1).map((life) => life.id);
  let confirmed = 0;
  for (const id of missed) {
    let state;
    try {
      const page = await fetcher.get(base + collector.detailPath(id));
      state = collector.readDetail(page.status, page.body);
    } catch {
      break; // the bound spent, a refusal, no answer: the rest wait for the two-run rule
    }
    if (state === 'gone' || state === 'inactive') {
      store.recordGone(collector.site, id, day, state);
      confirmed++;
    }
  }
  return confirmed;
}

export async function crawlSite(options: CrawlOptions): Promise<CrawlResult> {
  const { collector, config, store, clock } = options;
  const site = collector.site;
  const lock = acquireRunLock(config.directory, site);
  try {
    const day = dayOf(clock);
    const saved = readCheckpoint(config.directory, site);
    const resumed = saved !== null && !store.hasCompleted(site, saved.runId);
    const checkpoint: RunCheckpoint = resumed
      ? saved!
      : { runId: `${site}-${day}-${randomBytes(4).toString('hex')}`, site, day, cursor: collector.first(), pages: 0, listings: 0, startedAt: new Date(clock.now()).toISOString() };
    const fetcher = new PoliteFetcher(config, clock, options.fetchEvents);
    const base = config.baseUrls[site].replace(/\/$/, '');
    let skipped = 0;
    let total: number | null = null;
    // Every finished run (completed or stopped) leaves its summary for the dashboard (./run-status.ts).
    const result = (status: CrawlResult['status'], reason: string | null, completion: RunCompletion | null): CrawlResult => {
      writeLastRun(config.directory, {
        site, runId: checkpoint.runId, status, reason, day, pages: checkpoint.pages, listings: checkpoint.listings, skipped, requests: fetcher.requests,
        startedAt: checkpoint.startedAt, endedAt: new Date(clock.now()).toISOString(),
        seen: completion?.seen ?? null, removedToday: completion?.removedToday ?? null, linkedDuplicates: completion?.linkedDuplicates ?? null,
      });
      return { site, runId: checkpoint.runId, status, reason, resumed, pages: checkpoint.pages, listings: checkpoint.listings, skipped, requests: fetcher.requests, completion };
    };

    while (checkpoint.cursor !== null) {
      const cursor = checkpoint.cursor;
      let page: FetchedPage;
      try {
        page = await fetcher.get(base + collector.path(cursor));
      } catch (error) {
        return result('stopped', whyStopped(error, collector.describe(cursor)), null);
      }
      let next: unknown;
      if (page.status === 200) {
        const read = readOrNull(() => collector.read(page.body, cursor, day));
        if (read === null) return result('stopped', `${collector.describe(cursor)}: an answer that is not the site's page (changed layout or an error page)`, null);
        const listings = read.listings.filter((l): l is CollectedListing => !isSkipped(l));
        skipped += read.listings.length - listings.length;
        store.recordSightings(checkpoint.runId, day, listings);
        checkpoint.listings += listings.length;
        total = read.total ?? total;
        next = read.next;
      } else if ((page.status >= 300 && page.status < 400) || [400, 404, 410].includes(page.status)) {
        next = collector.endOfQuery(cursor);
      } else {
        return result('stopped', `${collector.describe(cursor)} answered ${page.status}`, null);
      }
      checkpoint.pages++;
      checkpoint.cursor = next ?? null;
      writeCheckpoint(config.directory, checkpoint);
      options.onProgress?.({
        site, runId: checkpoint.runId, resumed, pages: checkpoint.pages, listings: checkpoint.listings, skipped, requests: fetcher.requests, total,
        where: next ? collector.describe(next) : 'done',
      });
    }
    const completion = store.completeRun(site, checkpoint.runId, day);
    clearCheckpoint(config.directory, site);
    completion.confirmedGone = await confirmMissing(collector, store, fetcher, base, day);
    return result('completed', null, completion);
  } finally {
    lock.release();
  }
}
