/**
 * What a collecting process is told by its environment. Every default is the polite one; tests pass
 * their own values (a zero delay, a fake site's address) instead of setting the environment.
 */
import { join } from 'node:path';
import { valuationHome } from '../local-state';
import type { CollectSite } from '../../models/ingest/collectors';
import { collectDirectoryOf } from '../../models/ingest/collected-homes';

export interface CollectConfig {
  /** Where the life-cycle store, checkpoints and locks live. @default <VALUATION_HOME>/collect */
  directory: string;
  /** COLLECT_MIN_INTERVAL_MS: the least time between two requests to one host. @default 1000 (1 s) */
  minIntervalMs: number;
  /** COLLECT_MAX_REQUESTS: the hard bound on requests of one run (robots.txt included). @default 3000 */
  maxRequestsPerRun: number;
  /** COLLECT_USER_AGENT: sent with every request; says who we are and where to complain. */
  userAgent: string;
  /** Back-off after a 403 or 429: first wait, doubled each time, never above the cap. @default 30 s, cap 30 min */
  backoffBaseMs: number;
  backoffCapMs: number;
  /** How many 403/429 answers in a row one page may get before the run stops for the day. @default 5 */
  maxRetriesPerPage: number;
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

/** The collector's folder in the service's data home (platform/local-state.ts valuationHome). */
export function collectHome(env: NodeJS.ProcessEnv = process.env): string {
  return join(valuationHome(env), 'collect');
}

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
