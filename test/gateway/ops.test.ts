/** Health, readiness, metrics, OpenAPI and the docs page. */
import Ajv2020 from 'ajv/dist/2020';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { json, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

it('GET /health and /ready', async () => {
  expect((await json(await fetch(`${stack.url}/health`))).status).toBe('ok');
  const ready = await fetch(`${stack.url}/ready`);
  expect(ready.status).toBe(200);
});

it('GET /metrics counts requests by route and status and reports the model', async () => {
  await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': stack.newKey() });
  const text = await (await fetch(`${stack.url}/metrics`)).text();
  expect(text).toMatch(/http_requests_total\{route="\/api\/predict\/home",method="POST",status="200"\} \d+/);
  expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",route="\/api\/predict\/home"\}/);
  expect(text).toMatch(/model_inference_seconds_count\{kind="residential"\} \d+/);
  expect(text).toContain(`model_info{kind="residential",version="${stack.modelVersion}"} 1`);
});

it('GET /openapi.json documents every REST route with the schemas the routes use', async () => {
  const doc = await json(await fetch(`${stack.url}/openapi.json`));
  expect(doc.openapi).toBe('3.1.0');
  for (const path of ['/api/predict/home', '/service/predict/home', '/service/auth/token', '/health', '/ready', '/metrics']) expect(doc.paths[path]).toBeDefined();
  const home = doc.paths['/api/predict/home'].post;
  expect(home.requestBody.content['application/json'].schema.required).toEqual(['district', 'area', 'rooms', 'floor', 'total_floors']);
  // The published schemas are valid JSON Schema 2020-12 and accept what the service returns.
  const ajv = new Ajv2020({ strict: false });
  const validateResponse = ajv.compile(home.responses['200'].content['application/json'].schema);
  const response = await json(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': stack.newKey() }));
  expect(validateResponse(response)).toBe(true);
  expect(ajv.validate(home.requestBody.content['application/json'].schema, SAMPLE_HOME_REQUEST)).toBe(true);
});

it('GET /docs serves Swagger UI from the installed package', async () => {
  const page = await fetch(`${stack.url}/docs`);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(await page.text()).toContain('/docs/swagger-ui-bundle.js');
  const bundle = await fetch(`${stack.url}/docs/swagger-ui-bundle.js`);
  expect(bundle.status).toBe(200);
  expect((await bundle.text()).length).toBeGreaterThan(100_000);
});

it('unknown routes get a JSON 404', async () => {
  const response = await fetch(`${stack.url}/nope`);
  expect(response.status).toBe(404);
  expect((await json(response)).error.code).toBe('NOT_FOUND');
});
