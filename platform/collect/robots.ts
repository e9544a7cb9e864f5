/**
 * robots.txt, fetched once per host per run and read with robots-parser. What an answer means
 * follows RFC 9309: 4xx (none published) allows everything; 5xx or no answer disallows everything
 * (the site may be in trouble, and we would not know its rules). 429 is read as the site being busy,
 * like a 5xx, not as "no rules".
 */
import robotsParser from 'robots-parser';

export interface RobotsRules {
  allows(url: string): boolean;
  /** Crawl-delay for our agent in ms, when the file sets one. */
  crawlDelayMs: number | null;
}

export function robotsRulesOf(robotsUrl: string, status: number | null, body: string, userAgent: string): RobotsRules {
  if (status !== null && status >= 400 && status < 500 && status !== 429) return { allows: () => true, crawlDelayMs: null };
  if (status === null || status >= 500 || status < 200 || status >= 300) return { allows: () => false, crawlDelayMs: null };
  const robots = robotsParser(robotsUrl, body);
  const delay = robots.getCrawlDelay(userAgent);
  return {
    allows: (url) => robots.isAllowed(url, userAgent) !== false,
    crawlDelayMs: typeof delay === 'number' && delay > 0 ? delay * 1000 : null,
  };
}
