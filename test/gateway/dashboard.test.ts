/**
 * GET /dashboard: the built page and its assets over HTTP, the 503 when the page is not built, and
 * the page itself in headless Chromium (Debian's, driven by playwright-core: no browser download):
 * sign in with a key, upload a CSV, watch the job reach 100% live, download its results; a bad key
 * or a refused upload shows the API's error on the page.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import Fastify from 'fastify';
import type { Page } from 'playwright-core';
import { registerDashboard } from '../../gateway/dashboard';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';
import { json } from '../support/stack';
import { UI_TIMEOUT_MS, useDashboardBrowser } from './dashboard-browser';

const ADDRESSES = ['Chilonzor tumani, 13-kvartal', 'Юнусабад 8-й квартал', "Toshkent sh., Mirzo Ulug'bek tumani, Buyuk Ipak Yo'li ko'chasi", 'Куйлюк-5', 'массив Карасу-3', 'Сергели-IV'];
const ITEMS = 120;

/** ITEMS rows: every tenth with a home to value, one address that cannot be placed (a failed item still has its row). */
function portfolioCsv(): string {
  const rows = ['address,area,rooms,floor,total_floors'];
  for (let i = 0; i < ITEMS; i++) {
    const address = i === 7 ? 'qwzx blorf' : ADDRESSES[i % ADDRESSES.length];
    const quoted = `"${address.replace(/"/g, '""')}"`;
    rows.push(i % 10 === 0 ? `${quoted},65,3,4,9` : `${quoted},,,,`);
  }
  return `${rows.join('\r\n')}\r\n`;
}

let stack: SharedTestStack;
let key: string;
let workDir: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'dashboard-test-'));
  // The worker's shared stack: the service with its defaults, this file's jobs under an organisation of its own.
  stack = await sharedTestStack();
  key = stack.newKey('enterprise');
}, 120_000);
afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('GET /dashboard over HTTP', () => {
  it('redirects /dashboard to /dashboard/, which is the built page, public and same-origin only', async () => {
    const bare = await fetch(`${stack.url}/dashboard?x=1`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(new URL(bare.headers.get('location')!, `${stack.url}/dashboard?x=1`).href).toBe(`${stack.url}/dashboard/?x=1`);

    const page = await fetch(`${stack.url}/dashboard/`); // no key: the page is public
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).toContain('id="csv-file"');
    const script = /<script type="module"[^>]* src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    const style = /<link rel="stylesheet"[^>]* href="\.\/(assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();

    const js = await fetch(`${stack.url}/dashboard/${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect(await js.text()).toContain('graphql-transport-ws');
    const css = await fetch(`${stack.url}/dashboard/${style}`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('an unknown file is a JSON 404', async () => {
    const response = await fetch(`${stack.url}/dashboard/assets/nope.js`);
    expect(response.status).toBe(404);
    expect((await json(response)).error.code).toBe('NOT_FOUND');
  });

  it('without a build the page answers 503 with a clear error, and the app still starts', async () => {
    const app = Fastify();
    const logged: string[] = [];
    await registerDashboard(app, { root: join(workDir, 'not-built'), log: (m) => logged.push(m) });
    // Over a socket: app.inject's cookie dependency is ESM, which jest does not load.
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${base}/dashboard/`);
    expect(response.status).toBe(503);
    const body = await json(response);
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.error.message).toMatch(/dashboard is not built.*npm run build/);
    expect(logged.join('\n')).toMatch(/dashboard not built/);
    await app.close();
  });
});

describe('the dashboard in headless Chromium', () => {
  // Fails a test whose page threw or broke the CSP.
  const browser = useDashboardBrowser(() => stack.url, { acceptDownloads: true });
  const openDashboard = () => browser.open();

  async function signIn(page: Page, apiKey: string): Promise<void> {
    await page.fill('[data-testid="api-key"]', apiKey);
    await page.click('[data-testid="sign-in"]');
  }

  const text = async (page: Page, selector: string) => (await page.locator(selector).textContent())?.trim();

  it('a CSV submitted on the page reaches 100% and completed live, and its results download with one row per item', async () => {
    const page = await openDashboard();
    await signIn(page, key);
    await page.locator('[data-testid="upload-form"]').waitFor({ state: 'visible' });
    expect(await page.evaluate('sessionStorage.length')).toBe(1);

    const csvPath = join(workDir, 'portfolio.csv');
    writeFileSync(csvPath, portfolioCsv());
    await page.setInputFiles('[data-testid="csv-file"]', csvPath);
    await page.click('[data-testid="submit-batch"]');

    const job = page.locator('[data-testid="job"]');
    await job.first().waitFor({ state: 'visible' });
    expect(await job.count()).toBe(1); // a new organisation: only this job
    const id = await job.first().getAttribute('data-job-id');
    expect(id).toBeTruthy();
    expect(await text(page, '[data-testid="message"]')).toContain(`job ${id}, ${ITEMS} items`);

    // Only the subscription updates a row (the page does not poll), so this is the live progress.
    await page.locator('[data-testid="job-status"]', { hasText: /^completed$/ }).waitFor();
    expect(await text(page, '[data-testid="job-percent"]')).toBe('100%');
    expect(await page.locator('[data-testid="job-progress"]').getAttribute('value')).toBe('100');
    expect(await page.locator('[data-testid="job-progress"]').getAttribute('aria-valuenow')).toBe('100');
    expect(await text(page, '[data-testid="job-details"]')).toContain(`${ITEMS} of ${ITEMS} processed`);

    // The service agrees.
    const served = await json(await fetch(`${stack.url}/api/batch/${id}`, { headers: { 'x-api-key': key } }));
    expect(served).toMatchObject({ status: 'completed', total: ITEMS, processed: ITEMS, failed: 1, file_name: 'portfolio.csv' });

    // The job is named by its file, with when it was submitted and its counts (not by its UUID alone).
    expect(await text(page, '[data-testid="job-name"]')).toBe('portfolio.csv');
    expect(await page.locator('[data-testid="job-submitted"]').getAttribute('datetime')).toBe(served.created_at);
    expect(await text(page, '[data-testid="job-submitted"]')).toMatch(new RegExp(`^Submitted .*${new Date(served.created_at).getUTCFullYear()}`));
    expect(await text(page, '[data-testid="job-counts"]')).toBe(`${ITEMS} items · ${ITEMS - 1} done · 1 failed`);
    expect(await text(page, '[data-testid="job-id"]')).toBe(id);
    // Its portfolio says the file's name too.
    await page.click('[data-testid="job-portfolio"]');
    await page.locator('[data-testid="portfolio"][data-state="ready"]').waitFor();
    expect(await text(page, '[data-testid="portfolio-name"]')).toBe('portfolio.csv');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="job-download"]')]);
    expect(download.suggestedFilename()).toBe(`batch-${id}.csv`);
    const downloaded = readFileSync((await download.path())!, 'utf8');
    const rows = parseCsv(downloaded, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(ITEMS);
    expect(rows.map((r) => Number(r.index))).toEqual(Array.from({ length: ITEMS }, (_, i) => i));
    expect(rows[7]).toMatchObject({ ok: 'false', error_code: 'UNRESOLVABLE_ADDRESS' });
    expect(rows[0]).toMatchObject({ ok: 'true', address: ADDRESSES[0] });
    expect(Number(rows[0].estimate)).toBeGreaterThan(10_000);

    // A job sent through the API without file_name has none, and says so; the uploaded one keeps its name after a reload (the service keeps it).
    const other = await json(await stack.post('/api/batch', { items: [{ address: ADDRESSES[0] }] }, { 'x-api-key': key }));
    await page.reload();
    const otherRow = page.locator(`[data-testid="job"][data-job-id="${other.id}"]`);
    await otherRow.waitFor();
    expect(await otherRow.locator('[data-testid="job-name"]').textContent()).toBe('No file name');
    expect(await otherRow.locator('[data-testid="job-counts"]').textContent()).toMatch(/^1 item · [01] done · 0 failed$/);
    expect(await page.locator(`[data-testid="job"][data-job-id="${id}"] [data-testid="job-name"]`).textContent()).toBe('portfolio.csv');

  }, 300_000);

  it("a bad key shows the API's error and nothing else", async () => {
    const page = await openDashboard();
    await signIn(page, 'tvk_not_a_key');
    const message = page.locator('[data-testid="message"].error');
    await message.waitFor({ state: 'visible' });
    expect(await message.textContent()).toBe('INVALID_API_KEY: The API key is invalid or revoked');
    expect(await page.locator('[data-testid="upload-form"]').isVisible()).toBe(false);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  }, UI_TIMEOUT_MS);

  it("an upload the API refuses shows its code and message", async () => {
    const page = await openDashboard();
    await signIn(page, key);
    await page.locator('[data-testid="upload-form"]').waitFor({ state: 'visible' });
    const csvPath = join(workDir, 'bad.csv');
    writeFileSync(csvPath, 'address,colour\nChilonzor,red\n');
    await page.setInputFiles('[data-testid="csv-file"]', csvPath);
    await page.click('[data-testid="submit-batch"]');
    const message = page.locator('[data-testid="message"].error');
    await message.waitFor({ state: 'visible' });
    expect(await message.textContent()).toMatch(/^INVALID_PARAMETER: Column "colour" is not address, reference or a home field/);
  }, UI_TIMEOUT_MS);
});
