/**
 * Issue 33, finding 5: live accuracy reports are one at a time per organisation, kept per
 * observation revision, and bounded across organisations (here one at a time: OBSERVATION_MAX_REPORTS=1).
 * Over HTTP to the real gateway (GraphQL liveAccuracy): a second report of the same organisation
 * asked while its first runs is 429 RATE_LIMITED (the same one asked again shares it); past the
 * bound, 503 SERVICE_UNAVAILABLE; a kept report is answered even then, until a record changes it.
 */
import { json, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ redisUrl: process.env.REDIS_URL || undefined, env: { OBSERVATION_MAX_REPORTS: '1' } });
});
afterAll(() => stack?.stop());

const DISTRICTS = ['Chilanzar', 'Yunusabad', 'Mirzo Ulugbek', 'Yakkasaray', 'Mirabad', 'Sergeli'];
const daysAgo = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

/** Plausibly priced flats: `n` a call in `calls` calls, so that a report fits a model per call before the last. */
async function record(key: string, calls: number, n: number): Promise<void> {
  for (let call = 0; call < calls; call++) {
    const observations = Array.from({ length: n }, (_, i) => {
      const area = 35 + ((i * 7 + call) % 90);
      const totalFloors = 4 + (i % 13);
      return {
        kind: 'home', district: DISTRICTS[i % DISTRICTS.length], area, rooms: 1 + Math.min(4, Math.floor(area / 28)), floor: 1 + (i % totalFloors), total_floors: totalFloors,
        market: i % 3 === 0 ? 'new' : 'resale', price_usd: Math.round(area * (1100 + ((i * 37 + call) % 400))), observed_at: daysAgo(i % 120), price_type: 'sale', reference: `r-${call}-${i}`,
      };
    });
    const response = await stack.post('/api/observations', { observations }, { 'x-api-key': key });
    expect(response.status).toBe(200);
  }
}

const REPORT = 'query($level: String) { liveAccuracy(kind: HOME, level: $level) { asOf level overall { service { observations medianApe } } groups { group } } }';
const report = async (key: string, level = 'district') => json(await stack.post('/graphql', { query: REPORT, variables: { level } }, { 'x-api-key': key }));
const codeOf = (reply: { errors?: { extensions?: { code?: string } }[] }) => reply.errors?.[0]?.extensions?.code;

it('one report at a time per organisation, one at a time in all, and a kept report answered while others run', async () => {
  const [a, b, c] = [stack.newKey(), stack.newKey(), stack.newKey()];
  for (const key of [a, b, c]) await record(key, 6, 800);

  // The same organisation: the same report asked twice shares one computation; another while it runs is refused.
  const [first, again, other] = await Promise.all([report(a), report(a), report(a, 'segment')]);
  expect(first.errors).toBeUndefined();
  expect(again).toEqual(first);
  expect(first.data.liveAccuracy.overall.service.observations).toBe(4800);
  expect(codeOf(other)).toBe('RATE_LIMITED');
  expect(other.errors[0].message).toMatch(/one at a time/);

  // Two other organisations at once: one computes, the other is told the queue is full; A's kept report is answered meanwhile.
  const [ofB, ofC, keptA] = await Promise.all([report(b), report(c), report(a)]);
  expect(keptA).toEqual(first);
  const codes = [ofB, ofC].map(codeOf);
  expect(codes.filter((code) => code === undefined)).toHaveLength(1);
  expect(codes.filter((code) => code === 'SERVICE_UNAVAILABLE')).toHaveLength(1);

  // A record changes the revision: the next report is computed afresh and counts it.
  await record(a, 1, 100);
  const fresh = await report(a);
  expect(fresh.errors).toBeUndefined();
  expect(fresh.data.liveAccuracy.overall.service.observations).toBe(4900);
});
