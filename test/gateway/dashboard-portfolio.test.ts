/**
 * The dashboard's portfolio view (issue 19) in headless Chromium on the real stack: a bank submits
 * a batch of homes and addresses through POST /api/batch (one home far larger than its district's
 * flats, one asked far above its interval, one address that is markup, one that cannot be placed),
 * and once it is completed opens its portfolio on the page: the map with one point per placed item
 * over the 12 district outlines (served as a static file of the page, built from
 * data/geo/tashkent_districts.geojson), the histogram of values, the homes by confidence, the items
 * the anomaly checks flagged, the totals by district and the items page by page, all agreeing with
 * the results the API streams. Then, with the results rewritten in the browser: a valuation_id gives
 * each row links to the valuation's record and report, fetched with the key; a job far larger than
 * the map's cap is drawn from an even sample on a canvas, and the page says so.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { Page, Route } from 'playwright-core';
import { dictionary } from '../../gateway/reports/i18n';
import { DISTRICT_NAMES } from '../../models/vocabulary';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';
import { json } from '../support/stack';
import { until } from '../support/wait';
import { UI_TIMEOUT_MS, useDashboardBrowser } from './dashboard-browser';

const MARKUP = '<img src=x onerror=alert(1)>';
const flat = (area: number, rooms: number, floor: number, totalFloors: number) => ({ area, rooms, floor, total_floors: totalFloors });
const ITEMS = [
  { address: `${MARKUP} Chilonzor tumani, 13-kvartal`, home: flat(54, 2, 3, 9) },
  { address: "Toshkent sh., Mirzo Ulug'bek tumani, Buyuk Ipak Yo'li ko'chasi", home: flat(72, 3, 5, 9) },
  { address: 'Куйлюк-5', home: flat(48, 2, 2, 5) },
  { address: 'массив Карасу-3', home: flat(60, 3, 7, 9) },
  { address: 'Yakkasaroy tumani', home: flat(80, 3, 4, 12) },
  { address: 'Chilonzor tumani, 13-kvartal', home: flat(65, 3, 4, 9) },
  // 900 m²: far outside the district's range of flats.
  { address: 'Юнусабад 8-й квартал', home: flat(900, 3, 4, 9) },
  // Asked at 2,000,000 USD: far above its interval.
  { address: 'Юнусабад 8-й квартал', home: { ...flat(65, 3, 4, 9), asking_price: 2_000_000 } },
  { address: 'Сергели-IV' },
  { address: 'Юнусабад 8-й квартал' },
  { address: 'qwzx blorf' },
  // Placed at a mahalla's centre (two, co-located) and at a district's centre (one more at Yakkasaroy's).
  { address: 'Mirobod tumani, Inoqobod MFY', home: flat(58, 2, 3, 9) },
  { address: 'Mirobod tumani, Inoqobod MFY' },
  { address: 'Mirobod tumani' },
  { address: 'Yakkasaroy tumani' },
];
/** The flags' names and meanings, as the reports give them in English. */
const FLAG_TEXTS = dictionary('en').flags;
/** Where the test leaves its screenshot of the page (not committed): look at it. */
const SCREENSHOTS = join(tmpdir(), 'dashboard-portfolio');

interface Line {
  index: number;
  ok: boolean;
  result: {
    address: string;
    geocode: { lat: number; lon: number; precision: string; district: string; mahalla: string | null };
    location_index: { composite: number | null; district: string };
    home?: { estimate: number; currency: string; price_per_m2: number; confidence: { level: string }; anomaly: { flags: string[] }; valuation_id?: string };
  } | null;
  error: { code: string; message: string } | null;
}

/** A job far larger than the map's cap of 20,000 points, as results rewritten in the browser. */
const LARGE = 45_000;
const FLAG_EVERY = 9;

/**
 * LARGE results as NDJSON: every third item a valued home, every ninth of those flagged, over two
 * districts, at quarters' centres: 17,266 of them (a point per remainder of i by 2, 97 and 89), or,
 * `ownPoints`, each item at a point of its own.
 */
function syntheticResults(ownPoints = false): string {
  const out: string[] = [];
  for (let i = 0; i < LARGE; i++) {
    const district = i % 2 ? 'Chilanzar' : 'Yunusabad';
    const [lat, lon] = ownPoints
      ? [41.25 + (i % 300) * 0.0004, 69.17 + Math.floor(i / 300) * 0.0012]
      : i % 2 ? [41.285 + (i % 97) * 0.0002, 69.2 + (i % 89) * 0.0002] : [41.36 + (i % 97) * 0.0002, 69.28 + (i % 89) * 0.0002];
    const home = i % 3 === 0
      ? { estimate: 50_000 + (i % 1000) * 100, currency: 'USD', price_per_m2: 1000 + (i % 1000), confidence: { level: ['high', 'medium', 'low'][(i / 3) % 3] }, anomaly: { flags: i % (3 * FLAG_EVERY) === 0 ? ['FAR_FROM_DISTRICT_MEDIAN'] : [] } }
      : undefined;
    out.push(JSON.stringify({ index: i, ok: true, result: { address: `Synthetic ${i}`, geocode: { lat, lon, precision: 'quarter', district, mahalla: null }, location_index: { composite: 40 + (i % 50) }, ...(home && { home }) }, error: null }));
  }
  return `${out.join('\n')}\n`;
}

/**
 * The analyst's portfolio: 463 items piled on 102 points. 60 at streets' points of their own, 150
 * on 20 quarters' centres, 100 on 10 mahallas' centres and 153 on the 12 districts' centres; every
 * other item a valued home.
 */
const PILED = { items: 463, street: 60, quarter: [150, 20], mahalla: [100, 10], district: [153, 12] } as const;
function piledResults(): Line[] {
  const lines: Line[] = [];
  const place = (precision: string, site: number) => {
    const at = { street: 0, quarter: 60, mahalla: 80, district: 90 }[precision]! + site;
    return { precision, lat: 41.225 + (at % 10) * 0.0155, lon: 69.165 + Math.floor(at / 10) * 0.0175 };
  };
  for (let i = 0; i < PILED.items; i++) {
    const geocode =
      i < 60 ? place('street', i)
        : i < 210 ? place('quarter', (i - 60) % 20)
          : i < 310 ? place('mahalla', (i - 210) % 10)
            : place('district', (i - 310) % 12);
    const home = i % 2 ? undefined : { estimate: 60_000 + i * 10, currency: 'USD', price_per_m2: 900 + i, confidence: { level: 'medium' }, anomaly: { flags: [] } };
    lines.push({ index: i, ok: true, result: { address: `Piled ${i}`, geocode: { ...geocode, district: 'Yunusabad', mahalla: geocode.precision === 'mahalla' ? 'Bodomzor' : null }, location_index: { composite: 50 + (i % 7), district: 'Yunusabad' }, ...(home && { home }) }, error: null });
  }
  return lines;
}

let stack: SharedTestStack;
let key: string;
let jobId: string;
let lines: Line[];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The worker's shared stack: the service with its defaults, this file's jobs under an organisation of its own.
  stack = await sharedTestStack();
  key = stack.newKey('enterprise');
  const submitted = await stack.post('/api/batch', { items: ITEMS }, { 'x-api-key': key });
  expect(submitted.status).toBe(202);
  jobId = (await json(submitted)).id;
  const get = (path: string) => stack.fetch(path, { headers: { 'x-api-key': key } });
  const job = await until(async () => json(await get(`/api/batch/${jobId}`)), (j) => ['completed', 'failed', 'cancelled'].includes(j.status), UI_TIMEOUT_MS);
  expect(job).toMatchObject({ status: 'completed', total: ITEMS.length, failed: 1 });
  lines = (await (await get(`/api/batch/${jobId}/results`)).text()).trim().split('\n').map((line) => JSON.parse(line) as Line);
  expect(lines).toHaveLength(ITEMS.length);
}, UI_TIMEOUT_MS);

const placed = () => lines.filter((l) => l.ok);
const valued = () => placed().filter((l) => l.result!.home);
const flagged = () => valued().filter((l) => l.result!.home!.anomaly.flags.length > 0);

/** As the page formats numbers. */
const whole = (x: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(x);
const oneDecimal = (x: number) => new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** How the page names the precision of the point an item was placed at. */
const PLACED_AT: Record<string, string> = { street: "a street's point", quarter: "a quarter's centre", mahalla: "a mahalla's centre", district: "a district's centre" };
const PRECISIONS = Object.keys(PLACED_AT);
const plural = (n: number, one: string, many: string) => `${whole(n)} ${n === 1 ? one : many}`;

/** The points the results placed items at, one per position and precision, in the order first met. */
interface Site {
  precision: string;
  lines: Line[];
}
function sitesOf(ok: readonly Line[]): Site[] {
  const sites = new Map<string, Site>();
  for (const line of ok) {
    const { precision, lon, lat } = line.result!.geocode;
    const key = `${precision}|${lon}|${lat}`;
    if (!sites.has(key)) sites.set(key, { precision, lines: [] });
    sites.get(key)!.lines.push(line);
  }
  return [...sites.values()];
}

/** A point's description as the map gives it (aria-label); items numbered from 1. */
function siteLabel({ precision, lines: group }: Site): string {
  const { district, mahalla } = group[0].result!.geocode;
  const where = `at ${PLACED_AT[precision]} in ${district}${mahalla ? `, mahalla ${mahalla}` : ''}`;
  const homes = group.flatMap((l) => (l.result!.home ? [l.result!.home] : []));
  const composites = group.flatMap((l) => (l.result!.location_index.composite === null ? [] : [l.result!.location_index.composite]));
  const index = composites.length ? oneDecimal(composites.reduce((a, b) => a + b, 0) / composites.length) : 'none';
  if (group.length === 1) return `Item ${group[0].index + 1} ${where}: ${homes.length ? `${whole(homes[0].price_per_m2)} ${homes[0].currency} per m²` : 'no home valued'}, location index ${index}`;
  const numbers = group.slice(0, 5).map((l) => String(l.index + 1));
  const list = group.length > 5 ? `${numbers.join(', ')} and ${group.length - 5} more` : `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
  const value = homes.length ? `mean ${whole(homes.reduce((sum, h) => sum + h.price_per_m2, 0) / homes.length)} ${homes[0].currency} per m² over ${plural(homes.length, 'valued home', 'valued homes')}` : 'no home valued';
  return `${group.length} items (items ${list}) ${where}: ${value}, location index ${index}`;
}

/** Items and points per precision, as the map's caption says them. */
function precisionParts(sites: readonly Site[]): string {
  return PRECISIONS.flatMap((precision) => {
    const of = sites.filter((s) => s.precision === precision);
    const items = of.reduce((n, s) => n + s.lines.length, 0);
    return of.length ? [`${plural(items, 'item', 'items')} at ${PLACED_AT[precision]} (${plural(of.length, 'point', 'points')})`] : [];
  }).join(', ');
}

/** The map's caption when it shows every placed item. */
function allShown(ok: readonly Line[]): string {
  const sites = sitesOf(ok);
  return `The map shows all ${plural(ok.length, 'placed item', 'placed items')} at ${plural(sites.length, 'point', 'points')}: ${precisionParts(sites)}.`;
}

interface Box { left: number; top: number; right: number; bottom: number }
interface MapGeometry {
  markers: { label: string; shape: string; box: Box }[];
  labels: { kind: 'district' | 'count'; text: string; opacity: number; box: Box }[];
}

/** The map's markers (their description, the commands of their outline) and its texts, with their boxes on the page. */
async function mapGeometry(page: Page): Promise<MapGeometry> {
  // A string: the test's TypeScript has no DOM types.
  return page.evaluate(`(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
    const svg = document.querySelector('[data-testid="portfolio-map"] svg');
    const markers = [...svg.querySelectorAll('[aria-roledescription="point"]')]
      .map((e) => ({ label: e.getAttribute('aria-label') ?? '', shape: (e.getAttribute('d') ?? '').replace(/[^A-Za-z]/g, ''), box: box(e) }));
    const labels = [...svg.querySelectorAll('g.district-labels text, g.site-counts text')]
      .filter((e) => e.textContent !== '')
      .map((e) => ({ kind: e.closest('g.district-labels') ? 'district' : 'count', text: e.textContent, opacity: Number(getComputedStyle(e).opacity), box: box(e) }));
    return { markers, labels };
  })()`);
}

const overlap = (a: Box, b: Box) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
const inside = (a: Box, b: Box) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;

/**
 * One marker per point, one shape per precision (a different one for each), each point of several
 * items with its count inside its own marker, and no district name over any marker.
 */
function expectDrawnAsSites(geometry: MapGeometry, sites: readonly Site[]): void {
  expect(geometry.markers.map((m) => m.label).sort()).toEqual(sites.map(siteLabel).sort());
  const byLabel = new Map(sites.map((site) => [siteLabel(site), site]));
  const shapes = new Map<string, Set<string>>();
  for (const marker of geometry.markers) {
    const precision = byLabel.get(marker.label)!.precision;
    shapes.set(precision, new Set([...(shapes.get(precision) ?? []), marker.shape]));
  }
  for (const found of shapes.values()) expect(found.size).toBe(1);
  expect(new Set([...shapes.values()].map((found) => [...found][0])).size).toBe(shapes.size);

  const counts = geometry.labels.filter((l) => l.kind === 'count');
  expect(counts.map((l) => Number(l.text)).sort((a, b) => a - b)).toEqual(sites.filter((s) => s.lines.length > 1).map((s) => s.lines.length).sort((a, b) => a - b));
  for (const count of counts) {
    expect(count.opacity).toBeGreaterThan(0);
    const own = geometry.markers.filter((m) => inside(count.box, m.box) && byLabel.get(m.label)!.lines.length === Number(count.text));
    expect(own.length).toBeGreaterThan(0);
  }
  const names = geometry.labels.filter((l) => l.kind === 'district' && l.opacity > 0);
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) for (const marker of geometry.markers) expect({ name: name.text, marker: marker.label, overlap: overlap(name.box, marker.box) }).toEqual({ name: name.text, marker: marker.label, overlap: false });
}

describe('the district outlines, a static file of the page', () => {
  interface Outlines {
    type: string;
    attribution: string;
    features: { properties: { id: string; name: string }; geometry: { type: string; coordinates: number[][][][] } }[];
  }

  it('are served same-origin with the page, 12 districts named as results name them, small, and hold the points placed in them', async () => {
    const response = await fetch(`${stack.url}/dashboard/district-outlines.json`); // public, like the page
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const text = await response.text();
    expect(text.length).toBeLessThan(150_000);
    const outlines = JSON.parse(text) as Outlines;
    expect(outlines.type).toBe('FeatureCollection');
    expect(outlines.attribution).toMatch(/OpenStreetMap/);
    expect(outlines.features.map((f) => f.properties.name).sort()).toEqual(Object.values(DISTRICT_NAMES).sort());

    for (const feature of outlines.features) {
      expect(feature.geometry.type).toBe('MultiPolygon');
      for (const [exterior, ...holes] of feature.geometry.coordinates) {
        // Wound for d3-geo: exterior clockwise, holes anticlockwise (else a ring is the rest of the globe).
        const area = (ring: number[][]) => ring.reduce((sum, [x, y], i) => { const [px, py] = ring[(i || ring.length) - 1]; return sum + px * y - x * py; }, 0);
        expect(area(exterior)).toBeLessThan(0);
        for (const hole of holes) expect(area(hole)).toBeGreaterThan(0);
      }
    }
    // The location index names the district a point lies in: its outline holds the point.
    for (const line of placed()) {
      const { lat, lon } = line.result!.geocode;
      const outline = outlines.features.find((f) => f.properties.name === line.result!.location_index.district)!;
      expect(booleanPointInPolygon([lon, lat], outline.geometry as never)).toBe(true);
    }
  });
});

describe('the portfolio view in headless Chromium', () => {
  // Fails a test whose page threw or broke the CSP.
  const browser = useDashboardBrowser(() => stack.url, { acceptDownloads: true });

  /** The dashboard signed in, the job's portfolio opened and drawn. */
  async function openPortfolio(setUp?: (page: Page) => Promise<void>): Promise<{ page: Page; dialogs: string[] }> {
    const page = await browser.open();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await setUp?.(page);
    await page.fill('[data-testid="api-key"]', key);
    await page.click('[data-testid="sign-in"]');
    const row = page.locator(`[data-testid="job"][data-job-id="${jobId}"]`);
    await row.locator('[data-testid="job-status"]', { hasText: /^completed$/ }).waitFor();
    await row.locator('[data-testid="job-portfolio"]').click();
    // Ready, or failing at once with the page's message.
    await page.locator('[data-testid="portfolio"][data-state="ready"], [data-testid="portfolio"][data-state="error"]').waitFor();
    expect({ state: await page.locator('[data-testid="portfolio"]').getAttribute('data-state'), message: await page.locator('[data-testid="message"]').textContent() }).toEqual({ state: 'ready', message: '' });
    return { page, dialogs };
  }

  /** The descriptions (aria-label) of a plot's marks of one kind. */
  const marks = (page: Page, plot: string, role: string) =>
    page.locator(`[data-testid="${plot}"] svg [aria-roledescription="${role}"]`).evaluateAll((found) => found.map((m) => m.getAttribute('aria-label') ?? ''));
  const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

  /** Pixels of a screenshot of `selector` that are not white (decoded in the page: its CSP allows data: images). */
  async function nonWhiteShare(page: Page, selector: string): Promise<{ share: number; colours: number }> {
    const png = await page.locator(selector).screenshot();
    // A string: the test's TypeScript has no DOM types.
    return page.evaluate(`(async () => {
      const image = new Image();
      image.src = 'data:image/png;base64,${png.toString('base64')}';
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      let nonWhite = 0;
      const colours = new Set();
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240) nonWhite++;
        colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      }
      return { share: nonWhite / (data.length / 4), colours: colours.size };
    })()`);
  }

  it('shows the map, the values, the confidence, the flagged items and the totals by district of a completed job, as the results say', async () => {
    const { page, dialogs } = await openPortfolio();
    expect(await page.locator('[data-testid="portfolio-job"]').textContent()).toBe(jobId);
    const ok = placed();
    const homes = valued();
    expect(await page.locator('[data-testid="portfolio-summary"]').textContent()).toBe(
      `${ITEMS.length} items: ${ok.length} placed and scored (${homes.length} homes valued, ${ok.length - homes.length} address only), 1 failed. ${flagged().length} items flagged by the anomaly checks.`,
    );

    // The map: one marker per point the results placed items at (items share points: quarters',
    // mahallas' and districts' centres), its shape saying how precise the point is, over the 12 district outlines.
    const map = page.locator('[data-testid="portfolio-map"]');
    expect(await map.getAttribute('data-renderer')).toBe('svg');
    expect(await map.locator('svg').count()).toBe(1);
    const districts = await marks(page, 'portfolio-map', 'district');
    expect(districts.sort()).toEqual(Object.values(DISTRICT_NAMES).sort());
    const sites = sitesOf(ok);
    expect(new Set(sites.map((s) => s.precision))).toEqual(new Set(PRECISIONS));
    expect(sites.length).toBeLessThan(ok.length);
    expect(await map.getAttribute('data-points')).toBe(String(sites.length));
    expectDrawnAsSites(await mapGeometry(page), sites);
    expect(await page.locator('[data-testid="portfolio-map-note"]').textContent()).toContain(`${allShown(ok)} `);
    expect(await page.locator('[data-testid="portfolio-map-note"]').textContent()).toContain('Grey: no home valued there.');
    const screenshot = join(SCREENSHOTS, 'portfolio.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    await map.screenshot({ path: join(SCREENSHOTS, 'map-by-price-per-m2.png') });
    const drawn = await nonWhiteShare(page, '[data-testid="portfolio-map"]');
    expect(drawn.share).toBeGreaterThan(0.02);
    expect(drawn.colours).toBeGreaterThan(8);

    // Coloured by location index instead: the same points.
    await page.selectOption('[data-testid="portfolio-colour"]', 'composite');
    await page.locator('[data-testid="portfolio-map"][data-colour-by="composite"] svg').waitFor();
    expect(await marks(page, 'portfolio-map', 'point')).toHaveLength(sites.length);
    expect(await page.locator('[data-testid="portfolio-map-note"]').textContent()).toContain('Grey: no location index there.');
    await page.locator('[data-testid="portfolio-map"]').screenshot({ path: join(SCREENSHOTS, 'map-by-location-index.png') });

    // The histogram: every valued home in one bar; by estimate too.
    const countOf = (label: string) => Number(/: (\d+) homes?$/.exec(label)?.[1]);
    const bars = await marks(page, 'portfolio-histogram', 'bar');
    expect(bars.length).toBeGreaterThan(1);
    expect(bars.reduce((sum, label) => sum + countOf(label), 0)).toBe(homes.length);
    // Each bar counts the homes whose price per m² lies in it.
    for (const label of bars) {
      const [, start, end] = /^([\d,.]+) to ([\d,.]+) USD: /.exec(label)!.map((n) => Number(n.replace(/,/g, '')));
      expect(countOf(label)).toBe(homes.filter((l) => l.result!.home!.price_per_m2 >= start && l.result!.home!.price_per_m2 < end).length);
    }
    for (const plot of ['histogram', 'confidence']) await page.locator(`[data-testid="portfolio-${plot}"]`).screenshot({ path: join(SCREENSHOTS, `${plot}.png`) });
    await page.selectOption('[data-testid="portfolio-measure"]', 'estimate');
    await page.locator('[data-testid="portfolio-histogram"][data-measure="estimate"] svg').waitFor();
    expect((await marks(page, 'portfolio-histogram', 'bar')).reduce((sum, label) => sum + countOf(label), 0)).toBe(homes.length);

    // Confidence: homes per level, high to low.
    const levels = ['high', 'medium', 'low'].map((level) => [level, homes.filter((l) => l.result!.home!.confidence.level === level).length] as const);
    expect(await marks(page, 'portfolio-confidence', 'bar')).toEqual(levels.map(([level, n]) => `${level}: ${n} ${n === 1 ? 'home' : 'homes'}`));

    // Flagged: exactly the homes with anomaly flags (the big flat and the one asked far too high among them).
    const expectedFlagged = flagged();
    expect(expectedFlagged.map((l) => l.index)).toEqual(expect.arrayContaining([6, 7]));
    expect(expectedFlagged.length).toBeLessThan(homes.length);
    expect(expectedFlagged.find((l) => l.index === 6)!.result!.home!.anomaly.flags).toContain('AREA_OUTSIDE_DISTRICT_RANGE');
    expect(expectedFlagged.find((l) => l.index === 7)!.result!.home!.anomaly.flags).toContain('ASKING_PRICE_ABOVE_INTERVAL');
    const flaggedRows = page.locator('[data-testid="flagged-row"]');
    expect(await flaggedRows.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-index'))))).toEqual(expectedFlagged.map((l) => l.index));
    for (const line of expectedFlagged) {
      const row = page.locator(`[data-testid="flagged-row"][data-index="${line.index}"]`);
      const { address, geocode, home } = line.result!;
      expect(await row.locator('[data-testid="item-address"]').textContent()).toBe(address);
      expect(await row.locator('[data-testid="item-district"]').textContent()).toBe(geocode.district);
      // Items numbered from 1, as a person counts them (data-index keeps the API's index).
      expect(await row.locator('[data-testid="item-index"]').textContent()).toBe(String(line.index + 1));
      // Flags by their readable names, each with its code at hand.
      const flagChips = row.locator('[data-testid="item-flag"]');
      expect(await flagChips.allTextContents()).toEqual(home!.anomaly.flags.map((code) => FLAG_TEXTS.known[code].title));
      expect(await flagChips.evaluateAll((chips) => chips.map((c) => c.getAttribute('data-code')))).toEqual(home!.anomaly.flags);
      expect(await flagChips.evaluateAll((chips) => chips.map((c) => c.getAttribute('title')))).toEqual(home!.anomaly.flags.map((code) => `${code}: ${FLAG_TEXTS.known[code].explanation}`));
      expect(await row.locator('[data-testid="item-estimate"]').textContent()).toBe(`${whole(home!.estimate)} ${home!.currency}`);
      // Every valued home is recorded: its row links to the record and the report.
      expect(await row.locator('[data-testid="item-links"]').textContent()).toBe('Record · PDF · HTML');
    }

    // A legend of every flag the job's items carry: its name, its code and what it means, and how many items carry it.
    const flagCounts = new Map<string, number>();
    for (const line of expectedFlagged) for (const code of line.result!.home!.anomaly.flags) flagCounts.set(code, (flagCounts.get(code) ?? 0) + 1);
    const entries = page.locator('[data-testid="flag-legend"] [data-testid="flag-legend-entry"]');
    expect((await entries.evaluateAll((found) => found.map((e) => e.getAttribute('data-code')))).sort()).toEqual([...flagCounts.keys()].sort());
    for (const [code, n] of flagCounts) {
      const entry = page.locator(`[data-testid="flag-legend-entry"][data-code="${code}"]`);
      expect(await entry.locator('[data-testid="flag-legend-name"]').textContent()).toBe(FLAG_TEXTS.known[code].title);
      expect(await entry.locator('[data-testid="flag-legend-text"]').textContent()).toBe(`${code}. ${FLAG_TEXTS.known[code].explanation} ${plural(n, 'item', 'items')}.`);
    }

    // Totals by district, from the results.
    const byDistrict = new Map<string, Line[]>();
    for (const line of ok) byDistrict.set(line.result!.geocode.district, [...(byDistrict.get(line.result!.geocode.district) ?? []), line]);
    expect(byDistrict.size).toBeGreaterThan(3);
    const rows = page.locator('[data-testid="district-row"]');
    expect(await rows.count()).toBe(byDistrict.size + 1);
    const check = async (name: string, group: Line[]) => {
      const row = page.locator(`[data-testid="district-row"][data-district="${name}"]`);
      const groupHomes = group.filter((l) => l.result!.home).map((l) => l.result!.home!);
      const composites = group.map((l) => l.result!.location_index.composite).filter((c): c is number => c !== null);
      const cell = async (testid: string) => row.locator(`[data-testid="${testid}"]`).textContent();
      expect(await cell('district-items')).toBe(String(group.length));
      expect(await cell('district-valued')).toBe(String(groupHomes.length));
      expect(await cell('district-total')).toBe(groupHomes.length ? `${whole(groupHomes.reduce((sum, h) => sum + h.estimate, 0))} ${groupHomes[0].currency}` : '—');
      expect(await cell('district-median-ppm2')).toBe(groupHomes.length ? whole(median(groupHomes.map((h) => h.price_per_m2))) : '—');
      expect(await cell('district-mean-index')).toBe(oneDecimal(composites.reduce((a, b) => a + b, 0) / composites.length));
    };
    for (const [name, group] of byDistrict) await check(name, group);
    await check('All districts', ok);

    // Every item, failed ones with their error; the markup address is text, never an element.
    const itemRows = page.locator('[data-testid="item-row"]');
    expect(await itemRows.count()).toBe(ITEMS.length);
    expect(await page.locator('[data-testid="portfolio-range"]').textContent()).toBe(`Items 1–${ITEMS.length} of ${ITEMS.length}`);
    expect(await page.locator('[data-testid="portfolio-next"]').isDisabled()).toBe(true);
    expect(await page.locator('[data-testid="item-row"][data-index="10"] [data-testid="item-error"]').textContent()).toMatch(/^UNRESOLVABLE_ADDRESS: /);
    expect(await texts(page, '[data-testid="item-row"] [data-testid="item-index"]')).toEqual(ITEMS.map((_, i) => String(i + 1)));
    expect(await page.locator('[data-testid="item-row"][data-index="0"] [data-testid="item-address"]').textContent()).toBe(ITEMS[0].address);
    expect(await texts(page, '[data-testid="flagged-row"] [data-testid="item-address"], [data-testid="item-row"] [data-testid="item-address"]')).toContain(ITEMS[0].address);
    expect(await page.locator('#portfolio-section img').count()).toBe(0);
    // Links only to the records the results name (three a valued home: record, PDF, HTML).
    const valuedIds = new Set(lines.flatMap((l) => (l.result?.home?.valuation_id ? [l.result.home.valuation_id] : [])));
    const hrefs = await page.locator('[data-testid="valuation-link"]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThanOrEqual(3 * valuedIds.size);
    for (const href of hrefs) expect(valuedIds.has(/(?:^|\/)api\/valuations\/(val_[0-9A-Z]{26})/.exec(href)?.[1] ?? '')).toBe(true);
    expect(dialogs).toEqual([]);

    // Closed: gone.
    await page.click('[data-testid="portfolio-close"]');
    expect(await page.locator('[data-testid="portfolio"]').isVisible()).toBe(false);
  }, 300_000);

  it("links each row to the valuation's record and report when the results name the valuation, fetched with the key", async () => {
    const idOf = (index: number) => `val_test${index}`;
    const withIds = (line: Line): Line => (line.result?.home ? { ...line, result: { ...line.result, home: { ...line.result.home, valuation_id: idOf(line.index) } } } : line);
    const requested: { url: string; key: string | undefined }[] = [];
    const { page } = await openPortfolio(async (p) => {
      // The results as they will be once valuations have ids: the stream and the items pages (one REST route, ?offset&limit for a page).
      await p.route(`**/api/batch/${jobId}/results*`, async (route: Route) => {
        const response = await route.fetch();
        const body = (await response.text()).trim().split('\n').map((l) => JSON.stringify(withIds(JSON.parse(l)))).join('\n');
        await route.fulfill({ response, body: `${body}\n` });
      });
      await p.route('**/api/valuations/**', async (route: Route) => {
        requested.push({ url: route.request().url(), key: route.request().headers()['x-api-key'] });
        const pdf = route.request().url().includes('format=pdf');
        await route.fulfill({ status: 200, contentType: pdf ? 'application/pdf' : 'application/json', body: pdf ? '%PDF-1.4 test' : '{"id":"x"}' });
      });
    });

    const flaggedLinks = page.locator(`[data-testid="flagged-row"][data-index="6"] [data-testid="valuation-link"]`);
    expect(await flaggedLinks.allTextContents()).toEqual(['Record', 'PDF', 'HTML']);
    const hrefs = await flaggedLinks.evaluateAll((links) => links.map((a) => (a as unknown as { href: string }).href));
    expect(hrefs).toEqual([
      `${stack.url}/api/valuations/${idOf(6)}`,
      `${stack.url}/api/valuations/${idOf(6)}/report?format=pdf&lang=en`,
      `${stack.url}/api/valuations/${idOf(6)}/report?format=html&lang=en`,
    ]);
    // Every valued item's row has its three links; address-only and failed items none.
    for (const line of lines) {
      const links = page.locator(`[data-testid="item-row"][data-index="${line.index}"] [data-testid="valuation-link"]`);
      expect(await links.count()).toBe(line.result?.home ? 3 : 0);
    }

    const [download] = await Promise.all([page.waitForEvent('download'), flaggedLinks.nth(1).click()]);
    expect(download.suggestedFilename()).toBe(`${idOf(6)}.pdf`);
    expect(requested).toEqual([{ url: `${stack.url}/api/valuations/${idOf(6)}/report?format=pdf&lang=en`, key }]);
    const [record] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="item-row"][data-index="0"] [data-testid="valuation-link"][data-kind="record"]').click()]);
    expect(record.suggestedFilename()).toBe(`${idOf(0)}.json`);
    expect(requested[1]).toEqual({ url: `${stack.url}/api/valuations/${idOf(0)}`, key });
  }, 300_000);

  it("the analyst's 463 items piled on 102 points: every point drawn once, its shape saying its precision, its count on it, the caption true", async () => {
    const piled = piledResults();
    const { page } = await openPortfolio(async (p) => {
      await p.route(`**/api/batch/${jobId}/results`, (route: Route) =>
        route.fulfill({ status: 200, contentType: 'application/x-ndjson', headers: { 'batch-total': String(PILED.items) }, body: `${piled.map((l) => JSON.stringify(l)).join('\n')}\n` }));
    });
    const sites = sitesOf(piled);
    expect(sites).toHaveLength(102);
    const note = await page.locator('[data-testid="portfolio-map-note"]').textContent();
    expect(note).toContain(
      "The map shows all 463 placed items at 102 points: 60 items at a street's point (60 points), 150 items at a quarter's centre (20 points), " +
        "100 items at a mahalla's centre (10 points), 153 items at a district's centre (12 points). ",
    );
    expect(note).toContain(allShown(piled));
    expect(await page.locator('[data-testid="portfolio-map"]').getAttribute('data-points')).toBe('102');
    expect(await page.locator('[data-testid="portfolio-map"]').getAttribute('data-items')).toBe('463');
    const geometry = await mapGeometry(page);
    expectDrawnAsSites(geometry, sites);
    // Every item is in one point's count.
    const counted = geometry.markers.reduce((sum, m) => sum + (/^(\d+) items/.exec(m.label) ? Number(/^(\d+) items/.exec(m.label)![1]) : 1), 0);
    expect(counted).toBe(463);
    await page.locator('[data-testid="portfolio-map"]').screenshot({ path: join(SCREENSHOTS, 'map-piled.png') });
  }, 300_000);

  it('at 1,280 × 800 every table fits its panel: the last column (the report links) is on screen', async () => {
    const { page } = await openPortfolio(async (p) => p.setViewportSize({ width: 1280, height: 800 }));
    const fits = await page.evaluate(`(() => [...document.querySelectorAll('#portfolio-section table.data')].map((table) => {
      const panel = table.parentElement.getBoundingClientRect();
      const last = [...table.querySelectorAll('tr > :last-child')].map((cell) => cell.getBoundingClientRect());
      return { table: table.id, rows: last.length, panelRight: panel.right, lastRight: Math.max(...last.map((r) => r.right)), lastWidth: Math.min(...last.map((r) => r.width)),
        scrollWidth: table.parentElement.scrollWidth, clientWidth: table.parentElement.clientWidth, viewport: document.documentElement.clientWidth, page: document.documentElement.scrollWidth };
    }))()`) as { table: string; rows: number; panelRight: number; lastRight: number; lastWidth: number; scrollWidth: number; clientWidth: number; viewport: number; page: number }[];
    expect(fits.map((f) => f.table).sort()).toEqual(['portfolio-districts', 'portfolio-flagged', 'portfolio-items']);
    for (const fit of fits) {
      expect(fit.rows).toBeGreaterThan(1);
      expect({ table: fit.table, scrolls: fit.scrollWidth > fit.clientWidth, lastInPanel: fit.lastRight <= fit.panelRight + 0.5, lastOnScreen: fit.lastRight <= fit.viewport, pageScrolls: fit.page > fit.viewport })
        .toEqual({ table: fit.table, scrolls: false, lastInPanel: true, lastOnScreen: true, pageScrolls: false });
      expect(fit.lastWidth).toBeGreaterThan(20);
    }
    // The links of an item's report are visible, whole.
    const links = page.locator('[data-testid="item-row"][data-index="0"] [data-testid="item-links"]');
    await links.scrollIntoViewIfNeeded();
    expect(await links.isVisible()).toBe(true);
    expect(await links.textContent()).toBe('Record · PDF · HTML');
    await page.screenshot({ path: join(SCREENSHOTS, 'portfolio-1280.png'), fullPage: true });
  }, 300_000);

  it('a large job is read as a stream and drawn on a canvas, items sharing a point counted once per point', async () => {
    const body = syntheticResults();
    const { page } = await openPortfolio(async (p) => {
      await p.route(`**/api/batch/${jobId}/results`, (route: Route) =>
        route.fulfill({ status: 200, contentType: 'application/x-ndjson', headers: { 'batch-total': String(LARGE), 'batch-status': 'completed' }, body }));
    });

    // 45,000 items on 17,266 quarters' centres: every one drawn, on a canvas.
    const map = page.locator('[data-testid="portfolio-map"]');
    expect(await map.getAttribute('data-renderer')).toBe('canvas');
    expect(await map.getAttribute('data-points')).toBe('17266');
    expect(await map.getAttribute('data-items')).toBe('45000');
    expect(await map.locator('canvas').count()).toBe(1);
    expect(await page.locator('[data-testid="portfolio-map-note"]').textContent()).toContain(
      "The map shows all 45,000 placed items at 17,266 points: 45,000 items at a quarter's centre (17,266 points).",
    );
    const drawn = await nonWhiteShare(page, '[data-testid="portfolio-map"]');
    expect(drawn.share).toBeGreaterThan(0.02);
    await page.screenshot({ path: join(SCREENSHOTS, 'portfolio-large.png'), fullPage: true });

    const homes = LARGE / 3;
    const flaggedCount = Math.ceil(LARGE / (3 * FLAG_EVERY));
    expect(await page.locator('[data-testid="portfolio-summary"]').textContent()).toBe(
      `45,000 items: 45,000 placed and scored (${whole(homes)} homes valued, ${whole(LARGE - homes)} address only), 0 failed. ${whole(flaggedCount)} items flagged by the anomaly checks.`,
    );
    // The flagged table keeps the first 1,000 and says so.
    expect(await page.locator('[data-testid="flagged-row"]').count()).toBe(1000);
    expect(await page.locator('[data-testid="portfolio-flagged-note"]').textContent()).toBe(`The first 1,000 of ${whole(flaggedCount)} flagged items; the items table below and the results download have them all.`);
    expect(await page.locator('[data-testid="district-row"][data-district="All districts"] [data-testid="district-items"]').textContent()).toBe('45,000');
    expect(await page.locator('[data-testid="district-row"][data-district="Chilanzar"] [data-testid="district-items"]').textContent()).toBe('22,500');
    const bars = await marks(page, 'portfolio-histogram', 'bar');
    expect(bars.reduce((sum, label) => sum + Number(/: (\d+) homes?$/.exec(label)?.[1]), 0)).toBe(homes);
  }, 300_000);

  it('more points than the map cap: it draws those holding the most items, and the page says so', async () => {
    const body = syntheticResults(true);
    const { page } = await openPortfolio(async (p) => {
      // No batch-total header: the page learns the count as it reads.
      await p.route(`**/api/batch/${jobId}/results`, (route: Route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body }));
    });
    expect(await page.locator('[data-testid="portfolio-map"]').getAttribute('data-points')).toBe('20000');
    expect(await page.locator('[data-testid="portfolio-map-note"]').textContent()).toContain(
      "The map shows 20,000 of the 45,000 points, those holding the most items (20,000 of the 45,000 placed items), to keep it to at most 20,000 points; the tables count every item. " +
        "In all: 45,000 items at a quarter's centre (45,000 points).",
    );
  }, 300_000);
});
