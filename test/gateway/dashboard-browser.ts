/**
 * Headless Chromium for the dashboard's suites (dashboard*.test.ts): Debian's, driven by
 * playwright-core, so no browser download. No silent skip: without a browser the suites fail and
 * say why.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The machine may be loaded: generous, and never asserted as timings. */
export const UI_TIMEOUT_MS = 120_000;

/** Reports every CSP violation as a console error, whatever the browser's own wording. */
const REPORT_CSP_VIOLATIONS =
  "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))";

export interface DashboardBrowser {
  /** A new browser context on `${baseUrl()}/dashboard`. */
  open(): Promise<Page>;
}

/**
 * Launches Chromium for the enclosing describe block and closes it after; each test fails when a page
 * it opened threw an uncaught exception or broke the page's Content Security Policy.
 */
export function useDashboardBrowser(baseUrl: () => string, options: { acceptDownloads?: boolean } = {}): DashboardBrowser {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: UI_TIMEOUT_MS });
  }, UI_TIMEOUT_MS);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });
  afterEach(() => {
    // Uncaught exceptions and CSP violations would be bugs of the page.
    expect(pageErrors.splice(0)).toEqual([]);
  });

  return {
    async open() {
      const context = await browser.newContext({ acceptDownloads: options.acceptDownloads ?? false });
      contexts.push(context);
      context.setDefaultTimeout(UI_TIMEOUT_MS);
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) pageErrors.push(`csp: ${message.text()}`);
      });
      await page.addInitScript(REPORT_CSP_VIOLATIONS);
      await page.goto(`${baseUrl()}/dashboard`);
      return page;
    },
  };
}
