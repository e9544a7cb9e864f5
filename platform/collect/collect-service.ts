/**
 * What a collecting process runs: the sites' collectors (models/ingest/collectors createCollectors),
 * one run per site in turn (never two sites of one host at once, and each
 * site's own lock against another process).
 */
import { createCollectors, type CollectSite, type SiteCollector } from '../../models/ingest/collectors';
import { systemClock, type Clock } from './clock';
import type { CollectConfig } from './config';
import { crawlSite, type CrawlProgress, type CrawlResult } from './crawl-run';
import type { FetchEvents } from './polite-fetcher';
import { LifecycleStore } from './lifecycle-store';

export interface CollectRunOptions {
  config: CollectConfig;
  sites: readonly CollectSite[];
  clock?: Clock;
  store?: LifecycleStore;
  collectors?: Record<CollectSite, SiteCollector<any>>;
  onProgress?: (progress: CrawlProgress) => void;
  fetchEvents?: FetchEvents;
}

export async function collectSites(options: CollectRunOptions): Promise<CrawlResult[]> {
  const store = options.store ?? LifecycleStore.open(options.config.directory);
  const collectors = options.collectors ?? createCollectors();
  const results: CrawlResult[] = [];
  for (const site of options.sites) {
    results.push(
      await crawlSite({
        collector: collectors[site],
        config: options.config,
        store,
        clock: options.clock ?? systemClock,
        onProgress: options.onProgress,
        fetchEvents: options.fetchEvents,
      }),
    );
  }
  return results;
}
