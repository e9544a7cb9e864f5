/**
 * Issue 14 on every door of the real service: `valuation_date` in (REST, GraphQL, bulk, MCP,
 * batch items, `npm run valuate`), `market_level` out, and the `marketIndex` query. These need a residential version trained with
 * the market index (its manifest has `marketIndex`); the seed's 2026.11.4 has none and does not load.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { measureForExecution } from '../../gateway/graph/limits';
import { ResidentialModelService } from '../../models/residential/serving';
import { valuateFile } from '../../models/valuate-file';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { SUBGRAPHS } from '../../tools/subgraphs';
import { callOk, connectHttp, SAMPLE_HOME_ARGUMENTS, type Connected } from '../mcp/support';
import { expectError, json } from '../support/stack-client';
import { useSharedTestStack } from '../support/shared-stack';
import { until } from '../support/wait';

const fixture = useSharedTestStack();
const predict = (body: unknown) => fixture.post('/api/predict/home', body);
const gql = async (query: string, variables?: Record<string, unknown>) => json(await fixture.post('/graphql', { query, variables }));

const SAMPLE_INPUT = { district: 'Chilonzor', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9 };
const MARKET_LEVEL_FIELDS = 'marketLevel { valuationDate newestDataPeriod dataAgeMonths dataAgeDays indexRatio intervalWidening }';
const INDEX_FIELDS = 'district zone market method newestPeriod driftPerMonth volatilityPerMonth points { period index low high rows } weekly { exportedOn }';

/** 'YYYY-MM' plus n months. */
function addMonths(period: string, n: number): string {
  const [year, month] = period.split('-').map(Number);
  const t = year * 12 + month - 1 + n;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}`;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);
/** The interval's width on a log scale: comparable across estimates at different market levels. */
const logWidth = (body: { interval: { low: number; high: number } }) => Math.log(body.interval.high / body.interval.low);

let newestPeriod: string;
beforeAll(async () => {
  const response = await predict(SAMPLE_HOME_REQUEST);
  expect(response.status).toBe(200);
  newestPeriod = (await json(response)).market_level.newest_data_period;
  expect(newestPeriod).toMatch(/^20\d\d-(0[1-9]|1[0-2])$/);
  // A model cannot have data from the future.
  expect(newestPeriod <= todayUtc().slice(0, 7)).toBe(true);
});

describe('POST /api/predict/home: valuation_date in, market_level out', () => {
  it('reflects the valuation date asked for, YYYY-MM read as the 1st', async () => {
    const dated = await json(await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: `${newestPeriod}-15` }));
    expect(dated.market_level).toEqual({
      valuation_date: `${newestPeriod}-15`,
      newest_data_period: newestPeriod,
      data_age_months: 0,
      data_age_days: 0,
      index_ratio: expect.any(Number),
      interval_widening: 0,
    });
    expect(dated.market_level.index_ratio).toBeGreaterThan(0.5);
    expect(dated.market_level.index_ratio).toBeLessThan(2);
    const month = await json(await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: newestPeriod }));
    expect(month.market_level.valuation_date).toBe(`${newestPeriod}-01`);
  });

  it('without one, values at today (UTC), counting the months since the newest data', async () => {
    const before = todayUtc();
    const body = await json(await predict(SAMPLE_HOME_REQUEST));
    expect([before, todayUtc()]).toContain(body.market_level.valuation_date);
    const [year, month] = body.market_level.valuation_date.split('-').map(Number);
    const [newestYear, newestMonth] = newestPeriod.split('-').map(Number);
    expect(body.market_level.data_age_months).toBe((year - newestYear) * 12 + month - newestMonth);
  });

  it('past the newest data: months counted, an allowance that grows with them, a wider interval, the level held at the newest (issue 32)', async () => {
    const at = async (months: number) => {
      const response = await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: `${addMonths(newestPeriod, months)}-15` });
      expect(response.status).toBe(200);
      return json(response);
    };
    const [newest, six, twelve] = [await at(0), await at(6), await at(12)];
    expect(newest.market_level).toMatchObject({ data_age_months: 0, interval_widening: 0 });
    expect(six.market_level.data_age_months).toBe(6);
    expect(twelve.market_level.data_age_months).toBe(12);
    expect(six.market_level.interval_widening).toBeGreaterThan(0);
    expect(twelve.market_level.interval_widening).toBeGreaterThan(six.market_level.interval_widening);
    expect(logWidth(six)).toBeGreaterThan(logWidth(newest));
    expect(logWidth(twelve)).toBeGreaterThan(logWidth(six));
    for (const body of [newest, six, twelve]) {
      expect(body.interval.low).toBeLessThan(body.estimate);
      expect(body.interval.high).toBeGreaterThan(body.estimate);
    }
    // No drift past the data: the same level and estimate a year on, only the interval wider.
    expect(twelve.market_level.index_ratio).toBe(newest.market_level.index_ratio);
    expect(six.estimate).toBe(newest.estimate);
    expect(twelve.estimate).toBe(newest.estimate);
    // Everything else is the same valuation.
    expect(twelve.location).toEqual(newest.location);
    expect(twelve.model_version).toBe(newest.model_version);
  });

  it('a date inside the data is at that month\'s level, with no allowance', async () => {
    const body = await json(await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: '2023-10-20' }));
    expect(body.market_level).toMatchObject({ valuation_date: '2023-10-20', data_age_months: 0, interval_widening: 0 });
  });

  it.each([
    ['not a date', 'yesterday'],
    ['a month 13', '2026-13-01'],
    ['a day that does not exist', '2026-02-30'],
    ['day first', '15-07-2026'],
    ['with a time', '2026-07-15T00:00:00Z'],
    ['before the oldest data', '2020-12-31'],
    ['more than 24 months ahead', `${Number(todayUtc().slice(0, 4)) + 3}-01-01`],
    ['a number', 20260715],
    ['empty', ''],
  ])('%s: 400 INVALID_PARAMETER naming valuation_date', async (_case, value) => {
    const error = await expectError(await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: value }), 400, 'INVALID_PARAMETER', 'valuation_date');
    expect(error.message).toMatch(/^valuation_date /);
  });

  it('is accepted on the bearer route too', async () => {
    const token = await json(await fixture.stack.post('/service/auth/token', {}, { 'x-api-key': fixture.key }));
    const response = await fixture.stack.post('/service/predict/home', { ...SAMPLE_HOME_REQUEST, valuation_date: newestPeriod }, { authorization: `Bearer ${token.access_token}` });
    expect(response.status).toBe(200);
    expect((await json(response)).market_level.valuation_date).toBe(`${newestPeriod}-01`);
  });
});

describe('GraphQL: valuationDate and marketLevel', () => {
  it('homeValuation answers marketLevel as REST answers market_level', async () => {
    const valuationDate = `${addMonths(newestPeriod, 3)}-01`;
    const { data, errors } = await gql(`query($i: HomeValuationInput!) { homeValuation(input: $i) { estimate interval { low high } ${MARKET_LEVEL_FIELDS} } }`, { i: { ...SAMPLE_INPUT, valuationDate } });
    expect(errors).toBeUndefined();
    const rest = await json(await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: valuationDate, renovation: undefined, qurilish_turi: undefined, mebel: undefined, sanuzel: undefined }));
    expect(data.homeValuation.marketLevel).toEqual({
      valuationDate: rest.market_level.valuation_date,
      newestDataPeriod: rest.market_level.newest_data_period,
      dataAgeMonths: rest.market_level.data_age_months,
      dataAgeDays: rest.market_level.data_age_days,
      indexRatio: rest.market_level.index_ratio,
      intervalWidening: rest.market_level.interval_widening,
    });
    expect(data.homeValuation.marketLevel.dataAgeMonths).toBe(3);
    expect(data.homeValuation.estimate).toBe(rest.estimate);
  });

  it('a bad valuationDate is INVALID_PARAMETER with field valuation_date', async () => {
    const { data, errors } = await gql(`query($i: HomeValuationInput!) { homeValuation(input: $i) { estimate } }`, { i: { ...SAMPLE_INPUT, valuationDate: '2026-02-30' } });
    expect(data).toBeNull();
    expect(errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'valuation_date' });
  });

  it('homeValuations: each input at its own date, a bad date an error in its place', async () => {
    const inputs = [
      { ...SAMPLE_INPUT, valuationDate: newestPeriod },
      { ...SAMPLE_INPUT, valuationDate: 'soon' },
      { ...SAMPLE_INPUT, valuationDate: addMonths(newestPeriod, 12) },
      SAMPLE_INPUT,
    ];
    const before = todayUtc();
    const { data, errors } = await gql(`query($i: [HomeValuationInput!]!) { homeValuations(inputs: $i) { index valuation { interval { low high } ${MARKET_LEVEL_FIELDS} } error { code field } } }`, { i: inputs });
    expect(errors).toBeUndefined();
    const results = data.homeValuations;
    expect(results[1]).toEqual({ index: 1, valuation: null, error: { code: 'INVALID_PARAMETER', field: 'valuation_date' } });
    expect(results[0].valuation.marketLevel).toMatchObject({ valuationDate: `${newestPeriod}-01`, dataAgeMonths: 0, intervalWidening: 0 });
    expect(results[2].valuation.marketLevel).toMatchObject({ valuationDate: `${addMonths(newestPeriod, 12)}-01`, dataAgeMonths: 12 });
    expect(logWidth(results[2].valuation)).toBeGreaterThan(logWidth(results[0].valuation));
    expect([before, todayUtc()]).toContain(results[3].valuation.marketLevel.valuationDate);
  });
});

describe('MCP value_home', () => {
  let session: Connected;
  beforeAll(async () => {
    session = await connectHttp(fixture.stack, { 'x-api-key': fixture.key });
  });
  afterAll(() => session?.close());

  it('takes valuation_date, replies with market_level as the REST route does, and says how old the data is', async () => {
    const valuationDate = `${addMonths(newestPeriod, 6)}-01`;
    const { reply, summary } = await callOk(session.client, 'value_home', { ...SAMPLE_HOME_ARGUMENTS, valuation_date: valuationDate });
    const rest = await json(await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: valuationDate }));
    expect(reply.market_level).toEqual(rest.market_level);
    expect(reply.estimate).toBe(rest.estimate);
    expect(summary).toContain(`Valued at ${valuationDate}, 6 months (${reply.market_level.data_age_days} days) past the newest market data (${newestPeriod})`);
  });

  it('a bad valuation_date is a tool error naming the argument', async () => {
    const result = await session.client.callTool({ name: 'value_home', arguments: { ...SAMPLE_HOME_ARGUMENTS, valuation_date: '2026/07/01' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toMatch(/^INVALID_PARAMETER \(argument valuation_date\)/);
  });
});

describe('POST /api/batch', () => {
  it('values each item\'s home at its own valuation_date; a bad one fails that item alone', async () => {
    const home = { area: 65, rooms: 3, floor: 4, total_floors: 9 };
    const address = 'Chilonzor tumani, 13-kvartal';
    const items = [
      { address, home: { ...home, valuation_date: newestPeriod } },
      { address, home: { ...home, valuation_date: addMonths(newestPeriod, 12) } },
      { address, home: { ...home, valuation_date: 'someday' } },
    ];
    const submitted = await fixture.post('/api/batch', { items });
    expect(submitted.status).toBe(202);
    const { id } = await json(submitted);
    const get = (path: string) => fixture.stack.fetch(path, { headers: { 'x-api-key': fixture.key } });
    const job = await until(async () => json(await get(`/api/batch/${id}`)), (j) => ['completed', 'failed', 'cancelled'].includes(j.status));
    expect(job).toMatchObject({ status: 'completed', succeeded: 2, failed: 1 });
    const lines = (await (await get(`/api/batch/${id}/results`)).text()).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].ok).toBe(true);
    expect(lines[1].ok).toBe(true);
    expect(logWidth(lines[1].result.home)).toBeGreaterThan(logWidth(lines[0].result.home));
    expect(lines[2]).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMETER' } });
    expect(lines[2].error.message).toMatch(/valuation_date/);
  });
});

describe('npm run valuate', () => {
  it('dates each home line by its own valuation_date, else by --valuation-date, else today; replies carry market_level', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'valuate-dates-'));
    const runtime = await ResidentialModelService.start({ pollMs: 60_000 });
    try {
      const own = `${addMonths(newestPeriod, 2)}-10`;
      const lines = [{ ...SAMPLE_HOME_REQUEST, valuation_date: own }, SAMPLE_HOME_REQUEST, { ...SAMPLE_HOME_REQUEST, valuation_date: 'someday' }];
      writeFileSync(join(dir, 'in.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
      const run = async (valuationDate?: string) => {
        await valuateFile(join(dir, 'in.jsonl'), join(dir, 'out.jsonl'), { home: async () => runtime }, { valuationDate });
        return readFileSync(join(dir, 'out.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      };
      const before = todayUtc();
      const undated = await run();
      expect(undated[0].market_level.valuation_date).toBe(own);
      expect([before, todayUtc()]).toContain(undated[1].market_level.valuation_date);
      expect(undated[2].error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'valuation_date' });
      const dated = await run(newestPeriod);
      expect(dated[0].market_level.valuation_date).toBe(own);
      expect(dated[1].market_level).toMatchObject({ valuation_date: `${newestPeriod}-01`, data_age_months: 0, interval_widening: 0 });
      expect(dated[2].error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'valuation_date' });
      // The same valuation as the API's at that date.
      const api = await json(await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: newestPeriod }));
      expect(dated[1].estimate).toBe(api.estimate);
      expect(dated[1].interval).toEqual(api.interval);
    } finally {
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('marketIndex(district, market)', () => {
  const marketIndex = (district: string, market?: string | null) =>
    gql(`query($d: String!, $m: String) { marketIndex(district: $d, market: $m) { ${INDEX_FIELDS} } }`, { d: district, m: market });

  it('one point per month, oldest first, at 1 in the newest month, each inside its band, with its listing count', async () => {
    const { data, errors } = await marketIndex('Chilanzar');
    expect(errors).toBeUndefined();
    const series = data.marketIndex;
    expect(series).toMatchObject({ district: 'Chilanzar', zone: 'west', market: null, newestPeriod });
    expect(series.method).toMatch(/hedonic/);
    // Nothing collected in this stack's folder: no weekly points (test/collect/collected-market.test.ts has some).
    expect(series.weekly).toBeNull();
    expect(series.volatilityPerMonth).toBeGreaterThan(0);
    expect(Math.abs(series.driftPerMonth)).toBeLessThan(0.1);
    const points = series.points as { period: string; index: number; low: number; high: number; rows: number }[];
    expect(points.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < points.length; i++) expect(points[i].period > points[i - 1].period).toBe(true);
    expect(points.at(-1)).toEqual({ period: newestPeriod, index: 1, low: 1, high: 1, rows: expect.any(Number) });
    for (const p of points) {
      expect(p.period).toMatch(/^20\d\d-(0[1-9]|1[0-2])$/);
      expect(p.low).toBeLessThanOrEqual(p.index);
      expect(p.high).toBeGreaterThanOrEqual(p.index);
      expect(p.index).toBeGreaterThan(0.3);
      expect(p.index).toBeLessThan(3);
      expect(Number.isInteger(p.rows)).toBe(true);
      expect(p.rows).toBeGreaterThan(0);
    }
    // The index's sources reach back years (olx 2021 … uybor 2026).
    expect(points[0].period < addMonths(newestPeriod, -24)).toBe(true);
  });

  it("publishes each scrape's own offset, the sources' offsets and the newest level read from every point, and which level serving holds", async () => {
    const { data, errors } = await gql(`query { marketIndex(district: "Yunusabad") { points { period index } scrapeOffsets { period offset low high } sourceOffsets { source offset } newestReading { index low high applied method } } }`);
    expect(errors).toBeUndefined();
    const { points, scrapeOffsets, sourceOffsets, newestReading } = data.marketIndex;
    expect(scrapeOffsets.map((o: { period: string }) => o.period)).toEqual(points.map((p: { period: string }) => p.period));
    for (const o of scrapeOffsets) {
      expect(o.low).toBeLessThanOrEqual(o.offset);
      expect(o.high).toBeGreaterThanOrEqual(o.offset);
      expect(Math.abs(o.offset)).toBeLessThan(0.3);
    }
    expect(sourceOffsets.length).toBeGreaterThanOrEqual(2);
    for (const o of sourceOffsets) expect(o.source).toMatch(/^(uybor|olx) /);
    expect(newestReading.method).toMatch(/local linear trend/);
    expect(newestReading.low).toBeLessThan(newestReading.index);
    expect(newestReading.high).toBeGreaterThan(newestReading.index);
    // Valuations past the newest month hold the reading only where it passed its rule; else the newest point (1.0).
    const past = await json(await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: `${addMonths(newestPeriod, 3)}-15` }));
    const expected = newestReading.applied ? newestReading.index : 1;
    expect(past.market_level.index_ratio).toBeCloseTo(expected, 2);
  });

  it('takes the district in any spelling and the segment in any of its names; months as the mix has them', async () => {
    const mix = (await marketIndex('Chilanzar')).data.marketIndex;
    const resale = (await marketIndex('Чиланзарский район', 'вторичка')).data.marketIndex;
    const fresh = (await marketIndex('Chilonzor tumani', 'new build')).data.marketIndex;
    expect(resale).toMatchObject({ district: 'Chilanzar', zone: 'west', market: 'resale' });
    expect(fresh).toMatchObject({ district: 'Chilanzar', zone: 'west', market: 'new' });
    for (const s of [resale, fresh]) {
      expect(s.points.map((p: { period: string }) => p.period)).toEqual(mix.points.map((p: { period: string }) => p.period));
      expect(s.points.at(-1).index).toBe(1);
    }
    // The zone's level, not the district's: its neighbours share it.
    expect((await marketIndex('Uchtepa')).data.marketIndex.points).toEqual(mix.points);
    expect((await marketIndex('Yunusabad')).data.marketIndex.zone).toBe('north_east');
  });

  it('a valuation dated in a month of the index is at that month\'s level', async () => {
    const points = (await marketIndex('Chilanzar')).data.marketIndex.points as { period: string; index: number }[];
    const point = points.find((p) => p.period >= '2021-01' && p.period < newestPeriod)!;
    expect(point).toBeDefined();
    const body = await json(await predict({ ...SAMPLE_HOME_REQUEST, valuation_date: point.period }));
    expect(body.market_level.index_ratio).toBeCloseTo(point.index, 2);
  });

  it('an unknown district: UNKNOWN_DISTRICT with suggestions, as a valuation answers it', async () => {
    const { data, errors } = await marketIndex('Chilanzor-Yunus');
    expect(data).toBeNull();
    expect(errors[0].extensions).toMatchObject({ code: 'UNKNOWN_DISTRICT', field: 'district' });
    expect(errors[0].extensions.suggestions).toContain('Chilanzar');
    const valuation = await gql(`query($i: HomeValuationInput!) { homeValuation(input: $i) { estimate } }`, { i: { ...SAMPLE_INPUT, district: 'Chilanzor-Yunus', mahalla: undefined } });
    expect(errors[0].message).toBe(valuation.errors[0].message);
  });

  it('an unrecognised market: INVALID_PARAMETER naming market; an empty district: MISSING_PARAMETER', async () => {
    const market = await marketIndex('Chilanzar', 'luxury');
    expect(market.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'market' });
    const empty = await marketIndex('  ');
    expect(empty.errors[0].extensions).toMatchObject({ code: 'MISSING_PARAMETER', field: 'district' });
  });
});

it('marketIndex is priced like any field and takes no valuation allowance', () => {
  const residential = SUBGRAPHS.find((s) => s.name === 'residential')!;
  const schema = buildSubgraphSchema(parse(readFileSync(residential.sdlPath, 'utf8')));
  const measure = measureForExecution(schema, parse(`{ marketIndex(district: "Chilanzar") { ${INDEX_FIELDS} } }`), undefined, {}, 20_000);
  expect(measure).toMatchObject({ valuations: 0, batchItems: 0 });
  expect(measure!.cost).toBeLessThan(20);
});
