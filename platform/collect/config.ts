/**
 * What a collecting process is told by its environment. Every default is the polite one; tests pass
 * their own values (a zero delay, a fake site's address) instead of setting the environment.
 */
import type { CollectSite } from '../../models/ingest/collectors';
import { collectDirectoryOf } from '../../models/ingest/collected-homes';
import type { FetchPolicy } from './polite-fetcher';

/** The fetch policy (COLLECT_MIN_INTERVAL_MS, COLLECT_MAX_REQUESTS, COLLECT_USER_AGENT, COLLECT_BACKOFF_*, COLLECT_MAX_RETRIES), and where and when. */
export interface CollectConfig extends FetchPolicy {
  /** COLLECT_DIR: where the life-cycle store, checkpoints and locks live. @default <VALUATION_HOME>/collect */
  directory: string;
  /** Each site's base address (COLLECT_UYBOR_BASE, COLLECT_OLX_BASE, COLLECT_AVTOELON_BASE): a bank's proxy, or the fake site in tests. */
  baseUrls: Record<CollectSite, string>;
  /** COLLECT_DAILY_AT: the UTC time of day of the scheduled run, 'HH:MM'. @default 02:30 (07:30 in Tashkent) */
  dailyAtUtc: string;
}

export const DEFAULT_USER_AGENT =
  'TashkentValuationCollector/0.1 (collateral valuation for Uzbek banks; one request per second at most; honours robots.txt; contact: the operating bank)';

export const DEFAULT_BASE_URLS: Record<CollectSite, string> = {
  uybor: 'https://api.uybor.uz',
  olx: 'https://www.olx.uz',
  avtoelon: 'https://avtoelon.uz',
};

function positive(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

export function collectConfigFromEnv(env: NodeJS.ProcessEnv = process.env): CollectConfig {
  return {
    directory: collectDirectoryOf(env),
    minIntervalMs: positive(env.COLLECT_MIN_INTERVAL_MS, 1000),
    maxRequestsPerRun: positive(env.COLLECT_MAX_REQUESTS, 3000),
    userAgent: env.COLLECT_USER_AGENT || DEFAULT_USER_AGENT,
    backoffBaseMs: positive(env.COLLECT_BACKOFF_BASE_MS, 30_000),
    backoffCapMs: positive(env.COLLECT_BACKOFF_CAP_MS, 30 * 60_000),
    maxRetriesPerPage: positive(env.COLLECT_MAX_RETRIES, 5),
    baseUrls: {
      uybor: env.COLLECT_UYBOR_BASE || DEFAULT_BASE_URLS.uybor,
      olx: env.COLLECT_OLX_BASE || DEFAULT_BASE_URLS.olx,
      avtoelon: env.COLLECT_AVTOELON_BASE || DEFAULT_BASE_URLS.avtoelon,
    },
    dailyAtUtc: /^\d{2}:\d{2}$/.test(env.COLLECT_DAILY_AT ?? '') ? env.COLLECT_DAILY_AT! : '02:30',
  };
}
