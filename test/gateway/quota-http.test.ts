/** 429 past the plan's quota, with headers, for both quota adapters (in process and Redis). */
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { describeInProcessAndOnRedis } from '../support/redis';
import { json, startTestStack, type TestStack } from '../support/stack';

describeInProcessAndOnRedis('quotas with %s', ['in-process counters', 'Redis counters'], (redisUrl) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ redisUrl });
  });
  afterAll(() => stack.stop());

  it('counts down, then answers 429 RATE_LIMITED with Retry-After; other organisations are unaffected', async () => {
    const key = stack.newKey('pilot'); // 60 requests per minute
    const first = await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('60');
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    const remainingAfterFirst = Number(first.headers.get('ratelimit-remaining'));
    expect(remainingAfterFirst).toBe(59);
    // A minute boundary may fall inside the loop; then the window restarts and more requests pass.
    let limited: Response | undefined;
    let limitedAt = 0;
    for (let i = 0; i < 130 && !limited; i++) {
      const r = await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key });
      if (r.status === 429) {
        limited = r;
        limitedAt = Date.now() / 1000;
      } else expect(r.status).toBe(200);
    }
    expect(limited).toBeDefined();
    const body = await json(limited!);
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.headers.get('ratelimit-remaining')).toBe('0');
    // The reset is the window's end in whole seconds: after the 429, never before it (a loaded machine may read it late).
    expect(Number(limited!.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(limitedAt));

    const other = await stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': stack.newKey('pilot') });
    expect(other.status).toBe(200);
  });
});
