/** Split deployment: the gateway calls the residential subgraph over HTTP (SUBGRAPH_TRANSPORT=http). */
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { json, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let key: string;
beforeAll(async () => {
  stack = await startTestStack({ env: { SUBGRAPH_TRANSPORT: 'http' } });
  key = stack.newKey('enterprise');
});
afterAll(() => stack.stop());

it('values the same over HTTP as in process, on REST and GraphQL', async () => {
  const inProcess = await startTestStack();
  try {
    const expected = await json(await inProcess.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': inProcess.newKey() }));
    const rest = await json(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key }));
    expect(rest.estimate).toBe(expected.estimate);
    expect(rest.interval).toEqual(expected.interval);
    const { data } = await json(await stack.post('/graphql', { query: '{ residentialModel { version } }' }, { 'x-api-key': key }));
    expect(data.residentialModel.version).toBe(stack.modelVersion);
    const unknown = await stack.post('/api/predict/home', { ...SAMPLE_HOME_REQUEST, district: 'Narnia' }, { 'x-api-key': key });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).error.code).toBe('UNKNOWN_DISTRICT');
  } finally {
    await inProcess.stop();
  }
});

it('answers 503 SERVICE_UNAVAILABLE, without internal addresses, when the subgraph is down', async () => {
  await stack.residential.close();
  const rest = await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key });
  expect(rest.status).toBe(503);
  const body = await json(rest);
  expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|graphql/);
  const graphql = await json(await stack.post('/graphql', { query: '{ residentialModel { version } }' }, { 'x-api-key': key }));
  expect(graphql.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
  expect(JSON.stringify(graphql)).not.toMatch(/127\.0\.0\.1/);
});
