/**
 * The dashboard's backtest panel (issue 31) in headless Chromium on the real stack: a bank submits
 * 30 prices of flats observed over three months, each 1.2 × the model's valuation at its date, and
 * one without a price, through POST /api/backtest, and a portfolio job beside it. Its key opens the
 * panel: the list holds the backtest and not the portfolio; the backtest opened shows the overall
 * and by-month tables with the API's values, the plot of median bias and median APE by month
 * (vega SVG under the page's CSP) and its files, the PDF downloaded with the key. An unknown id
 * shows NOT_FOUND; a fresh organisation, the empty state.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';
import { until } from '../support/wait';
import { UI_TIMEOUT_MS, useDashboardBrowser } from './dashboard-browser';

const FLAT = { district: 'Chilanzar', rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
const PRICES = 30;
/** Where the test leaves its screenshot of the panel (not committed): look at it. */
const SCREENSHOTS = join(tmpdir(), 'dashboard-backtest');
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

let stack: SharedTestStack;
let bank: string;
let backtestId: string;
let portfolioId: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let report: any;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  stack = await sharedTestStack();
  bank = stack.newKey('enterprise');
  const reference = stack.newKey(); // the model alone: an organisation without observations
  const observations = await Promise.all(Array.from({ length: PRICES }, async (_, i) => {
    const observedAt = daysAgo(95 - 3 * i);
    const base = await json(await stack.post('/api/predict/home', { ...FLAT, area: 45 + i, valuation_date: observedAt }, { 'x-api-key': reference }));
    return { ...FLAT, area: 45 + i, price_usd: Math.round(base.estimate * 1.2), observed_at: observedAt, price_type: 'sale', reference: `deal-${i}` };
  }));
  const submitted = await stack.post('/api/backtest?kind=home', { observations: [...observations, { ...FLAT, area: 60, observed_at: daysAgo(2) }] }, { 'x-api-key': bank });
  expect(submitted.status).toBe(202);
  backtestId = (await json(submitted)).id;
  portfolioId = (await json(await stack.post('/api/batch', { items: [{ address: 'Yunusobod 8 kvartal' }] }, { 'x-api-key': bank }))).id;
  const read = await until(async () => json(await stack.fetch(`/api/backtest/${backtestId}`, { headers: { 'x-api-key': bank } })), (b) => b.status === 'completed', UI_TIMEOUT_MS);
  report = read.report;
  expect(report).toMatchObject({ observations: PRICES, refused: { count: 1 } });
  expect(report.byMonth.length).toBeGreaterThanOrEqual(3);
}, UI_TIMEOUT_MS);

/** As the page formats shares and biases (the bias as the share prices lay above the valuations, as the PDF prints it). */
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const signedPct = (x: number) => `${x >= 0 ? '+' : '−'}${pct(Math.abs(x))}`;

describe('the backtest panel in headless Chromium', () => {
  // Fails a test whose page threw or broke the CSP (vega's new Function, an inline style).
  const browser = useDashboardBrowser(() => stack.url, { acceptDownloads: true });

  async function openPanel(apiKey: string): Promise<Page> {
    const page = await browser.open();
    await page.fill('[data-testid="api-key"]', apiKey);
    await page.click('[data-testid="sign-in"]');
    await page.locator('[data-testid="backtest-open"]').click();
    return page;
  }

  const cell = async (row: Locator, testid: string) => (await row.locator(`[data-testid="${testid}"]`).textContent())?.trim();
  const row = (page: Page, table: string, group: string, series: string) => page.locator(`[data-testid="${table}"] [data-testid="backtest-row"][data-group="${group}"][data-series="${series}"]`);

  it('lists the backtest (not the portfolio), and shows its tables, plot and files with the API\'s values', async () => {
    const page = await openPanel(bank);
    const listed = page.locator('[data-testid="backtest-job"]');
    await listed.first().waitFor();
    expect(await listed.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-backtest-id')))).toEqual([backtestId]);
    expect(await page.locator(`[data-backtest-id="${portfolioId}"]`).count()).toBe(0);
    expect(await cell(listed.first(), 'backtest-job-status')).toBe('completed');
    expect(await cell(listed.first(), 'backtest-job-total')).toBe(`${PRICES + 1} (1 refused)`);

    await listed.first().locator('[data-testid="backtest-job-open"]').click();
    await page.locator('[data-testid="backtest-plot"] svg').waitFor();
    expect(await page.locator('[data-testid="backtest-report-id"]').textContent()).toBe(backtestId);
    expect(await page.locator('[data-testid="backtest-status"]').textContent()).toBe(`completed: ${PRICES + 1} of ${PRICES + 1} prices of homes scored, 1 refused`);
    expect(await page.locator('[data-testid="backtest-summary"]').textContent()).toMatch(new RegExp(`^${PRICES} prices of homes replayed, observed ${report.from} to ${report.to}, model \\S+, in ${report.fits} fits\\.$`));

    // Overall: the model alone about 20% low, on every price; re-anchored on the earlier ones, closer.
    for (const [series, m] of [['model alone', report.overall.modelAlone], ['re-anchored', report.overall.reanchored]] as const) {
      const overall = row(page, 'backtest-overall', 'All', series);
      expect(await cell(overall, 'n')).toBe(String(PRICES));
      expect(await cell(overall, 'median-ape')).toBe(pct(m.medianApe));
      expect(await cell(overall, 'within10')).toBe(pct(m.within10));
      expect(await cell(overall, 'bias')).toBe(signedPct(Math.expm1(m.bias.median)));
      expect(await cell(overall, 'coverage')).toBe(pct(m.coverage.share));
      expect(await cell(overall, 'width')).toBe(pct(m.medianWidth));
    }
    expect(await cell(row(page, 'backtest-overall', 'All', 'model alone'), 'bias')).toBe('+20.0%');

    // By month: two rows a month, as the API lists the months.
    expect(await page.locator('[data-testid="backtest-months"] [data-testid="backtest-row"]').count()).toBe(2 * report.byMonth.length);
    const last = report.byMonth.at(-1);
    expect(await cell(row(page, 'backtest-months', last.month, 're-anchored'), 'median-ape')).toBe(pct(last.reanchored.medianApe));
    expect(await cell(row(page, 'backtest-months', last.month, 're-anchored'), 'n')).toBe(String(last.reanchored.n));

    // The plot: a point a month for each series in each of its two charts, each saying its value.
    const points = await page.locator('[data-testid="backtest-plot"] svg [aria-roledescription="point"]').evaluateAll((found) => found.map((m) => m.getAttribute('aria-label') ?? ''));
    expect(points).toHaveLength(4 * report.byMonth.length);
    expect(points).toContain(`Model alone, ${last.month}: median bias ${signedPct(Math.expm1(last.modelAlone.bias.median))}, ${last.modelAlone.n} prices`);
    expect(points).toContain(`Re-anchored, ${last.month}: median APE ${pct(last.reanchored.medianApe)}, ${last.reanchored.n} prices`);

    // The files, fetched with the key: the PDF in the page's language.
    const files = page.locator('[data-testid="backtest-file"]');
    expect(await files.allTextContents()).toEqual(['PDF', 'CSV', 'Summary CSV']);
    expect(await files.first().getAttribute('href')).toBe(`${stack.url}/api/backtest/${backtestId}?format=pdf&lang=en`);
    const [download] = await Promise.all([page.waitForEvent('download'), files.first().click()]);
    expect(download.suggestedFilename()).toBe(`backtest-${backtestId}.pdf`);
    await download.saveAs(join(SCREENSHOTS, 'backtest.pdf'));

    await page.locator('#backtest-section').screenshot({ path: join(SCREENSHOTS, 'backtest-panel.png') });
  }, 300_000);

  it('an unknown id shows NOT_FOUND; a fresh organisation sees the empty state', async () => {
    const page = await openPanel(bank);
    await page.locator('[data-testid="backtest-job"]').first().waitFor();
    await page.fill('[data-testid="backtest-id"]', 'no-such-backtest');
    await page.click('[data-testid="backtest-show"]');
    const message = page.locator('[data-testid="message"].error');
    await message.waitFor({ state: 'visible' });
    expect(await message.textContent()).toBe('NOT_FOUND: No backtest no-such-backtest of your organisation');

    const fresh = await openPanel(stack.newKey());
    const none = fresh.locator('[data-testid="backtest-none"]');
    await none.waitFor({ state: 'visible' });
    expect(await none.textContent()).toMatch(/No backtests among your recent jobs/);
    expect(await fresh.locator('[data-testid="backtest-report"]').isVisible()).toBe(false);
  }, UI_TIMEOUT_MS);
});
