/**
 * The dashboard's Live accuracy panel (issue 18) in headless Chromium on the real stack: a bank
 * records 40 observed prices of flats in Chilanzar about 25% above what the model says (through
 * POST /api/observations, as test/observations-api/recording.test.ts does), then its key opens the
 * panel: vega plots of bias and coverage drawn as SVG under the page's CSP (no unsafe-eval), the
 * table with the group's 40 observations and its "valuations low" flag, the market factors; another
 * kind, and a fresh organisation, show the empty state; an API error shows its code and message.
 */
import type { Locator, Page } from 'playwright-core';
import { json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';
import { UI_TIMEOUT_MS, useDashboardBrowser } from './dashboard-browser';

const FLAT = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
const GROUP = 'Tashkent › Chilanzar';
const OBSERVATIONS = 40;
const today = () => new Date().toISOString().slice(0, 10);

const ACCURACY_QUERY = `query($kind: ObservationKind!, $level: String) {
  liveAccuracy(kind: $kind, level: $level) { overall { service { observations medianApe meanBias } base { medianApe } }
    groups { group service { observations medianApe meanBias meanBiasLow meanBiasHigh coverage coverageLow coverageHigh } base { medianApe meanBias } drift { flagged bias reasons } } }
  marketAdjustments(kind: $kind) { groups { group factor } }
}`;

let stack: SharedTestStack;
/** The bank that recorded observed prices. */
let bank: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  bank = stack.newKey();
  const reference = stack.newKey(); // the model alone: an organisation without observations
  const observations = [];
  for (let i = 0; i < OBSERVATIONS; i++) {
    const area = 40 + i;
    const base = await json(await stack.post('/api/predict/home', { ...FLAT, area }, { 'x-api-key': reference }));
    observations.push({ kind: 'home', ...FLAT, area, price_usd: Math.round(base.estimate * 1.25 * (1 + 0.08 * Math.sin(area))), observed_at: today() });
  }
  const recorded = await stack.post('/api/observations', { observations }, { 'x-api-key': bank });
  expect(recorded.status).toBe(200);
  expect((await json(recorded)).accepted).toBe(OBSERVATIONS);
}, UI_TIMEOUT_MS);

/** What the API says of the bank's homes: the page must show the same. */
async function accuracyOf(key: string, level: string | null = null) {
  const body = await json(await stack.post('/graphql', { query: ACCURACY_QUERY, variables: { kind: 'HOME', level } }, { 'x-api-key': key }));
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** As the page formats shares and log ratios (d3-format '.1%', '+.1%'). */
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const signedPct = (x: number) => `${x >= 0 ? '+' : '−'}${pct(Math.abs(x))}`;

it('the page keeps its CSP without unsafe-eval or inline scripts and styles', async () => {
  const csp = (await fetch(`${stack.url}/dashboard/`)).headers.get('content-security-policy')!;
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).not.toMatch(/unsafe-(eval|inline)/);
});

describe('the Live accuracy panel in headless Chromium', () => {
  // Fails a test whose page threw or broke the CSP (vega's new Function, an inline style).
  const browser = useDashboardBrowser(() => stack.url);

  /** The dashboard signed in with `apiKey`, the panel (still closed) showing. */
  async function signedIn(apiKey: string): Promise<Page> {
    const page = await browser.open();
    await page.fill('[data-testid="api-key"]', apiKey);
    await page.click('[data-testid="sign-in"]');
    await page.locator('[data-testid="accuracy-open"]').waitFor({ state: 'visible' });
    return page;
  }

  /** The same with the panel opened. */
  async function openPanel(apiKey: string): Promise<Page> {
    const page = await signedIn(apiKey);
    await page.click('[data-testid="accuracy-open"]');
    return page;
  }

  const row = (page: Page, group: string): Locator => page.locator(`[data-testid="accuracy-row"][data-group="${group}"]`);
  const cellText = async (scope: Locator, testid: string) => (await scope.locator(`[data-testid="${testid}"]`).textContent())?.trim();
  /** The descriptions (aria-label) of a plot's marks of one kind (aria-roledescription: point, error bar, band, reference, bar). */
  const marks = (page: Page, plot: string, role: string) =>
    page.locator(`[data-testid="${plot}"] svg [aria-roledescription="${role}"]`).evaluateAll((found) => found.map((m) => m.getAttribute('aria-label') ?? ''));

  it('plots the bank\'s bias and coverage per group with the API\'s values, and flags Chilanzar "valuations low"', async () => {
    const api = await accuracyOf(bank);
    const served = api.liveAccuracy.groups[0];
    expect(served).toMatchObject({ group: GROUP, service: { observations: OBSERVATIONS }, drift: { flagged: true, bias: 'valuations low' } });

    const page = await openPanel(bank);
    await page.locator('[data-testid="factor-plot"] svg').waitFor();
    for (const plot of ['bias-plot', 'coverage-plot', 'factor-plot']) expect(await page.locator(`[data-testid="${plot}"] svg`).count()).toBe(1);
    expect(await page.locator('[data-testid="accuracy-empty"]').isVisible()).toBe(false);
    expect(await cellText(page.locator('#accuracy-section'), 'accuracy-summary')).toMatch(new RegExp(`^${OBSERVATIONS} observed prices of homes as of \\d{4}-\\d{2}-\\d{2}, by district\\.`));

    // Bias: one point for the service and one for the model alone in each row (all groups, Chilanzar),
    // the service's 95% interval as an error bar, the ±3% band around 0.
    const points = await marks(page, 'bias-plot', 'point');
    expect(points).toHaveLength(4);
    const { service, base } = served;
    expect(points).toContain(`Service, ${GROUP}: mean bias ${signedPct(service.meanBias)}, 95% interval ${signedPct(service.meanBiasLow)} to ${signedPct(service.meanBiasHigh)}, ${OBSERVATIONS} observations`);
    expect(points).toContain(`Model alone, ${GROUP}: mean bias ${signedPct(base.meanBias)}, 95% interval none, ${OBSERVATIONS} observations`);
    expect(points.filter((label) => label.startsWith('Service, All groups:'))).toHaveLength(1);
    expect(await marks(page, 'bias-plot', 'error bar')).toHaveLength(2);
    expect(await marks(page, 'bias-plot', 'band')).toEqual(["The drift rule's band of mean bias"]);
    expect(await marks(page, 'bias-plot', 'reference')).toEqual(['Reference mean bias']);

    // Coverage: the same rows with the Wilson intervals, the band 85–95% and the 90% rule.
    const coverage = await marks(page, 'coverage-plot', 'point');
    expect(coverage).toHaveLength(4);
    expect(coverage).toContain(`Service, ${GROUP}: coverage ${pct(service.coverage)}, 95% interval ${pct(service.coverageLow)} to ${pct(service.coverageHigh)}, ${OBSERVATIONS} observations`);
    expect(await marks(page, 'coverage-plot', 'error bar')).toHaveLength(2);
    expect(await marks(page, 'coverage-plot', 'band')).toHaveLength(1);

    // The table: the group's observations, median APE of the service and the model alone, its flag.
    const chilanzar = row(page, GROUP);
    expect(await cellText(chilanzar, 'observations')).toBe(String(OBSERVATIONS));
    expect(await cellText(chilanzar, 'ape-service')).toBe(pct(served.service.medianApe));
    expect(await cellText(chilanzar, 'ape-base')).toBe(pct(served.base.medianApe));
    expect(await chilanzar.locator('[data-testid="drift-flag"]').allTextContents()).toContain('valuations low');
    expect(await chilanzar.getAttribute('class')).toContain('flagged');
    expect(await cellText(chilanzar, 'drift-reasons')).toContain(served.drift.reasons[0]);
    expect(await cellText(row(page, 'All groups'), 'observations')).toBe(String(OBSERVATIONS));
    expect(await cellText(page.locator('#accuracy-section'), 'drift-rule')).toContain('95% interval');

    // The market factors: one bar a group the API lists, each with its factor.
    const bars = await marks(page, 'factor-plot', 'bar');
    expect(bars).toHaveLength(api.marketAdjustments.groups.length);
    const district = api.marketAdjustments.groups.find((g: { group: string }) => g.group === GROUP);
    expect(district.factor).toBeGreaterThan(1.1);
    expect(bars).toContain(`${GROUP} (district): factor ${district.factor.toFixed(3)}, ${OBSERVATIONS} observations`);

    // Grouped by district and market instead: the segment.
    await page.selectOption('[data-testid="accuracy-level"]', 'segment');
    await row(page, `${GROUP} › resale`).waitFor();
    expect(await cellText(row(page, `${GROUP} › resale`), 'observations')).toBe(String(OBSERVATIONS));
    expect(await page.locator('[data-testid="accuracy-row"]').count()).toBe(2);

    // Vehicles: the bank has observed none.
    await page.selectOption('[data-testid="accuracy-kind"]', 'VEHICLE');
    const empty = page.locator('[data-testid="accuracy-empty"]');
    await empty.waitFor({ state: 'visible' });
    expect(await empty.textContent()).toContain('No observed prices of vehicles yet. Record observed prices with POST /api/observations');
    expect(await page.locator('[data-testid="accuracy-report"]').isVisible()).toBe(false);
    expect(await page.locator('[data-testid="accuracy-level"] option').evaluateAll((options) => options.map((o) => o.getAttribute('value')))).toEqual(['make', 'model']);
  }, 300_000);

  it('a fresh organisation sees the empty state, and no plot', async () => {
    const page = await openPanel(stack.newKey());
    const empty = page.locator('[data-testid="accuracy-empty"]');
    await empty.waitFor({ state: 'visible' });
    expect(await empty.textContent()).toMatch(/^No observed prices of homes yet\. Record observed prices with POST \/api\/observations/);
    expect(await page.locator('[data-testid="accuracy-report"]').isVisible()).toBe(false);
    expect(await page.locator('#accuracy-section svg').count()).toBe(0);
    expect(await page.locator('[data-testid="message"]').isVisible()).toBe(false);
  }, UI_TIMEOUT_MS);

  it("an error from the API shows its code and message, as the rest of the page does", async () => {
    const created = stack.keys.create({ org: `dashboard-accuracy-${process.pid}-${Date.now()}`, plan: 'standard' });
    const page = await signedIn(created.key);
    await stack.revokeKey(created.record.id, created.key); // revoked after signing in: the panel's query is refused
    await page.click('[data-testid="accuracy-open"]');
    const message = page.locator('[data-testid="message"].error');
    await message.waitFor({ state: 'visible' });
    expect(await message.textContent()).toBe('INVALID_API_KEY: The API key is invalid or revoked');
    expect(await page.locator('[data-testid="accuracy-report"]').isVisible()).toBe(false);
    expect(await page.locator('[data-testid="accuracy-empty"]').isVisible()).toBe(false);
  }, UI_TIMEOUT_MS);
});
