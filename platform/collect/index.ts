/**
 * Collecting listings (issue 37), the process side: polite fetching (./polite-fetcher.ts), one run
 * of a site with its lock and checkpoint (./crawl-run.ts), the life-cycle store (./lifecycle-store.ts),
 * saved pages (./from-directory.ts), and the daily schedule (./daily-schedule.ts in process,
 * ./bullmq-schedule.ts with Redis). The CLI is ./cli.ts (`npm run collect`).
 */
export { collectConfigFromEnv, DEFAULT_USER_AGENT, type CollectConfig } from './config';
export { ManualClock, systemClock, dayOf, type Clock } from './clock';
export { PoliteFetcher, RequestBudgetSpent, SiteAsksToWait, SiteRefusing, DisallowedByRobots, retryAfterMs, type FetchPolicy, type FetchEvents } from './polite-fetcher';
export { crawlSite, type CrawlProgress, type CrawlResult, type CrawlOptions } from './crawl-run';
export { LifecycleStore, type RunCompletion, type StoreSummary } from './lifecycle-store';
export { ingestDirectory, readSavedPage, type DirectoryIngest } from './from-directory';
export { acquireRunLock, RunInProgress } from './run-lock';
export { readCheckpoint, checkpointPath } from './checkpoint';
export { collectSites } from './collect-service';
export { createCollectors } from '../../models/ingest/collectors';
export { msUntilNextDaily, dailyCronPattern, startInProcessDailySchedule } from './daily-schedule';
export { exportTrainingSource, type TrainingExport } from './training-export';
export { collectStatus, siteRunStatus, writeLastRun, lastRunPath, type LastRun, type SiteRunStatus } from './run-status';
export { CollectedWeeklyIndex, readNewestWeeklyIndex, type WeeklyIndexFile } from './collected-exports';
