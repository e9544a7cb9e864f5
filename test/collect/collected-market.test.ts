/**
 * Issue 37, item 4 over HTTP on the real stack: the collector's weekly points published in
 * `marketIndex` (weekly, from collected listings, with counts), valuations unchanged by them (the
 * project's rule for the level past the newest month does not let them in), and `market_level`'s
 * age in days on REST, GraphQL, MCP and the vehicle route. The collect folder is made by the test:
 * a few flats seen on days after the model's newest month, through the real store and exporter,
 * given to the stack as COLLECT_DIR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adaptUyborListing, isSkipped, weekOf, type Collected, type CollectedListing } from '../../models/ingest/collectors';
import { createNormaliser } from '../../models/ingest/normaliser';
import { currentVersion, readManifest } from '../../models/residential/manifest';
import { ResidentialModelService } from '../../models/residential/serving';
import { normaliseHomeInput } from '../../models/residential';
import { exportTrainingSource, LifecycleStore, writeLastRun, type LastRun, type TrainingExport } from '../../platform/collect';
import { writeCheckpoint } from '../../platform/collect/checkpoint';
import { useDashboardBrowser } from '../gateway/dashboard-browser';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { parseHomeRestBody } from '../../schema/home-rest';
import { SAMPLE_VEHICLE_REQUEST } from '../../schema/vehicle-contract';
import { callOk, connectHttp, SAMPLE_HOME_ARGUMENTS } from '../mcp/support';
import { json, useTestStack } from '../support/stack';
import { uyborFlat } from './support/listings';

const DAY = 86_400_000;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
function lastDayOf(period: string): string {
  const [y, m] = period.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}
function addMonths(period: string, n: number): string {
  const [year, month] = period.split('-').map(Number);
  const t = year * 12 + month - 1 + n;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}`;
}

// The model in service's newest month: the weekly points are placed around its end.
const newestPeriod = readManifest(currentVersion()!).marketIndex.newestPeriod;
const monthEnd = lastDayOf(newestPeriod);
/** A week inside the newest month (the index covers it: not published), then the three weeks from the first that ends after it. */
const insideWeek = weekOf(`${newestPeriod}-15`);
const firstAfter = weekOf(addDays(monthEnd, 1)); // the first week ending after the month
const exportDay = addDays(firstAfter, 20); // the Sunday of the third week after

const collectDir = mkdtempSync(join(tmpdir(), 'collected-market-'));
const normaliser = createNormaliser();
const one = (result: Collected): CollectedListing => {
  if (isSkipped(result)) throw new Error(result.skip);
  return result;
};
let exported: TrainingExport;
{
  const store = LifecycleStore.open(collectDir);
  const flats = [1, 2, 3, 4, 5, 6].map((n) => uyborFlat(n, 60_000 + n * 1_000));
  const seen = (day: string, list: typeof flats, factor = 1) =>
    store.recordSightings(`r-${day}`, day, list.map((f) => one(adaptUyborListing({ ...f, price: Math.round(Number(f.price) * factor) }, { normaliser, seenOn: day }))));
  seen(addDays(insideWeek, 2), flats.slice(0, 3));
  seen(addDays(firstAfter, 2), flats.slice(0, 4));
  seen(addDays(firstAfter, 9), flats, 0.98);
  seen(addDays(firstAfter, 16), flats.slice(0, 5), 0.98);
  const weeks = Math.round((Date.parse(firstAfter) - Date.parse(insideWeek)) / (7 * DAY)) + 3;
  exported = exportTrainingSource(store, exportDay, weeks);
}
// Collecting progress: uybor's last run completed, olx's stopped early (its checkpoint kept), avtoelon never run.
const UYBOR_RUN: LastRun = {
  site: 'uybor', runId: 'uybor-2026-11-29-aaaa', status: 'completed', reason: null, day: '2026-11-29', pages: 55, listings: 5380, skipped: 20, requests: 57,
  startedAt: '2026-11-29T02:30:00.000Z', endedAt: '2026-11-29T02:41:10.000Z', seen: 5380, removedToday: 42, linkedDuplicates: 310,
};
writeLastRun(collectDir, UYBOR_RUN);
writeLastRun(collectDir, { ...UYBOR_RUN, site: 'olx', runId: 'olx-2026-11-29-bbbb', status: 'stopped', reason: 'www.olx.uz answered 429 too often', pages: 12, listings: 560, requests: 20, endedAt: '2026-11-29T02:50:00.000Z', seen: null, removedToday: null, linkedDuplicates: null });
writeCheckpoint(collectDir, { runId: 'olx-2026-11-29-bbbb', site: 'olx', day: '2026-11-29', cursor: { offset: 600 }, pages: 12, listings: 560, startedAt: '2026-11-29T02:30:00.000Z' });

const fixture = useTestStack(() => ({ env: { COLLECT_DIR: collectDir } }));
afterAll(() => rmSync(collectDir, { recursive: true, force: true }));

const gql = async (query: string, variables?: Record<string, unknown>) => json(await fixture.post('/graphql', { query, variables }));
const WEEKLY_FIELDS = 'newestPeriod weekly { exportedOn appliedToValuations rule points { week weekEnd frequency source listings medianUsdPerM2 repeatListings repeatChange } }';

describe('marketIndex: weekly points of the collected listings', () => {
  it('publishes the weeks after the newest month, each weekly, from collected listings, with its counts', async () => {
    const { data, errors } = await gql(`{ marketIndex(district: "Chilonzor") { ${WEEKLY_FIELDS} } }`);
    expect(errors).toBeUndefined();
    const { weekly } = data.marketIndex;
    expect(data.marketIndex.newestPeriod).toBe(newestPeriod);
    expect(weekly).toMatchObject({ exportedOn: exportDay, appliedToValuations: false });
    expect(weekly.rule).toMatch(/not applied/);
    // The export's weeks that end after the newest month, as exported: the week inside it is left out.
    const after = exported.weekly.filter((p) => addDays(p.week, 6) > monthEnd);
    expect(exported.weekly.some((p) => p.week === insideWeek && p.flats === 3)).toBe(true);
    expect(weekly.points.map((p: { week: string }) => p.week)).toEqual(after.map((p) => p.week));
    expect(weekly.points[0].week).toBe(firstAfter);
    expect(weekly.points.map((p: { listings: number }) => p.listings)).toEqual([4, 6, 5]);
    // The same flats as the week before: three (seen inside the month) at the same price, then four 2% cheaper, then five unchanged.
    expect(weekly.points.map((p: { repeatListings: number }) => p.repeatListings)).toEqual([3, 4, 5]);
    expect(weekly.points[0].repeatChange).toBe(1);
    expect(weekly.points[1].repeatChange).toBeCloseTo(0.98, 3);
    expect(weekly.points[2].repeatChange).toBe(1);
    weekly.points.forEach((p: Record<string, unknown>, i: number) => {
      expect(p).toMatchObject({ frequency: 'weekly', source: 'collected listings', weekEnd: addDays(after[i].week, 6), medianUsdPerM2: after[i].medianUsdPerM2 });
    });
  });

  it('the points are city-wide: every district and market gets the same', async () => {
    const a = (await gql(`{ marketIndex(district: "Chilonzor") { weekly { points { week listings } } } }`)).data.marketIndex.weekly;
    const b = (await gql(`{ marketIndex(district: "Yunusobod", market: "new") { weekly { points { week listings } } } }`)).data.marketIndex.weekly;
    expect(b).toEqual(a);
  });

  it('valuations are unchanged by them: the same as the model alone, past the newest month and within the collected weeks', async () => {
    const runtime = await ResidentialModelService.start({ pollMs: 60_000 });
    try {
      for (const valuationDate of [addDays(firstAfter, 10), exportDay, `${newestPeriod}-15`]) {
        const rest = await json(await fixture.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, valuation_date: valuationDate }));
        const { request } = normaliseHomeInput(parseHomeRestBody({ ...SAMPLE_HOME_REQUEST, valuation_date: valuationDate }).input as unknown as Parameters<typeof normaliseHomeInput>[0]);
        const [alone] = await runtime.value([request]);
        if (alone instanceof Error) throw alone;
        expect(rest.estimate).toBe(alone.estimate);
        expect(rest.interval).toEqual(alone.interval);
        expect(rest.market_level).toEqual({
          valuation_date: valuationDate,
          newest_data_period: newestPeriod,
          data_age_months: alone.marketLevel.dataAgeMonths,
          data_age_days: alone.marketLevel.dataAgeDays,
          index_ratio: alone.marketLevel.indexRatio,
          interval_widening: alone.marketLevel.intervalWidening,
        });
      }
    } finally {
      await runtime.close();
    }
  });
});

describe('market_level.data_age_days', () => {
  const predict = async (valuationDate: string) => {
    const response = await fixture.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, valuation_date: valuationDate });
    expect(response.status).toBe(200);
    return (await json(response)).market_level;
  };

  it('counts the days from the last day of the newest data month to the valuation date, 0 within it', async () => {
    expect((await predict(`${newestPeriod}-01`)).data_age_days).toBe(0);
    expect((await predict(monthEnd)).data_age_days).toBe(0);
    expect(await predict(addDays(monthEnd, 1))).toMatchObject({ data_age_months: 1, data_age_days: 1 });
    const later = `${addMonths(newestPeriod, 4)}-24`;
    expect(await predict(later)).toMatchObject({ data_age_months: 4, data_age_days: daysBetween(monthEnd, later) });
    // The collected weeks do not make the level's data newer: counted from the model's newest month still.
    expect((await predict(exportDay)).data_age_days).toBe(daysBetween(monthEnd, exportDay));
  });

  it('GraphQL dataAgeDays is REST data_age_days; today when undated', async () => {
    const valuationDate = `${addMonths(newestPeriod, 2)}-10`;
    const { data, errors } = await gql(`query($i: HomeValuationInput!) { homeValuation(input: $i) { marketLevel { valuationDate dataAgeMonths dataAgeDays } } }`, {
      i: { district: 'Chilonzor', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9, valuationDate },
    });
    expect(errors).toBeUndefined();
    expect(data.homeValuation.marketLevel).toEqual({ valuationDate, dataAgeMonths: 2, dataAgeDays: daysBetween(monthEnd, valuationDate) });
    const today = (await json(await fixture.post('/api/predict/home', SAMPLE_HOME_REQUEST))).market_level;
    expect(today.data_age_days).toBe(Math.max(0, daysBetween(monthEnd, today.valuation_date)));
  });

  it('MCP value_home replies with it and says it', async () => {
    const session = await connectHttp(fixture.stack, { 'x-api-key': fixture.key });
    try {
      const valuationDate = `${addMonths(newestPeriod, 3)}-05`;
      const { reply, summary } = await callOk(session.client, 'value_home', { ...SAMPLE_HOME_ARGUMENTS, valuation_date: valuationDate });
      const days = daysBetween(monthEnd, valuationDate);
      expect(reply.market_level.data_age_days).toBe(days);
      expect(summary).toContain(`Valued at ${valuationDate}, 3 months (${days} days) past the newest market data (${newestPeriod})`);
    } finally {
      await session.close();
    }
  });

  it('a vehicle counts its own from its newest data month', async () => {
    const response = await fixture.post('/api/predict/vehicle', { ...SAMPLE_VEHICLE_REQUEST, valuation_date: '2026-11-15' });
    expect(response.status).toBe(200);
    const level = (await json(response)).market_level;
    expect(level.data_age_days).toBe(daysBetween(lastDayOf(level.newest_data_period), '2026-11-15'));
  });
});

describe('collectionStatus: collecting progress for the dashboard', () => {
  it('GraphQL gives each site\'s last run (status, pages, listings, when), read only', async () => {
    const { data, errors } = await gql('{ collectionStatus { site state runId day pages listings requests reason startedAt endedAt previousEndedAt previousState } }');
    expect(errors).toBeUndefined();
    expect(data.collectionStatus).toEqual([
      { site: 'uybor', state: 'completed', runId: UYBOR_RUN.runId, day: '2026-11-29', pages: 55, listings: 5380, requests: 57, reason: null, startedAt: UYBOR_RUN.startedAt, endedAt: UYBOR_RUN.endedAt, previousEndedAt: null, previousState: null },
      { site: 'olx', state: 'interrupted', runId: 'olx-2026-11-29-bbbb', day: '2026-11-29', pages: 12, listings: 560, requests: 20, reason: 'www.olx.uz answered 429 too often', startedAt: '2026-11-29T02:30:00.000Z', endedAt: '2026-11-29T02:50:00.000Z', previousEndedAt: null, previousState: null },
      { site: 'avtoelon', state: 'never', runId: null, day: null, pages: null, listings: null, requests: null, reason: null, startedAt: null, endedAt: null, previousEndedAt: null, previousState: null },
    ]);
  });

  it('needs a key, as every GraphQL call does', async () => {
    const response = await fixture.stack.post('/graphql', { query: '{ collectionStatus { site } }' });
    expect(response.status).toBe(401);
  });

  describe('the dashboard', () => {
    const browser = useDashboardBrowser(() => fixture.stack.url);

    it('shows each site\'s last run once signed in', async () => {
      const page = await browser.open();
      await page.getByTestId('api-key').fill(fixture.key);
      await page.getByTestId('sign-in').click();
      const rows = page.getByTestId('collection-run');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(3);
      const cells = async (site: string) => page.locator(`[data-testid="collection-run"][data-site="${site}"] > *`).allTextContents();
      expect(await cells('uybor')).toEqual(['uybor', 'completed', '55', '5,380', '29 Nov 2026, 02:41 UTC']);
      expect(await cells('olx')).toEqual(['olx', 'interrupted (resumes on the next run): www.olx.uz answered 429 too often', '12', '560', 'started 29 Nov 2026, 02:30 UTC']);
      expect(await cells('avtoelon')).toEqual(['avtoelon', 'never run', '–', '–', '–']);
    });
  });
});
