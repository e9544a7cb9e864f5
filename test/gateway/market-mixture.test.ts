/**
 * A flat sent without its market (new build or resale) is valued as both, weighed by the
 * probability of a new build (models/residential/market-mixture.ts). Every door that answers a home
 * valuation says so, as it says market_adjustment: REST market_mixture, GraphQL marketMixture, the
 * reply in soʻm, batch lines and CSV, the valuation's record, MCP; null when the market was given,
 * and for houses. One real stack for the file.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { formatPercent } from '../../gateway/reports/format';
import { DICTIONARIES } from '../../gateway/reports/i18n';
import { SAMPLE_HOME_REQUEST, SAMPLE_HOUSE_REQUEST } from '../../schema/home-contract';
import { parseHomeRestBody } from '../../schema/home-rest';
import { callOk, connectHttp, SAMPLE_HOME_ARGUMENTS } from '../mcp/support';
import { json } from '../support/stack-client';
import { useSharedTestStack } from '../support/shared-stack';
import { until } from '../support/wait';

const fixture = useSharedTestStack();

/** A fixed date within the model's data and the rate table: the same valuation whenever the test runs. */
const VALUATION_DATE = '2026-07-15';
/** The README's flat, without its market (SAMPLE_HOME_REQUEST gives none). */
const FLAT = { ...SAMPLE_HOME_REQUEST, valuation_date: VALUATION_DATE };

const predict = async (body: unknown) => {
  const response = await fixture.post('/api/predict/home', body);
  expect(response.status).toBe(200);
  return json(response);
};
const get = (path: string) => fixture.stack.fetch(path, { headers: { 'x-api-key': fixture.key } });

interface MixtureValue { estimate: number; low: number; high: number }

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let mixed: any;
beforeAll(async () => {
  expect('market' in SAMPLE_HOME_REQUEST).toBe(false);
  mixed = await predict(FLAT);
});

describe('POST /api/predict/home', () => {
  it('a flat without its market: the probability of a new build and its valuation as each, the estimate between them', () => {
    const m = mixed.market_mixture;
    expect(Object.keys(m)).toEqual(['new_build_probability', 'new_build', 'resale']);
    expect(m.new_build_probability).toBeGreaterThan(0);
    expect(m.new_build_probability).toBeLessThan(1);
    for (const component of [m.new_build, m.resale] as MixtureValue[]) {
      expect(Object.keys(component)).toEqual(['estimate', 'low', 'high']);
      expect(component.low).toBeLessThan(component.estimate);
      expect(component.estimate).toBeLessThan(component.high);
    }
    // The mixture's median lies between the two medians (each rounded to 100 USD).
    const [lower, upper] = [m.new_build.estimate, m.resale.estimate].sort((a, b) => a - b);
    expect(mixed.estimate).toBeGreaterThanOrEqual(lower - 100);
    expect(mixed.estimate).toBeLessThanOrEqual(upper + 100);
    // Its interval is as wide as both need.
    expect(mixed.interval.low).toBeLessThanOrEqual(Math.max(m.new_build.low, m.resale.low));
    expect(mixed.interval.high).toBeGreaterThanOrEqual(Math.min(m.new_build.high, m.resale.high));
    expect(mixed.market_adjustment).toBeNull();
  });

  it('the same flat sent as a new build, or as resale: no mixture, and the valuation is that component', async () => {
    const asNew = await predict({ ...FLAT, market: 'new' });
    expect(asNew.market_mixture).toBeNull();
    expect(asNew.estimate).toBe(mixed.market_mixture.new_build.estimate);
    expect({ low: asNew.interval.low, high: asNew.interval.high }).toEqual({ low: mixed.market_mixture.new_build.low, high: mixed.market_mixture.new_build.high });
    const asResale = await predict({ ...FLAT, market: 'resale' });
    expect(asResale.market_mixture).toBeNull();
    expect(asResale.estimate).toBe(mixed.market_mixture.resale.estimate);
  });

  it('the market in the words sites and banks use is read as new or resale; an unknown word is a 400 naming market and what is accepted', async () => {
    for (const word of ['new_building', 'Primary market', 'Yangi bino', 'Первичный рынок', 'Новостройки']) {
      expect([word, (await predict({ ...FLAT, market: word })).estimate]).toEqual([word, mixed.market_mixture.new_build.estimate]);
    }
    for (const word of ['Secondary market', 'Ikkilamchi bozor', 'Вторичное жильё', 'resale-market']) {
      expect([word, (await predict({ ...FLAT, market: word })).estimate]).toEqual([word, mixed.market_mixture.resale.estimate]);
    }
    const response = await fixture.post('/api/predict/home', { ...FLAT, market: 'luxury' });
    expect(response.status).toBe(400);
    const { error } = await json(response);
    expect(error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'market' });
    expect(error.message).toMatch(/^market "luxury" is not recognised; accepted: new or resale/);
  });

  it('a house has none', async () => {
    const house = await predict({ ...SAMPLE_HOUSE_REQUEST, valuation_date: VALUATION_DATE });
    expect(house.property_type).toBe('house');
    expect(house.market_mixture).toBeNull();
  });

  it('in soʻm: both valuations converted as values, at the reply\'s rate, to whole 1,000 soʻm; the probability stays', async () => {
    const uzs = await predict({ ...FLAT, currency: 'UZS' });
    const rate: number = uzs.exchange_rate.usd_to_uzs;
    const thousands = (usd: number) => Math.round((usd * rate) / 1000) * 1000;
    const inUzs = (c: MixtureValue) => ({ estimate: thousands(c.estimate), low: thousands(c.low), high: thousands(c.high) });
    expect(uzs.market_mixture).toEqual({
      new_build_probability: mixed.market_mixture.new_build_probability,
      new_build: inUzs(mixed.market_mixture.new_build),
      resale: inUzs(mixed.market_mixture.resale),
    });
    expect(uzs.estimate).toBe(thousands(mixed.estimate));
  });

  it('the record of the valuation keeps it as answered (GET /api/valuations/{id})', async () => {
    const response = await get(`/api/valuations/${mixed.valuation_id}`);
    expect(response.status).toBe(200);
    expect((await json(response)).valuation.market_mixture).toEqual(mixed.market_mixture);
  });
});

describe('GET /api/valuations/{id}/report', () => {
  it.each(['en', 'ru', 'uz'] as const)('%s: the object\'s market says it was valued as a new build and as resale, with the probability', async (lang) => {
    const response = await get(`/api/valuations/${mixed.valuation_id}/report?format=html&lang=${lang}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const probability = formatPercent(mixed.market_mixture.new_build_probability, lang);
    expect(html).toContain(DICTIONARIES[lang].marketNotGiven(probability));
  });
});

describe('GraphQL', () => {
  it('homeValuation.marketMixture: the same numbers as REST for the same flat', async () => {
    const { input } = parseHomeRestBody(FLAT);
    const query = 'query($input: HomeValuationInput!) { homeValuation(input: $input) { estimate marketMixture { newBuildProbability newBuild { estimate low high } resale { estimate low high } } } }';
    const { data, errors } = await json(await fixture.post('/graphql', { query, variables: { input } }));
    expect(errors).toBeUndefined();
    const m = mixed.market_mixture;
    expect(data.homeValuation).toEqual({
      estimate: mixed.estimate,
      marketMixture: { newBuildProbability: m.new_build_probability, newBuild: m.new_build, resale: m.resale },
    });
    const given = await json(await fixture.post('/graphql', { query, variables: { input: { ...input, market: 'resale' } } }));
    expect(given.data.homeValuation.marketMixture).toBeNull();
  });

  it('valuation(id): the record\'s valuation carries marketMixture', async () => {
    const query = 'query($id: String!) { valuation(id: $id) { valuation } }';
    const { data } = await json(await fixture.post('/graphql', { query, variables: { id: mixed.valuation_id } }));
    expect(data.valuation.valuation.marketMixture).toEqual({ newBuildProbability: mixed.market_mixture.new_build_probability, newBuild: mixed.market_mixture.new_build, resale: mixed.market_mixture.resale });
  });
});

describe('POST /api/batch', () => {
  it('an item without its market carries market_mixture in its line and new_build_probability in the CSV; one with its market neither', async () => {
    const home = { area: 65, rooms: 3, floor: 4, total_floors: 9, valuation_date: VALUATION_DATE };
    const address = 'Chilonzor tumani, 13-kvartal';
    const submitted = await fixture.post('/api/batch', { items: [{ address, home }, { address, home: { ...home, market: 'resale' } }, { address }] });
    expect(submitted.status).toBe(202);
    const { id } = await json(submitted);
    const job = await until(async () => json(await get(`/api/batch/${id}`)), (j) => ['completed', 'failed', 'cancelled'].includes(j.status));
    expect(job).toMatchObject({ status: 'completed', succeeded: 3 });
    const lines = (await (await get(`/api/batch/${id}/results`)).text()).trimEnd().split('\n').map((l) => JSON.parse(l));
    const m = lines[0].result.home.market_mixture;
    expect(m.new_build_probability).toBeGreaterThan(0);
    expect(m.new_build_probability).toBeLessThan(1);
    expect(m.new_build.low).toBeLessThan(m.new_build.estimate);
    expect(m.resale.estimate).toBeLessThan(m.resale.high);
    expect(lines[1].result.home.market_mixture).toBeNull();
    expect(lines[1].result.home.estimate).toBe(m.resale.estimate);
    expect(lines[2].result.home).toBeUndefined();

    const rows = parseCsv(await (await get(`/api/batch/${id}/results?format=csv`)).text(), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]).indexOf('new_build_probability')).toBe(Object.keys(rows[0]).indexOf('market_factor') + 1);
    expect(Number(rows[0].new_build_probability)).toBe(m.new_build_probability);
    expect(rows[1].new_build_probability).toBe('');
    expect(rows[2].new_build_probability).toBe('');
  });
});

describe('MCP value_home', () => {
  it('carries market_mixture as REST does, and its summary says how the flat was valued', async () => {
    const session = await connectHttp(fixture.stack, { 'x-api-key': fixture.key });
    try {
      const { reply, summary } = await callOk(session.client, 'value_home', { ...SAMPLE_HOME_ARGUMENTS, valuation_date: VALUATION_DATE });
      expect(reply.market_mixture).toEqual(mixed.market_mixture);
      expect(summary).toContain(`Market not given: valued as a new build (probability ${(mixed.market_mixture.new_build_probability * 100).toFixed(0)}%) and as resale, mixed.`);
      const given = await callOk(session.client, 'value_home', { ...SAMPLE_HOME_ARGUMENTS, valuation_date: VALUATION_DATE, market: 'new' });
      expect(given.reply.market_mixture).toBeNull();
      expect(given.summary).not.toContain('Market not given');
    } finally {
      await session.close();
    }
  });
});
