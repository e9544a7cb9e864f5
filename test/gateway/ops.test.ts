/** Health, readiness, metrics, OpenAPI and the docs page. */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { expectError, json, readMetrics, startTestStack, TEST_METRICS_TOKEN as METRICS_TOKEN, useTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { METRICS_TOKEN, METRICS_PORT: '' } });
});
afterAll(() => stack.stop());
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

it('GET /health and /ready', async () => {
  expect((await json(await fetch(`${stack.url}/health`))).status).toBe('ok');
  const ready = await fetch(`${stack.url}/ready`);
  expect(ready.status).toBe(200);
});

it('GET /metrics (METRICS_TOKEN set) counts requests by route and status and reports the model', async () => {
  await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': stack.newKey() });
  const text = await readMetrics(stack);
  expect(text).toMatch(/http_requests_total\{route="\/api\/predict\/home",method="POST",status="200"\} \d+/);
  expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",route="\/api\/predict\/home"\}/);
  expect(text).toMatch(/model_inference_seconds_count\{kind="residential"\} \d+/);
  expect(text).toContain(`model_info{kind="residential",version="${stack.modelVersion}"} 1`);
});

it('GET /metrics without METRICS_TOKEN, or with another token: 401 INVALID_TOKEN with a bearer challenge', async () => {
  for (const init of [{}, bearer(METRICS_TOKEN.slice(0, -1)), bearer(`${METRICS_TOKEN}x`), { headers: { authorization: METRICS_TOKEN } }, { headers: { 'x-api-key': stack.newKey() } }]) {
    const response = await stack.fetch('/metrics', init);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await expectError(response, 401, 'INVALID_TOKEN')).not.toHaveProperty('field');
  }
});

describe('with METRICS_PORT', () => {
  const own = useTestStack({ env: { METRICS_PORT: '0', METRICS_TOKEN: '' } });

  it('/metrics is served on its own port, and not on the API port', async () => {
    const { metricsUrl } = own.stack.gateway;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(metricsUrl).not.toBe(own.stack.url);
    const metrics = await fetch(`${metricsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_requests_total');
    expect((await expectError(await own.stack.fetch('/metrics'), 404, 'NOT_FOUND')).message).toMatch(/METRICS_PORT/);
    // Nothing else is served on the metrics port.
    await expectError(await fetch(`${metricsUrl}/health`), 404, 'NOT_FOUND');
  });
});

describe('with neither METRICS_PORT nor METRICS_TOKEN (the default)', () => {
  const plain = useTestStack({ env: { METRICS_PORT: '', METRICS_TOKEN: '' } });

  it('/metrics is served nowhere: 404 NOT_FOUND saying how to turn it on', async () => {
    expect(plain.stack.gateway.metricsUrl).toBeUndefined();
    const error = await expectError(await plain.stack.fetch('/metrics'), 404, 'NOT_FOUND');
    expect(error.message).toMatch(/METRICS_TOKEN/);
  });
});

it('GET /openapi.json documents every REST route with the schemas the routes use', async () => {
  const doc = await json(await fetch(`${stack.url}/openapi.json`));
  expect(doc.openapi).toBe('3.1.0');
  for (const path of ['/api/predict/home', '/service/predict/home', '/service/auth/token', '/health', '/ready', '/metrics']) expect(doc.paths[path]).toBeDefined();
  const home = doc.paths['/api/predict/home'].post;
  // floor and total_floors are required for an apartment only (a house has no floor): the schema says so, the service checks it.
  const body = home.requestBody.content['application/json'].schema;
  expect(body.required).toEqual(['district', 'area', 'rooms']);
  expect(body.properties.floor.description).toMatch(/required for an apartment/);
  expect(body.properties.total_floors.description).toMatch(/required for an apartment/);
  expect(body.properties).toHaveProperty('property_type');
  expect(body.properties).toHaveProperty('land_area');
  // The published schemas are valid JSON Schema 2020-12 and accept what the service returns.
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv); // date, date-time, uri: checked, not ignored with a warning
  const validateResponse = ajv.compile(home.responses['200'].content['application/json'].schema);
  const response = await json(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': stack.newKey() }));
  expect(validateResponse(response)).toBe(true);
  expect(ajv.validate(home.requestBody.content['application/json'].schema, SAMPLE_HOME_REQUEST)).toBe(true);
});

it('GET /docs serves Swagger UI from the installed package, reading the document /openapi.json serves', async () => {
  const page = await fetch(`${stack.url}/docs`);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  const html = await page.text();
  expect(html).toContain('<title>Valuation API docs</title>');
  expect(html).toContain('/docs/static/swagger-ui-bundle.js');
  const bundle = await fetch(`${stack.url}/docs/static/swagger-ui-bundle.js`);
  expect(bundle.status).toBe(200);
  expect((await bundle.text()).length).toBeGreaterThan(100_000);
  expect(await (await fetch(`${stack.url}/docs/static/swagger-initializer.js`)).text()).toContain("resolveUrl('./json')");
  expect(await json(await fetch(`${stack.url}/docs/json`))).toEqual(await json(await fetch(`${stack.url}/openapi.json`)));
});

it('unknown routes get a JSON 404', async () => {
  const response = await fetch(`${stack.url}/nope`);
  expect(response.status).toBe(404);
  expect((await json(response)).error.code).toBe('NOT_FOUND');
});
