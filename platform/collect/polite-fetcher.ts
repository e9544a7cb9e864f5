/**
 * Every request a collecting run sends goes through here, which is where politeness is kept:
 * - one rate limit per host (./host-rate-limit.ts), raised to the site's Crawl-delay if larger;
 * - the descriptive User-Agent on every request;
 * - robots.txt read first on each host, and a disallowed address never asked for;
 * - 403 and 429: wait (Retry-After when given, else exponential back-off from the base, capped) and
 *   retry, up to a number of times, then give up for this run (the site is refusing us). A
 *   Retry-After longer than the cap is not cut short: the run stops and the next one resumes;
 * - a hard bound on requests per run, robots.txt included: past it the run stops, checkpointed;
 * - redirects are not followed: a site redirecting a page past the last one is answered to the
 *   caller as a redirect, which ends that query.
 */
import { request } from 'undici';
import type { Clock } from './clock';
import { HostRateLimit } from './host-rate-limit';
import { robotsRulesOf, type RobotsRules } from './robots';

export interface FetchPolicy {
  /** The least time between two requests to one host (a robots.txt Crawl-delay that is longer wins). @default 1000 (1 s) */
  minIntervalMs: number;
  /** The hard bound on requests of one run (robots.txt included). @default 3000 */
  maxRequestsPerRun: number;
  /** Sent with every request; says who we are and where to complain. */
  userAgent: string;
  /** Back-off after a 403 or 429: first wait, doubled each time, never above the cap. @default 30 s, cap 30 min */
  backoffBaseMs: number;
  backoffCapMs: number;
  /** How many 403/429 answers in a row one page may get before the run stops for the day. @default 5 */
  maxRetriesPerPage: number;
}

export interface FetchedPage {
  status: number;
  body: string;
  /** The Location of a 3xx answer. */
  location: string | null;
}

/** The run's request bound is spent: stop, keeping the checkpoint. */
export class RequestBudgetSpent extends Error {
  constructor(readonly limit: number) {
    super(`the run's bound of ${limit} requests is spent`);
  }
}

/** The site keeps refusing (403/429 past the retries): stop for today, keeping the checkpoint. */
export class SiteRefusing extends Error {
  constructor(readonly url: string, readonly status: number, readonly attempts: number) {
    super(`${url} answered ${status} ${attempts} times in a row`);
  }
}

/** The site asks us to wait longer than the back-off cap: stop, rather than ask again sooner. */
export class SiteAsksToWait extends Error {
  constructor(readonly url: string, readonly waitMs: number) {
    super(`${url} asks to wait ${Math.round(waitMs / 1000)} s (Retry-After), longer than the back-off cap`);
  }
}

/** robots.txt disallows the address. */
export class DisallowedByRobots extends Error {
  constructor(readonly url: string) {
    super(`robots.txt disallows ${url}`);
  }
}

export interface FetchEvents {
  onRequest?(url: string, waitedMs: number): void;
  onBackoff?(url: string, status: number, waitMs: number): void;
}

/** Retry-After in ms: seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export class PoliteFetcher {
  private readonly rateLimit: HostRateLimit;
  private readonly robots = new Map<string, RobotsRules>();
  private requestsSent = 0;

  constructor(
    private readonly policy: FetchPolicy,
    private readonly clock: Clock,
    private readonly events: FetchEvents = {},
  ) {
    this.rateLimit = new HostRateLimit(policy.minIntervalMs, clock);
  }

  get requests(): number {
    return this.requestsSent;
  }

  /** One page, politely; 403/429 are retried here, every other status is the caller's. */
  async get(url: string): Promise<FetchedPage> {
    const rules = await this.rulesFor(new URL(url));
    if (!rules.allows(url)) throw new DisallowedByRobots(url);
    for (let attempt = 1; ; attempt++) {
      const page = await this.send(url);
      if (page.status !== 403 && page.status !== 429) return page;
      if (attempt > this.policy.maxRetriesPerPage) throw new SiteRefusing(url, page.status, attempt);
      if (page.retryAfterMs !== null && page.retryAfterMs > this.policy.backoffCapMs) throw new SiteAsksToWait(url, page.retryAfterMs);
      const wait = page.retryAfterMs ?? Math.min(this.policy.backoffCapMs, this.policy.backoffBaseMs * 2 ** (attempt - 1));
      this.events.onBackoff?.(url, page.status, wait);
      this.rateLimit.deferUntil(new URL(url).host, this.clock.now() + wait);
    }
  }

  private async rulesFor(url: URL): Promise<RobotsRules> {
    const known = this.robots.get(url.host);
    if (known) return known;
    const robotsUrl = `${url.protocol}//${url.host}/robots.txt`;
    let rules: RobotsRules;
    try {
      const page = await this.send(robotsUrl);
      rules = robotsRulesOf(robotsUrl, page.status, page.body, this.policy.userAgent);
    } catch (error) {
      if (error instanceof RequestBudgetSpent) throw error;
      rules = robotsRulesOf(robotsUrl, null, '', this.policy.userAgent);
    }
    // The site may ask for more room than we would give; never less.
    if (rules.crawlDelayMs !== null) this.rateLimit.slowDown(url.host, rules.crawlDelayMs);
    this.robots.set(url.host, rules);
    return rules;
  }

  private async send(url: string): Promise<FetchedPage & { retryAfterMs: number | null }> {
    if (this.requestsSent >= this.policy.maxRequestsPerRun) throw new RequestBudgetSpent(this.policy.maxRequestsPerRun);
    const waited = await this.rateLimit.take(new URL(url).host);
    this.requestsSent++;
    this.events.onRequest?.(url, waited);
    const answer = await request(url, {
      method: 'GET',
      headers: { 'user-agent': this.policy.userAgent, accept: 'application/json, text/html;q=0.9' },
      headersTimeout: 30_000,
      bodyTimeout: 60_000,
    });
    const body = await answer.body.text();
    const location = answer.headers.location;
    return {
      status: answer.statusCode,
      body,
      location: typeof location === 'string' ? location : null,
      retryAfterMs: retryAfterMs(answer.headers['retry-after'], this.clock.now()),
    };
  }
}
