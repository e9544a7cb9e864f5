/**
 * Redis stalled (issue 13, finding 4), through the real gateway: a paused Redis (SIGSTOP) keeps its
 * connections open and answers nothing, which a Redis that is down (faults.test.ts) does not show.
 * Valuations must go on (quotas fail open within their timeout), batch calls must answer 503 at
 * once, /ready must say not ready while /health stays live, and all recovers when Redis resumes.
 */
import { type ChildProcess } from 'node:child_process';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { describeWithRedisServer } from '../support/redis';
import { freePort, startRedisServer } from '../support/redis-server';
import { expectError, json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

/** The most a request may take while Redis is stalled: each Redis call on its path is bounded well below. */
const PROMPT_MS = 1500;
const TERMINAL = ['completed', 'failed', 'cancelled'];

describeWithRedisServer('Redis stalled (SIGSTOP), then resumed', () => {
  let stack: TestStack;
  let key: string;
  let redis: ChildProcess;
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => process.kill(redis.pid!, name);

  beforeAll(async () => {
    const port = await freePort();
    // A private server: the shared one on 6379 is never paused.
    redis = await startRedisServer(['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], port);
    stack = await startTestStack({ redisUrl: `redis://127.0.0.1:${port}` });
    key = stack.newKey('enterprise');
  }, 60_000);
  afterAll(async () => {
    if (redis?.exitCode === null) signal('SIGCONT');
    await stack?.stop();
    if (redis?.exitCode === null) redis.kill('SIGKILL');
  });

  // Through stack.fetch with a deadline, so a hang fails the test at once instead of at jest's timeout.
  const request = (path: string, body?: unknown, apiKey = key) =>
    stack.fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'x-api-key': apiKey, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
  const home = () => request('/api/predict/home', SAMPLE_HOME_REQUEST);
  const districts = () => request('/graphql', { query: '{ districts { name } }' });
  const submit = () => request('/api/batch', { items: [{ address: 'Chilonzor tumani, 13-kvartal' }, { address: 'Куйлюк-5' }] });
  const job = async (id: string) => json(await request(`/api/batch/${id}`));
  const ready = () => request('/ready');
  /** The response and how long it took. */
  const timed = async (call: () => Promise<Response>) => {
    const started = Date.now();
    const response = await call();
    return { response, ms: Date.now() - started };
  };

  test('valuations answer promptly and uncounted, batch calls 503 at once, /ready 503; all recovers on resume', async () => {
    // Before: ready, counted, a batch job completes.
    expect((await ready()).status).toBe(200);
    const counted = await home();
    expect(counted.status).toBe(200);
    expect(counted.headers.get('ratelimit-remaining')).not.toBeNull();
    const first = await json(await submit());
    expect(await until(() => job(first.id), (j) => TERMINAL.includes(j.status))).toMatchObject({ status: 'completed', processed: 2 });

    signal('SIGSTOP');

    // Valuations need no Redis: answered within the quota check's timeout, uncounted, and logged.
    const valued = await timed(home);
    expect(valued.response.status).toBe(200);
    expect((await json(valued.response)).estimate).toBeGreaterThan(0);
    expect(valued.response.headers.get('ratelimit-remaining')).toBeNull();
    expect(valued.ms).toBeLessThan(PROMPT_MS);
    expect(stack.logs.join('\n')).toMatch(/quota store unavailable, request let through/);
    const graphql = await timed(districts);
    expect(graphql.response.status).toBe(200);
    const graphqlBody = await json(graphql.response);
    expect(graphqlBody.errors).toBeUndefined();
    expect(graphqlBody.data.districts).toHaveLength(12);
    expect(graphql.ms).toBeLessThan(PROMPT_MS);

    // Batch jobs live in Redis: a clear 503, promptly, for a submission and for reading a job.
    const refused = await timed(submit);
    await expectError(refused.response, 503, 'SERVICE_UNAVAILABLE');
    expect(refused.ms).toBeLessThan(PROMPT_MS);
    const unreadable = await timed(() => request(`/api/batch/${first.id}`));
    await expectError(unreadable.response, 503, 'SERVICE_UNAVAILABLE');
    expect(unreadable.ms).toBeLessThan(PROMPT_MS);
    // The webhook secret of an organisation that has not read it yet is in Redis too.
    const secret = await timed(() => request('/graphql', { query: '{ batchWebhookSecret }' }, stack.newKey('enterprise')));
    expect((await json(secret.response)).errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(secret.ms).toBeLessThan(PROMPT_MS);

    // Not ready (a load balancer stops sending traffic), yet alive.
    const notReady = await until(ready, (response) => response.status === 503, 5_000);
    expect((await expectError(notReady, 503, 'SERVICE_UNAVAILABLE')).message).toMatch(/Redis/);
    expect((await request('/health')).status).toBe(200);
    // Once the stall is known, nothing waits on Redis at all.
    expect((await timed(home)).ms).toBeLessThan(PROMPT_MS);
    expect((await timed(submit)).response.status).toBe(503);

    signal('SIGCONT');

    // Ready again, counting again, new jobs complete, the earlier one is readable: no restart.
    await until(ready, (response) => response.status === 200, 10_000);
    await until(home, (response) => response.headers.get('ratelimit-remaining') !== null, 10_000);
    expect(await job(first.id)).toMatchObject({ status: 'completed', processed: 2 });
    const second = await until(submit, (response) => response.status === 202, 10_000);
    const { id } = await json(second);
    expect(await until(() => job(id), (j) => TERMINAL.includes(j.status))).toMatchObject({ status: 'completed', processed: 2 });
  }, 120_000);
});
