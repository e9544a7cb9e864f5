/** POST /service/auth/token and POST /service/predict/home with a bearer token. */
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { json, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let key: string;
/** The gateway's clock: moved on by hand instead of sleeping until a token expires. */
let now = Date.now();

beforeAll(async () => {
  stack = await startTestStack({ env: { JWT_TTL_SECONDS: '2' }, clock: () => now });
  key = stack.newKey('enterprise');
});
afterAll(() => stack.stop());

it('exchanges an API key for a short-lived JWT that values homes on /service/predict/home', async () => {
  const tokenResponse = await stack.post('/service/auth/token', {}, { 'x-api-key': key });
  expect(tokenResponse.status).toBe(200);
  const token = await json(tokenResponse);
  expect(token.token_type).toBe('Bearer');
  expect(token.expires_in).toBe(2);
  expect(token.access_token.split('.')).toHaveLength(3);

  const valued = await stack.post('/service/predict/home', { ...SAMPLE_HOME_REQUEST, qurilish_turi: 'Кирпичный', renovation: 'Евроремонт' }, { authorization: `Bearer ${token.access_token}` });
  expect(valued.status).toBe(200);
  const body = await json(valued);
  const viaKey = await json(await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key }));
  expect(body.estimate).toBe(viaKey.estimate);
});

it('accepts the key in the body too', async () => {
  const response = await stack.post('/service/auth/token', { api_key: key });
  expect(response.status).toBe(200);
});

it('refuses a bad key at the token route', async () => {
  const response = await stack.post('/service/auth/token', { api_key: 'tvk_zzzzzzzz_00000000000000000000000000000000' });
  expect(response.status).toBe(401);
  expect((await json(response)).error.code).toBe('INVALID_API_KEY');
});

it('401 INVALID_TOKEN for a missing, forged or expired token', async () => {
  const missing = await stack.post('/service/predict/home', SAMPLE_HOME_REQUEST);
  expect(missing.status).toBe(401);
  expect((await json(missing)).error.code).toBe('INVALID_TOKEN');

  const { access_token } = await json(await stack.post('/service/auth/token', {}, { 'x-api-key': key }));
  const [header, payload] = access_token.split('.');
  const forged = await stack.post('/service/predict/home', SAMPLE_HOME_REQUEST, { authorization: `Bearer ${header}.${payload}.c2lnbmF0dXJl` });
  expect(forged.status).toBe(401);
  expect((await json(forged)).error.code).toBe('INVALID_TOKEN');

  const stillValid = await stack.post('/service/predict/home', SAMPLE_HOME_REQUEST, { authorization: `Bearer ${access_token}` });
  expect(stillValid.status).toBe(200);
  now += 3_000;
  const expired = await stack.post('/service/predict/home', SAMPLE_HOME_REQUEST, { authorization: `Bearer ${access_token}` });
  expect(expired.status).toBe(401);
  const error = (await json(expired)).error;
  expect(error.code).toBe('INVALID_TOKEN');
  expect(error.message).toMatch(/expired/);
});

it('the API key route does not take a bearer token instead of a key', async () => {
  const { access_token } = await json(await stack.post('/service/auth/token', {}, { 'x-api-key': key }));
  const response = await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { authorization: `Bearer ${access_token}` });
  expect(response.status).toBe(401);
});
