/**
 * `/metrics` exports each organisation's live accuracy (issue 18, item 3), through a real stack:
 * observations recorded over REST show in the gateway's /metrics as the numbers GraphQL
 * `liveAccuracy` gives the organisation over the same window, each organisation's series its own;
 * and a subgraph's own /metrics (what a split deployment scrapes) is behind the internal token.
 */
import { randomBytes } from 'node:crypto';
import { json, readMetrics, startTestStack, TEST_METRICS_TOKEN, type TestStack } from '../support/stack';
import { until } from '../support/wait';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { METRICS_TOKEN: TEST_METRICS_TOKEN, METRICS_PORT: '', OBSERVATION_METRICS_REFRESH_MS: '200' } });
});
afterAll(() => stack?.stop());

const RUN = randomBytes(4).toString('hex');
const FLAT = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The samples of `name` in Prometheus text, with their labels. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => {
      const [, labels, value] = /^[^{]+\{(.*)\} (\S+)$/.exec(line)!;
      return { labels: Object.fromEntries([...labels.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v])), value: Number(value) };
    });
}

/** The value of `name` with exactly these labels; undefined when there is no such series. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  return samples(text, name).find((s) => JSON.stringify(Object.entries(s.labels).sort()) === wanted)?.value;
}

interface Organisation {
  org: string;
  key: string;
  accepted: number;
}

/** Records `count` flats observed today at `ratio` × the model's estimate (± 8%), in calls of `perCall`. */
async function record(org: string, count: number, ratio: number, perCall: number, reference: string): Promise<Organisation> {
  const { key } = stack.keys.create({ org, plan: 'standard' });
  let accepted = 0;
  for (let from = 0; from < count; from += perCall) {
    const observations = [];
    for (let i = from; i < Math.min(count, from + perCall); i++) {
      const area = 40 + i;
      const base = await json(await stack.post('/api/predict/home', { ...FLAT, area }, { 'x-api-key': reference }));
      observations.push({ kind: 'home', ...FLAT, area, price_usd: Math.round(base.estimate * ratio * (1 + 0.08 * Math.sin(area))), observed_at: day(Date.now()) });
    }
    const recorded = await stack.post('/api/observations', { observations }, { 'x-api-key': key });
    expect(recorded.status).toBe(200);
    accepted += (await json(recorded)).accepted;
  }
  return { org, key, accepted };
}

const MEASURES = '{ observations medianApe meanBias within10 coverage }';

async function liveAccuracy(key: string, since: string) {
  const result = await json(await stack.post('/graphql', {
    query: `query($since: String) { liveAccuracy(kind: HOME, since: $since) { level overall { service ${MEASURES} base ${MEASURES} drift { judged flagged } } groups { group drift { flagged } } } }`,
    variables: { since },
  }, { 'x-api-key': key }));
  expect(result.errors).toBeUndefined();
  return result.data.liveAccuracy;
}

it("each organisation's series carry the live accuracy GraphQL reports for it, over the last 90 days", async () => {
  const reference = stack.newKey();
  // One bank whose prices run 25% above the model (40 observations in two calls: the drift rule judges and flags it),
  // one whose prices match it (12: too few to judge).
  const banks = {
    drifting: await record(`metrics-a-${RUN}`, 40, 1.25, 20, reference),
    steady: await record(`metrics-b-${RUN}`, 12, 1.0, 12, reference),
  };
  expect([banks.drifting.accepted, banks.steady.accepted]).toEqual([40, 12]);

  const home = (org: string) => ({ organisation: org, kind: 'home' });
  const text = await until(
    () => readMetrics(stack),
    (metrics) => sample(metrics, 'observations_live_count', home(banks.drifting.org)) === 40 && sample(metrics, 'observations_live_count', home(banks.steady.org)) === 12,
  );
  const since = day(Date.now() - 90 * DAY);
  for (const bank of [banks.drifting, banks.steady]) {
    const report = await liveAccuracy(bank.key, since);
    expect(report.level).toBe('district');
    const labels = home(bank.org);
    for (const valuation of ['service', 'base'] as const) {
      const measures = report.overall[valuation];
      expect(sample(text, 'observations_live_median_ape', { ...labels, valuation })).toBeCloseTo(measures.medianApe, 9);
      expect(sample(text, 'observations_live_bias', { ...labels, valuation })).toBeCloseTo(measures.meanBias, 9);
      expect(sample(text, 'observations_live_within_10', { ...labels, valuation })).toBeCloseTo(measures.within10, 9);
      expect(sample(text, 'observations_live_interval_coverage', { ...labels, valuation })).toBeCloseTo(measures.coverage, 9);
    }
    expect(sample(text, 'observations_live_count', labels)).toBe(report.overall.service.observations);
    expect(sample(text, 'observations_drift', labels)).toBe(report.overall.drift.flagged ? 1 : 0);
    expect(sample(text, 'observations_drift_groups', labels)).toBe(report.groups.filter((g: { drift: { flagged: boolean } }) => g.drift.flagged).length);
    expect(sample(text, 'observations_recorded_total', labels)).toBe(bank.accepted);
  }

  // The verdicts the gauges carry: the 25% bank is flagged (overall and in its district), the other is not.
  expect(sample(text, 'observations_drift', home(banks.drifting.org))).toBe(1);
  expect(sample(text, 'observations_drift_groups', home(banks.drifting.org))).toBe(1);
  expect(sample(text, 'observations_drift', home(banks.steady.org))).toBe(0);
  // Each organisation's series are its own: A's bias is A's (about 25% low), not B's (about none).
  const bias = (org: string) => sample(text, 'observations_live_bias', { ...home(org), valuation: 'base' })!;
  expect(bias(banks.drifting.org)).toBeGreaterThan(0.15);
  expect(Math.abs(bias(banks.steady.org))).toBeLessThan(0.1);
  // Overall figures only: one series per organisation, kind (and valuation), never per district; no vehicle series for home observations.
  const series = samples(text, 'observations_live_median_ape').filter((s) => s.labels.organisation === banks.drifting.org);
  expect(series.map((s) => s.labels)).toEqual([
    { organisation: banks.drifting.org, kind: 'home', valuation: 'service' },
    { organisation: banks.drifting.org, kind: 'home', valuation: 'base' },
  ]);
});

describe("a subgraph's own /metrics", () => {
  const subgraphMetrics = (init: RequestInit = {}) => fetch(`${stack.residential.url.replace(/\/graphql$/, '')}/metrics`, init);

  it('answers 401 without the internal token, and the process registry with it as a bearer token or the gateway\'s header', async () => {
    const bank = await record(`metrics-c-${RUN}`, 3, 1.1, 3, stack.newKey());
    const refusedHeaders: Record<string, string>[] = [{}, { authorization: `Bearer ${TEST_METRICS_TOKEN}` }, { authorization: `Bearer ${stack.internalToken}x` }, { authorization: stack.internalToken }, { 'x-internal-token': 'nope' }];
    for (const headers of refusedHeaders) {
      const refused = await subgraphMetrics({ headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect((await json(refused)).error.code).toBe('INVALID_TOKEN');
    }
    const servedHeaders: Record<string, string>[] = [{ authorization: `Bearer ${stack.internalToken}` }, { 'x-internal-token': stack.internalToken }];
    for (const headers of servedHeaders) {
      const served = await subgraphMetrics({ headers });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await served.text();
      expect(text).toContain('process_cpu_user_seconds_total');
      // Counted as the call stored them (the live figures follow within the refresh interval).
      expect(sample(text, 'observations_recorded_total', { organisation: bank.org, kind: 'home' })).toBe(3);
    }
  });

  it('takes the bearer token on /metrics only: the graph still wants the gateway\'s header', async () => {
    const response = await fetch(stack.residential.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.internalToken}` }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(response.status).toBe(401);
  });
});
