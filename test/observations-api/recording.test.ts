/**
 * Observations end to end (issue 18): POST /api/observations and recordObservations through the
 * gateway, the organisation's valuations re-anchored at once, another organisation's untouched,
 * bad items refused in their places, and the GraphQL views of what is kept.
 */
import { json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';
import { until } from '../support/wait';

let stack: SharedTestStack;
beforeAll(async () => {
  stack = await sharedTestStack();
});

const FLAT = { district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
const today = () => new Date().toISOString().slice(0, 10);

async function valueFlat(key: string) {
  const response = await stack.post('/api/predict/home', FLAT, { 'x-api-key': key });
  expect(response.status).toBe(200);
  return json(response);
}

async function graphql(key: string, query: string, variables: Record<string, unknown> = {}) {
  return json(await stack.post('/graphql', { query, variables }, { 'x-api-key': key }));
}

it('observed prices 20% above the model move the organisation\'s valuations up, and no one else\'s', async () => {
  const bank = stack.newKey();
  const other = stack.newKey();
  const before = await valueFlat(bank);
  expect(before.market_adjustment).toBeNull();

  // Thirty sales of flats like it at about 1.2 × the model's estimate (± 10%, as real prices scatter).
  const observations = Array.from({ length: 30 }, (_, i) => ({ kind: 'home', ...FLAT, area: 60 + i, price_usd: 0, observed_at: today(), price_type: 'sale', reference: `loan-${i}` }));
  for (const o of observations) {
    const base = await json(await stack.post('/api/predict/home', { ...FLAT, area: o.area }, { 'x-api-key': other }));
    o.price_usd = Math.round(base.estimate * 1.2 * (1 + 0.1 * Math.sin(o.area)));
  }
  const recorded = await stack.post('/api/observations', { observations }, { 'x-api-key': bank });
  expect(recorded.status).toBe(200);
  const result = await json(recorded);
  expect(result.accepted).toBe(30);
  expect(result.rejected).toEqual([]);
  expect(result.accepted_observations.map((a: { reference: string }) => a.reference)).toEqual(observations.map((o) => o.reference));

  const after = await valueFlat(bank);
  expect(after.market_adjustment).toMatchObject({ base_estimate: before.estimate, group: 'Tashkent › Chilanzar › resale', level: 'segment', observations: 30 });
  expect(after.market_adjustment.factor).toBeGreaterThan(1.12);
  expect(after.market_adjustment.factor).toBeLessThan(1.25);
  expect(after.estimate / before.estimate).toBeCloseTo(after.market_adjustment.factor, 2);
  expect(after.interval.low).toBeLessThan(after.estimate);
  expect(after.interval.high).toBeGreaterThan(after.estimate);

  // An asking price just above the model's interval is above it for everyone else, and inside the bank's moved interval.
  expect(after.interval.high).toBeGreaterThan(before.interval.high + 200);
  const asking = Math.round((before.interval.high + after.interval.high) / 2);
  const askedOf = async (key: string) => json(await stack.post('/api/predict/home', { ...FLAT, asking_price: asking }, { 'x-api-key': key }));
  expect((await askedOf(other)).anomaly.flags).toContain('ASKING_PRICE_ABOVE_INTERVAL');
  expect((await askedOf(bank)).anomaly.flags).not.toContain('ASKING_PRICE_ABOVE_INTERVAL');

  // A valuation dated half a year back is the model's alone: nothing had been observed by then (point in time, issue 31).
  const past = new Date(Date.now() - 180 * 86_400_000).toISOString().slice(0, 10);
  const pastDated = await json(await stack.post('/api/predict/home', { ...FLAT, valuation_date: past }, { 'x-api-key': bank }));
  expect(pastDated.market_adjustment).toBeNull();
  expect(after.market_adjustment).toMatchObject({ as_of: today(), observations_used: 30 });

  // Another organisation sees the model alone.
  const untouched = await valueFlat(other);
  expect(untouched.market_adjustment).toBeNull();
  expect(untouched.estimate).toBe(before.estimate);

  // GraphQL: the kept observations (the bank's only) and the factors behind the adjustment.
  const listed = await graphql(bank, '{ observations(kind: HOME, limit: 5) { id observedAt priceUsd priceType reference groups baseEstimate } marketAdjustments(kind: HOME) { observations groups { group level factor observations } } }');
  expect(listed.errors).toBeUndefined();
  expect(listed.data.observations).toHaveLength(5);
  expect(listed.data.observations[0]).toMatchObject({ priceType: 'SALE', groups: ['Tashkent', 'Chilanzar', 'resale'] });
  expect(listed.data.marketAdjustments.observations).toBe(30);
  expect(listed.data.marketAdjustments.groups.map((g: { level: string }) => g.level)).toEqual(['city', 'district', 'segment']);
  const others = await graphql(other, '{ observations(kind: HOME) { id } marketAdjustments(kind: HOME) { observations } }');
  expect(others.data).toEqual({ observations: [], marketAdjustments: null });
});

it('a valuation dated in the past is re-anchored on what had been observed by its date, fitted as of it (issue 31)', async () => {
  const bank = stack.newKey();
  const other = stack.newKey();
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const [then, before, longBefore] = [daysAgo(200), daysAgo(180), daysAgo(250)];
  // Thirty prices 200 days ago at 0.8 × the model's estimate of their day, thirty today at 1.2 ×.
  const at = async (date: string, level: number, tag: string) => Promise.all(Array.from({ length: 30 }, async (_, i) => {
    const base = await json(await stack.post('/api/predict/home', { ...FLAT, area: 60 + i, valuation_date: date }, { 'x-api-key': other }));
    return { kind: 'home', ...FLAT, area: 60 + i, price_usd: Math.round(base.estimate * level * (1 + 0.05 * Math.sin(i))), observed_at: date, price_type: 'sale', reference: `${tag}-${i}` };
  }));
  const recorded = await stack.post('/api/observations', { observations: [...await at(then, 0.8, 'old'), ...await at(today(), 1.2, 'new')] }, { 'x-api-key': bank });
  expect((await json(recorded)).accepted).toBe(60);

  const valueAt = async (date: string) => json(await stack.post('/api/predict/home', { ...FLAT, valuation_date: date }, { 'x-api-key': bank }));
  const dated = await valueAt(before);
  expect(dated.market_adjustment).toMatchObject({ as_of: before, observations_used: 30 });
  expect(dated.market_adjustment.effective_observations_used).toBeCloseTo(30, 0);
  expect(dated.market_adjustment.factor).toBeLessThan(0.88);
  expect(dated.warnings.join(' ')).not.toMatch(/valued with the model alone/);
  const now = await valueAt(today());
  expect(now.market_adjustment).toMatchObject({ as_of: today(), observations_used: 60 });
  // Today's prices weigh most (the older ones are 200 days, 2.2 half-lives, old): the factor is above 1.
  expect(now.market_adjustment.factor).toBeGreaterThan(1.05);
  // Before anything was observed: the model alone, without a word about adjustments.
  const earliest = await valueAt(longBefore);
  expect(earliest.market_adjustment).toBeNull();
  // The same date again is answered from the same fit.
  expect((await valueAt(before)).market_adjustment).toEqual(dated.market_adjustment);
  expect((await json(await stack.post('/api/predict/home', { ...FLAT, valuation_date: before }, { 'x-api-key': other }))).market_adjustment).toBeNull();
});

it('refuses a price implausibly far from the model (in thousands, per m²), so a careless upload cannot wreck the bank\'s valuations (issue 33, finding 6)', async () => {
  const bank = stack.newKey();
  const before = await valueFlat(bank);
  const response = await stack.post('/api/observations', {
    observations: [
      { kind: 'home', ...FLAT, price_usd: 75, observed_at: today(), reference: 'thousands' },
      { kind: 'home', ...FLAT, price_usd: Math.round(before.estimate / 65), observed_at: today(), reference: 'per-m2' },
      { kind: 'home', ...FLAT, price_usd: before.estimate * 8, observed_at: today(), reference: 'soum-ish' },
      { kind: 'home', ...FLAT, price_usd: Math.round(before.estimate * 1.1), observed_at: today(), reference: 'fine' },
    ],
  }, { 'x-api-key': bank });
  const result = await json(response);
  expect(result.accepted).toBe(1);
  expect(result.rejected.map((r: { reference: string; error: { code: string; field: string } }) => [r.reference, r.error.code, r.error.field])).toEqual([
    ['thousands', 'INVALID_PARAMETER', 'price_usd'], ['per-m2', 'INVALID_PARAMETER', 'price_usd'], ['soum-ish', 'INVALID_PARAMETER', 'price_usd'],
  ]);
  expect(result.rejected[0].error.message).toMatch(/a fifth of the cheapest home the model was trained on/);
  expect(result.rejected[2].error.message).toMatch(/in thousands, per m², in soʻm, or of another property/);
  // The one plausible price moves the valuation a little, never to 100 USD.
  const after = await valueFlat(bank);
  expect(after.estimate / before.estimate).toBeGreaterThan(0.95);
  expect(after.estimate / before.estimate).toBeLessThan(1.15);
});

it('refuses an NDJSON line carrying a __proto__ key in its place, as the JSON route refuses the body (issue 33, finding 12)', async () => {
  const bank = stack.newKey();
  const line = (o: Record<string, unknown>) => JSON.stringify({ kind: 'home', ...FLAT, price_usd: 70_000, observed_at: today(), ...o });
  const body = [line({ reference: 'ok' }), line({ reference: 'poisoned' }).replace('{', '{"__proto__":{"isAdmin":true},'), line({ reference: 'ctor' }).replace('{', '{"constructor":{"prototype":{"x":1}},')].join('\n');
  const response = await stack.fetch('/api/observations', { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': bank }, body });
  const result = await json(response);
  expect(result.accepted).toBe(1);
  expect(result.rejected.map((r: { index: number; error: { code: string } }) => [r.index, r.error.code])).toEqual([[1, 'INVALID_JSON'], [2, 'INVALID_JSON']]);
  const asJson = await stack.fetch('/api/observations', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': bank }, body: '{"__proto__":{"isAdmin":true},"observations":[]}' });
  expect(asJson.status).toBe(400);
  expect((await json(asJson)).error.code).toBe('INVALID_JSON');
});

it('each observation scored is charged as a valuation: a pilot plan cannot record more than its allowance (issue 33, finding 2)', async () => {
  const bank = stack.newKey('pilot'); // 1,000 valuations a minute
  const observations = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ kind: 'home', ...FLAT, area: 40 + (i % 60), price_usd: 60_000, observed_at: today(), reference: `${tag}-${i}` }));
  // A minute boundary may restore the allowance between the two calls: then once more.
  let status = 0;
  for (let attempt = 0; attempt < 2 && status !== 429; attempt++) {
    const spent = await stack.post('/api/observations', { observations: observations(999, `a${attempt}`) }, { 'x-api-key': bank });
    expect([200, 429]).toContain(spent.status);
    const more = await stack.post('/api/observations', { observations: observations(50, `b${attempt}`) }, { 'x-api-key': bank });
    status = more.status;
    if (status === 429) expect((await json(more)).error.code).toBe('RATE_LIMITED');
  }
  expect(status).toBe(429);
  // GraphQL is charged the same way (one valuation of the minute is left: ten do not fit).
  const item = { kind: 'HOME', home: { district: 'Chilanzar', area: 60, rooms: 2, floor: 3, totalFloors: 9 }, priceUsd: 60_000, observedAt: today(), priceType: 'SALE' };
  const graphql = await json(await stack.post('/graphql', { query: 'mutation($i: RecordObservationsInput!) { recordObservations(input: $i) { accepted } }', variables: { i: { observations: Array.from({ length: 10 }, () => item) } } }, { 'x-api-key': bank }));
  expect(graphql.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
});

it('a bad item is refused in its place and the others are kept', async () => {
  const bank = stack.newKey();
  const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const response = await stack.post('/api/observations', {
    observations: [
      { kind: 'home', ...FLAT, price_usd: 70000, observed_at: today() },
      { kind: 'home', ...FLAT, price_usd: 70000, observed_at: tomorrow, reference: 'future' },
      { kind: 'boat', price_usd: 1, observed_at: today() },
      { kind: 'home', ...FLAT, district: 'Atlantis', price_usd: 70000, observed_at: today() },
      { kind: 'home', ...FLAT, price_usd: -5, observed_at: today() },
      { kind: 'home', ...FLAT, passport_number: 'AA1234567', price_usd: 70000, observed_at: today() },
      { kind: 'vehicle', make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000, price_usd: 11800, observed_at: today() },
    ],
  }, { 'x-api-key': bank });
  expect(response.status).toBe(200);
  const result = await json(response);
  expect(result.accepted).toBe(2);
  expect(result.accepted_observations.map((a: { index: number }) => a.index)).toEqual([0, 6]);
  expect(result.rejected.map((r: { index: number; reference: string | null; error: { code: string; field: string | null } }) => [r.index, r.reference, r.error.code, r.error.field])).toEqual([
    [1, 'future', 'INVALID_PARAMETER', 'observed_at'],
    [2, null, 'INVALID_PARAMETER', 'kind'],
    [3, null, 'UNKNOWN_DISTRICT', 'district'],
    [4, null, 'INVALID_PARAMETER', 'price_usd'],
    [5, null, 'PERSONAL_DATA_NOT_ACCEPTED', expect.any(String)],
  ]);
});

it('refuses a body without observations, and callers without credentials', async () => {
  const key = stack.newKey();
  const missing = await stack.post('/api/observations', {}, { 'x-api-key': key });
  expect(missing.status).toBe(400);
  expect((await json(missing)).error).toMatchObject({ code: 'MISSING_PARAMETER', field: 'observations' });
  const anonymous = await stack.post('/api/observations', { observations: [] }, {});
  expect(anonymous.status).toBe(401);
});

it('live accuracy scores each call against the valuations given before it, and flags a biased model', async () => {
  const bank = stack.newKey();
  const reference = stack.newKey();
  const call = async (from: number) => {
    const observations = [];
    for (let i = 0; i < 40; i++) {
      const area = 40 + from + i;
      const base = await json(await stack.post('/api/predict/home', { ...FLAT, area }, { 'x-api-key': reference }));
      observations.push({ kind: 'home', ...FLAT, area, price_usd: Math.round(base.estimate * 1.25 * (1 + 0.08 * Math.sin(area))), observed_at: today() });
    }
    const recorded = await json(await stack.post('/api/observations', { observations }, { 'x-api-key': bank }));
    expect(recorded.accepted).toBe(40);
  };
  const report = async () => {
    const result = await graphql(bank, '{ liveAccuracy(kind: HOME) { level overall { service { observations meanBias meanBiasLow coverage } base { observations meanBias } drift { judged flagged bias reasons } } groups { group service { observations } } driftRule } }');
    expect(result.errors).toBeUndefined();
    return result.data.liveAccuracy;
  };

  await call(0);
  const first = await report();
  // Nothing recorded before the first call: the service gave the model's valuations, 25% low.
  expect(first.overall.service).toMatchObject({ observations: 40 });
  expect(first.overall.service.meanBias).toBeCloseTo(first.overall.base.meanBias, 6);
  expect(first.overall.service.meanBias).toBeGreaterThan(0.15);
  expect(first.overall.drift).toMatchObject({ judged: true, flagged: true, bias: 'valuations low' });
  expect(first.groups).toEqual([{ group: 'Tashkent › Chilanzar', service: { observations: 40 } }]);
  expect(first.driftRule).toContain('95% interval');

  await call(40);
  const second = await report();
  // The second call's flats were valued with the first call's factor: the service's bias shrinks.
  expect(second.overall.service.observations).toBe(80);
  expect(second.overall.service.meanBias).toBeLessThan(second.overall.base.meanBias - 0.05);

  const badLevel = await graphql(bank, '{ liveAccuracy(kind: HOME, level: "make") { level } }');
  expect(badLevel.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'level' });
});

it('takes a CSV or NDJSON file: each row an observation, a bad row refused in its place', async () => {
  const bank = stack.newKey();
  const upload = (type: string, body: string) => fetch(`${stack.url}/api/observations`, { method: 'POST', headers: { 'content-type': type, 'x-api-key': bank }, body });
  const csv = [
    'kind,district,area,rooms,floor,total_floors,market,price_usd,observed_at,price_type,reference',
    `home,Chilanzar,65,3,4,9,resale,72000,${today()},sale,r-1`,
    `home,Chilanzar,"58,5",2,2,5,,61000,${today()},,r-2`,
    `home,Chilanzar,65,3,4,9,resale,lots,${today()},sale,r-3`,
  ].join('\n');
  const fromCsv = await json(await upload('text/csv', csv));
  expect(fromCsv.accepted).toBe(2);
  expect(fromCsv.accepted_observations.map((a: { index: number; reference: string }) => [a.index, a.reference])).toEqual([[0, 'r-1'], [1, 'r-2']]);
  expect(fromCsv.rejected).toEqual([{ index: 2, reference: 'r-3', error: expect.objectContaining({ code: 'INVALID_PARAMETER', field: 'price_usd' }) }]);

  const ndjson = [
    JSON.stringify({ kind: 'vehicle', make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000, price_usd: 11800, observed_at: today() }),
    '{ not json',
    '',
    JSON.stringify({ kind: 'home', ...FLAT, price_usd: 70000, observed_at: today() }),
  ].join('\n');
  const fromNdjson = await json(await upload('application/x-ndjson', ndjson));
  expect(fromNdjson.accepted).toBe(2);
  expect(fromNdjson.rejected).toEqual([{ index: 1, reference: null, error: expect.objectContaining({ code: 'INVALID_JSON' }) }]);
  const listed = await graphql(bank, '{ homes: observations(kind: HOME) { reference } vehicles: observations(kind: VEHICLE) { priceUsd } }');
  expect(listed.data.homes.map((o: { reference: string | null }) => o.reference).sort()).toEqual([null, 'r-1', 'r-2']);
  expect(listed.data.vehicles).toEqual([{ priceUsd: 11800 }]);

  const empty = await upload('text/csv', 'kind,price_usd,observed_at\n');
  expect(empty.status).toBe(400);
  expect((await json(empty)).error).toMatchObject({ code: 'MISSING_PARAMETER', field: 'observations' });
});

it('GET /api/observations exports every kept observation of a kind as NDJSON, pages of 10,000 included, and only the caller\'s', async () => {
  const bank = stack.newKey('enterprise'); // 10,050 observations are 10,050 valuations: more than a standard plan's minute
  const other = stack.newKey();
  // 10,050 flats over three days: the export crosses a page boundary of the graph query.
  const days = [0, 1, 2].map((d) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10));
  const lines = Array.from({ length: 10_050 }, (_, i) => JSON.stringify({ kind: 'home', ...FLAT, area: 40 + (i % 60), price_usd: 50_000 + i, observed_at: days[i % 3], reference: `r-${i}` }));
  const recorded = await fetch(`${stack.url}/api/observations`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': bank }, body: lines.join('\n') });
  expect((await json(recorded)).accepted).toBe(10_050);
  await stack.post('/api/observations', { observations: [{ kind: 'home', ...FLAT, price_usd: 1_000_000, observed_at: today(), reference: 'not-yours' }] }, { 'x-api-key': other });

  const response = await stack.fetch('/api/observations?kind=home', { headers: { 'x-api-key': bank } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  const exported = (await response.text()).trim().split('\n').map((line) => JSON.parse(line));
  expect(exported).toHaveLength(10_050);
  expect(new Set(exported.map((o) => o.id)).size).toBe(10_050);
  expect(new Set(exported.map((o) => o.reference))).toEqual(new Set(lines.map((_, i) => `r-${i}`)));
  // Newest observed first; each line the envelope, the groups, the model's valuation and the request as understood.
  expect(exported.map((o) => o.observed_at)).toEqual([...exported.map((o) => o.observed_at)].sort().reverse());
  const first = exported.find((o) => o.reference === 'r-0');
  expect(first).toMatchObject({ kind: 'home', observed_at: days[0], price_usd: 50_000, price_type: 'listing', groups: ['Tashkent', 'Chilanzar', 'resale'], input: { district: 'Chilanzar', area: 40, rooms: 3, floor: 4, totalFloors: 9, market: 'resale' } });
  expect(first.base_estimate).toBeGreaterThan(0);
  expect(first.base_low).toBeLessThan(first.base_estimate);

  const window = await stack.fetch(`/api/observations?kind=home&since=${days[1]}&until=${days[1]}`, { headers: { 'x-api-key': bank } });
  const inWindow = (await window.text()).trim().split('\n').map((line) => JSON.parse(line));
  expect(inWindow).toHaveLength(3_350);
  expect(new Set(inWindow.map((o) => o.observed_at))).toEqual(new Set([days[1]]));

  const vehicles = await stack.fetch('/api/observations?kind=vehicle', { headers: { 'x-api-key': bank } });
  expect(vehicles.status).toBe(200);
  expect(await vehicles.text()).toBe('');

  const badKind = await stack.fetch('/api/observations?kind=boat', { headers: { 'x-api-key': bank } });
  expect(badKind.status).toBe(400);
  expect((await json(badKind)).error).toMatchObject({ field: 'kind' });
  const badDate = await stack.fetch('/api/observations?kind=home&since=2026-02-30', { headers: { 'x-api-key': bank } });
  expect(badDate.status).toBe(400);
  expect((await json(badDate)).error).toMatchObject({ code: 'INVALID_PARAMETER', field: 'since' });
  expect((await stack.fetch('/api/observations?kind=home')).status).toBe(401);
});

it('a batch job\'s home valuations carry the organisation\'s adjustment, in NDJSON and CSV results', async () => {
  const bank = stack.newKey();
  const observations = Array.from({ length: 30 }, (_, i) => ({ kind: 'home', ...FLAT, district: 'Yunusabad', area: 55 + i, price_usd: 0, observed_at: today() }));
  for (const o of observations) {
    const base = await json(await stack.post('/api/predict/home', { ...FLAT, district: 'Yunusabad', area: o.area }, { 'x-api-key': stack.newKey() }));
    o.price_usd = Math.round(base.estimate * 0.8);
  }
  expect((await json(await stack.post('/api/observations', { observations }, { 'x-api-key': bank }))).accepted).toBe(30);

  const home = { area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
  const submitted = await stack.post('/api/batch', { items: [{ address: 'Юнусабад 8-й квартал', home }, { address: 'Юнусабад 8-й квартал' }] }, { 'x-api-key': bank });
  expect(submitted.status).toBe(202);
  const { id } = await json(submitted);
  await until(async () => json(await stack.fetch(`/api/batch/${id}`, { headers: { 'x-api-key': bank } })), (job) => job.status === 'completed');
  const lines = (await (await stack.fetch(`/api/batch/${id}/results`, { headers: { 'x-api-key': bank } })).text()).trim().split('\n').map((l) => JSON.parse(l));
  const valued = lines[0].result.home;
  expect(valued.market_adjustment).toMatchObject({ level: 'segment', group: 'Tashkent › Yunusabad › resale', observations: 30 });
  expect(valued.market_adjustment.factor).toBeLessThan(0.9);
  expect(valued.estimate).toBeCloseTo(valued.market_adjustment.base_estimate * valued.market_adjustment.factor, -2);
  expect(lines[1].result.home).toBeUndefined();

  const csv = await (await stack.fetch(`/api/batch/${id}/results?format=csv`, { headers: { 'x-api-key': bank } })).text();
  const [header, first] = csv.trim().split('\r\n').map((row) => row.split(','));
  const cell = (name: string) => first[header.indexOf(name)];
  expect(Number(cell('base_estimate'))).toBe(valued.market_adjustment.base_estimate);
  expect(Number(cell('market_factor'))).toBeCloseTo(valued.market_adjustment.factor, 6);
});

it('a JSON body of more observations than one graph call may price (20,000) is recorded in parts, not refused (issue 33)', async () => {
  const bank = stack.newKey('enterprise');
  const observations = Array.from({ length: 20_500 }, (_, i) => ({ kind: 'home', ...FLAT, area: 40 + (i % 60), price_usd: 50_000 + (i % 5_000), observed_at: today(), reference: `j-${i}` }));
  const response = await stack.post('/api/observations', { observations }, { 'x-api-key': bank });
  expect(response.status).toBe(200);
  const body = await json(response);
  expect(body.accepted + body.rejected_count).toBe(20_500);
  expect(body.accepted).toBeGreaterThan(20_000);
  // Indexes are the body's, across the parts.
  expect(body.accepted_observations.at(-1).index).toBe(20_499);
  expect(body.accepted_observations.at(-1).reference).toBe('j-20499');
}, 180_000);
