/** GraphQL through the gateway: the same valuation as REST, bulk, model info, limits, masking, subgraph access. */
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { startTestStack, json } from '../support/stack';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

let stack: SharedTestStack;
let key: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  key = stack.newKey('enterprise');
});

const gql = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  stack.post('/graphql', { query, variables }, { 'x-api-key': key, ...headers });

const SAMPLE_INPUT = {
  district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9,
  renovation: 'Evro', buildingType: "G'ishtli", furniture: true, bathroom: 'alohida',
};

const VALUATION_FIELDS = 'estimate pricePerM2 interval { low high coverage } fsd confidence { level score drivers } models { name estimate weight } anomaly { flags modelSpread } location { districtName mahallaName matched } modelVersion';

it('values the sample home exactly as the REST route does', async () => {
  const response = await gql(`query($input: HomeValuationInput!) { homeValuation(input: $input) { ${VALUATION_FIELDS} } }`, { input: SAMPLE_INPUT });
  expect(response.status).toBe(200);
  expect(response.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
  const { data, errors } = await json(response);
  expect(errors).toBeUndefined();
  const rest = await json(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key }));
  expect(data.homeValuation.estimate).toBe(rest.estimate);
  expect(data.homeValuation.interval).toEqual(rest.interval);
  expect(data.homeValuation.confidence).toEqual(rest.confidence);
  expect(data.homeValuation.fsd).toBe(rest.fsd);
  expect(data.homeValuation.models).toEqual(rest.models);
});

it('answers an unknown district with UNKNOWN_DISTRICT and suggestions in extensions', async () => {
  const { data, errors } = await json(await gql(`query($input: HomeValuationInput!) { homeValuation(input: $input) { estimate } }`, { input: { ...SAMPLE_INPUT, district: 'Chilanzarabad' } }));
  expect(data).toBeNull();
  expect(errors[0].extensions.code).toBe('UNKNOWN_DISTRICT');
  expect(errors[0].extensions.field).toBe('district');
  expect(errors[0].extensions.suggestions).toContain('Chilanzar');
});

it('values a bulk of inputs in one call, with per-item errors in input order', async () => {
  const inputs = Array.from({ length: 200 }, (_, i) => ({ ...SAMPLE_INPUT, area: 40 + (i % 80) }));
  inputs[7] = { ...SAMPLE_INPUT, district: 'Atlantis' };
  inputs[9] = { ...SAMPLE_INPUT, floor: 10, totalFloors: 9 };
  const { data, errors } = await json(await gql(`query($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index valuation { estimate interval { low high } } error { code field } } }`, { inputs }));
  expect(errors).toBeUndefined();
  const results = data.homeValuations;
  expect(results).toHaveLength(200);
  results.forEach((r: { index: number }, i: number) => expect(r.index).toBe(i));
  expect(results[7].error).toEqual({ code: 'UNKNOWN_DISTRICT', field: 'district' });
  expect(results[9].error).toEqual({ code: 'INVALID_PARAMETER', field: 'floor' });
  expect(results[0].valuation.estimate).toBeGreaterThan(0);
  // Same input, same answer, whether valued alone or in bulk.
  const single = await json(await gql(`query($input: HomeValuationInput!) { homeValuation(input: $input) { estimate } }`, { input: inputs[3] }));
  expect(results[3].valuation.estimate).toBe(single.data.homeValuation.estimate);
  // Larger area, higher value.
  expect(results[60].valuation.estimate).toBeGreaterThan(results[1].valuation.estimate);
});

it('refuses more than 1,000 inputs', async () => {
  const inputs = Array.from({ length: 1001 }, () => SAMPLE_INPUT);
  const { errors } = await json(await gql(`query($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index } }`, { inputs }));
  expect(errors[0].extensions.code).toBe('INVALID_PARAMETER');
});

it('reports the model in service with held-out metrics per district', async () => {
  const { data } = await json(await gql(`{ residentialModel { version trainedAt dataSnapshot evaluation intervalCoverage metrics { n r2 mape intervalCoverage } districts { district accuracyClass metrics { n mape intervalCoverage intervalCoverageBounds95 { low high } } } members { name algorithm weight } featureImportance { feature importance } } }`));
  const model = data.residentialModel;
  expect(model.version).toBe(stack.modelVersion);
  expect(model.metrics.n).toBeGreaterThan(100);
  expect(model.metrics.mape).toBeGreaterThan(0);
  expect(model.districts.length).toBeGreaterThanOrEqual(8);
  for (const { metrics } of model.districts) {
    expect(metrics.intervalCoverageBounds95.low).toBeLessThanOrEqual(metrics.intervalCoverage);
    expect(metrics.intervalCoverageBounds95.high).toBeGreaterThanOrEqual(metrics.intervalCoverage);
  }
  expect(model.members.length).toBeGreaterThanOrEqual(1);
  expect(model.featureImportance.length).toBeGreaterThan(3);
});

it('answers accuracy figures rounded as they are quoted, and classes in one ordered vocabulary (issue 35, item 7)', async () => {
  const { data } = await json(await gql(`{ residentialModel { metrics { r2 mape medianApe maeUsd ppe10 intervalCoverage intervalCoverageBounds95 { low high } } districts { accuracyClass metrics { r2 mape medianApe } } } }`));
  const { metrics, districts } = data.residentialModel;
  const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;
  for (const key of ['r2', 'mape', 'medianApe', 'ppe10', 'intervalCoverage']) expect(decimals(metrics[key])).toBeLessThanOrEqual(4);
  expect(decimals(metrics.intervalCoverageBounds95.low)).toBeLessThanOrEqual(4);
  expect(Number.isInteger(metrics.maeUsd)).toBe(true);
  // Unrounded figures would show their float tails somewhere among a dozen districts' three figures each.
  for (const d of districts) for (const x of [d.metrics.r2, d.metrics.mape, d.metrics.medianApe]) expect(decimals(x)).toBeLessThanOrEqual(4);
  const classes = new Set(districts.map((d: { accuracyClass: string }) => d.accuracyClass));
  for (const c of classes) expect(['high', 'good', 'fair', 'low']).toContain(c);
  expect(classes.has('good') || classes.has('fair')).toBe(true);
});

it('rejects wrong variable types with a request error, not a crash', async () => {
  const response = await gql(`query($input: HomeValuationInput!) { homeValuation(input: $input) { estimate } }`, { input: { ...SAMPLE_INPUT, area: 'abc' } });
  const { errors } = await json(response);
  expect(errors[0].extensions.code).toBe('BAD_USER_INPUT');
});

it('enforces the depth limit', async () => {
  const deep = `{ residentialModel { districts { metrics { n } } } }`;
  expect((await json(await gql(deep))).errors).toBeUndefined();
  const limited = await startTestStack({ env: { MAX_QUERY_DEPTH: '2' } });
  try {
    const k = limited.newKey('enterprise');
    const { errors } = await json(await limited.post('/graphql', { query: deep }, { 'x-api-key': k }));
    expect(errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
    expect(errors[0].message).toMatch(/depth limit of 2 exceeded, found 4/);
  } finally {
    await limited.stop();
  }
});

it('answers variables that do not fit the operation with 400 BAD_USER_INPUT, not 500', async () => {
  const k = stack.newKey('enterprise');
  for (const variables of [{ a: 5 }, { a: [[1]] }, {}, { a: { nested: true } }]) {
    const response = await stack.post('/graphql', { query: 'query($a: String!) { geocode(address: $a) { lat } }', variables }, { 'x-api-key': k });
    expect([variables, response.status]).toEqual([variables, 400]);
    expect((await json(response)).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  }
});

it('enforces the cost limit (bulk items count)', async () => {
  const limited = await startTestStack({ env: { MAX_QUERY_COST: '300' } });
  try {
    const k = limited.newKey('enterprise');
    const inputs = Array.from({ length: 400 }, () => SAMPLE_INPUT);
    const response = await limited.post('/graphql', { query: `query($inputs: [HomeValuationInput!]!) { homeValuations(inputs: $inputs) { index } }`, variables: { inputs } }, { 'x-api-key': k });
    expect(response.status).toBe(400);
    const { errors } = await json(response);
    expect(errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  } finally {
    await limited.stop();
  }
});

it('has CSRF prevention on: a simple GET without a preflight header is refused', async () => {
  const response = await fetch(`${stack.url}/graphql?query=${encodeURIComponent('{ residentialModel { version } }')}`, { headers: { 'x-api-key': key } });
  expect(response.status).toBe(400);
  const ok = await fetch(`${stack.url}/graphql?query=${encodeURIComponent('{ residentialModel { version } }')}`, { headers: { 'x-api-key': key, 'apollo-require-preflight': 'true' } });
  expect(ok.status).toBe(200);
});

it('needs credentials: 401 without a key', async () => {
  const response = await stack.post('/graphql', { query: '{ residentialModel { version } }' });
  expect(response.status).toBe(401);
  expect((await json(response)).error.code).toBe('INVALID_API_KEY');
});

it('subgraphs answer only the gateway', async () => {
  const query = { query: '{ residentialModel { version } }' };
  const direct = await fetch(stack.residential.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(query) });
  expect(direct.status).toBe(401);
  const withToken = await fetch(stack.residential.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-internal-token': stack.internalToken }, body: JSON.stringify(query) });
  expect(withToken.status).toBe(200);
});
