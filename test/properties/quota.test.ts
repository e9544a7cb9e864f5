/**
 * Properties of the quota stores' fixed windows (gateway/quota), on generated sequences of
 * consumptions: subjects, units and timestamps from an injected clock (a start and the steps between
 * calls, some across minute and UTC-day boundaries; no sleeping). A reference model keyed by window
 * index says what each call must get; the in-process store is checked against it and against the
 * invariants a client relies on, and the Redis store (when the run has a Redis) against the
 * in-process one.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { createClient } from 'redis';
import { windowsAt } from '../../gateway/quota/fixed-windows';
import { InMemoryQuotaStore } from '../../gateway/quota/in-memory-quota-store';
import type { QuotaDecision, QuotaLimits, QuotaStore } from '../../gateway/quota/quota-store';
import { QUOTA_SCRIPTS, RedisQuotaStore } from '../../gateway/quota/redis-quota-store';
import { REDIS_URL, describeWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Call {
  subject: string;
  /** Milliseconds since the previous call (the clock never goes back). */
  step: number;
  units: number;
}

interface Scenario {
  limits: QuotaLimits;
  start: number;
  calls: Call[];
}

const limits = fc.record({ perMinute: fc.integer({ min: 1, max: 8 }), perDay: fc.integer({ min: 1, max: 30 }) });
// Anywhere up to 2100, or within five minutes before a UTC midnight, so day resets are common.
const start = fc.oneof(
  fc.integer({ min: 0, max: 4_102_444_800_000 }),
  fc.tuple(fc.integer({ min: 1, max: 47_000 }), fc.integer({ min: 1, max: 5 * MINUTE_MS })).map(([day, before]) => day * DAY_MS - before),
);
// Mostly calls close together (many in one minute), some a minute or two apart, a few hours or a day.
const step = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 3_000 }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 2 * MINUTE_MS }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: DAY_MS + MINUTE_MS }) },
);
const call = fc.record({ subject: fc.constantFrom('org-a', 'org-b', 'org-c'), step, units: fc.integer({ min: 1, max: 3 }) });
const scenario: fc.Arbitrary<Scenario> = fc.record({ limits, start, calls: fc.array(call, { minLength: 1, maxLength: 120 }) });

/** Units admitted per subject and window index, by the rule alone: a call is admitted when both windows can take all its units. */
class ReferenceQuota {
  private readonly minute = new Map<string, number>();
  private readonly day = new Map<string, number>();

  consume(subject: string, quota: QuotaLimits, now: number, units: number): { allowed: boolean; minute: number; day: number } {
    const minuteKey = `${subject}/${Math.floor(now / MINUTE_MS)}`;
    const dayKey = `${subject}/${Math.floor(now / DAY_MS)}`;
    let minute = this.minute.get(minuteKey) ?? 0;
    let day = this.day.get(dayKey) ?? 0;
    const allowed = minute + units <= quota.perMinute && day + units <= quota.perDay;
    if (allowed) {
      minute += units;
      day += units;
      this.minute.set(minuteKey, minute);
      this.day.set(dayKey, day);
    }
    return { allowed, minute, day };
  }
}

/** Runs the scenario on `store`, the clock injected; each decision with the moment and units of its call. */
async function play(store: QuotaStore, { limits: quota, start: t0, calls }: Scenario) {
  const decisions: { call: Call; now: number; decision: QuotaDecision }[] = [];
  let now = t0;
  for (const c of calls) {
    now += c.step;
    decisions.push({ call: c, now, decision: await store.consume(c.subject, quota, now, c.units) });
  }
  return decisions;
}

const RUNS = { numRuns: 300 };

describe('InMemoryQuotaStore on any sequence of calls (clock injected, never going back)', () => {
  it('admits exactly what the rule admits, and never more units than the limit in any minute or UTC day of a subject', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const reference = new ReferenceQuota();
        const admitted = new Map<string, number>();
        const count = (key: string, units: number) => admitted.set(key, (admitted.get(key) ?? 0) + units);
        for (const { call: c, now, decision } of await play(new InMemoryQuotaStore(), s)) {
          const expected = reference.consume(c.subject, s.limits, now, c.units);
          expect(decision.allowed).toBe(expected.allowed);
          if (!decision.allowed) continue;
          const w = windowsAt(now);
          count(`${c.subject}/minute/${w.minute.index}`, c.units);
          count(`${c.subject}/day/${w.day.index}`, c.units);
        }
        for (const [key, units] of admitted) expect(units).toBeLessThanOrEqual(key.includes('/minute/') ? s.limits.perMinute : s.limits.perDay);
      }),
      RUNS,
    );
  });

  it('tells the truth: remaining never negative nor above the limit, the tighter window when admitted, the reset at that window’s end, Retry-After only when denied', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const reference = new ReferenceQuota();
        for (const { call: c, now, decision: d } of await play(new InMemoryQuotaStore(), s)) {
          const counts = reference.consume(c.subject, s.limits, now, c.units);
          const left = { minute: s.limits.perMinute - counts.minute, day: s.limits.perDay - counts.day };
          const w = windowsAt(now);
          expect(d.remaining).toBeGreaterThanOrEqual(0);
          expect(d.limit).toBe(d.window === 'minute' ? s.limits.perMinute : s.limits.perDay);
          expect(d.remaining).toBeLessThanOrEqual(d.limit);
          expect(d.resetSeconds).toBe(Math.ceil((w[d.window].endsAt - now) / 1000));
          expect(d.resetSeconds).toBeGreaterThanOrEqual(1);
          expect(d.resetSeconds).toBeLessThanOrEqual(d.window === 'minute' ? 60 : 86_400);
          if (d.allowed) {
            // Ties go to the day, which resets later.
            expect(d.remaining).toBe(Math.min(left.minute, left.day));
            expect(d.window).toBe(left.minute < left.day ? 'minute' : 'day');
            expect(d.retryAfterSeconds).toBeUndefined();
          } else {
            // The window named cannot take the units: waiting for its reset is what helps.
            expect(d.remaining).toBeLessThan(c.units);
            expect(d.remaining).toBe(Math.max(0, left[d.window]));
            expect(d.retryAfterSeconds).toBe(d.resetSeconds);
          }
        }
      }),
      RUNS,
    );
  });

  it('starts every minute afresh: a subject refused for the minute is admitted in the next one, wherever in it the call falls', async () => {
    await fc.assert(
      fc.asyncProperty(start, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: MINUTE_MS - 1 }), async (t0, perMinute, offset) => {
        const store = new InMemoryQuotaStore();
        const quota = { perMinute, perDay: 10_000 };
        for (let i = 0; i < perMinute; i++) expect((await store.consume('org-a', quota, t0)).allowed).toBe(true);
        const refused = await store.consume('org-a', quota, t0);
        expect(refused).toMatchObject({ allowed: false, window: 'minute', remaining: 0 });
        const next = windowsAt(t0).minute.endsAt + offset;
        expect(await store.consume('org-a', quota, next)).toMatchObject({ allowed: true, remaining: perMinute - 1 });
      }),
      RUNS,
    );
  });

  // Up to a minute behind the newest call (NTP corrections, callers' clocks a little apart): what the
  // Redis store's per-window keys cover within their minute of expiry grace too.
  it('never admits more than the limit in any minute or UTC day, even when the clock steps back across a window boundary', async () => {
    const jump = fc.integer({ min: -MINUTE_MS, max: 2 * MINUTE_MS });
    await fc.assert(
      fc.asyncProperty(limits, start, fc.array(fc.record({ jump, units: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 120 }), async (quota, t0, calls) => {
        const store = new InMemoryQuotaStore();
        const admitted = new Map<string, number>();
        let now = t0;
        let newest = t0;
        for (const { jump: by, units } of calls) {
          // Never more than a minute behind the newest time any call has had.
          now = Math.max(0, now + by, newest - MINUTE_MS);
          newest = Math.max(newest, now);
          if (!(await store.consume('org-a', quota, now, units)).allowed) continue;
          const w = windowsAt(now);
          for (const key of [`minute/${w.minute.index}`, `day/${w.day.index}`]) admitted.set(key, (admitted.get(key) ?? 0) + units);
        }
        for (const [key, units] of admitted) expect(units).toBeLessThanOrEqual(key.startsWith('minute/') ? quota.perMinute : quota.perDay);
      }),
      RUNS,
    );
  });

  it('starts every UTC day afresh, and a refusal costs nothing: the units refused are still there for a smaller call', async () => {
    await fc.assert(
      fc.asyncProperty(start, fc.integer({ min: 2, max: 30 }), async (t0, perDay) => {
        const store = new InMemoryQuotaStore();
        const quota = { perMinute: 10_000, perDay };
        expect((await store.consume('org-a', quota, t0, perDay - 1)).allowed).toBe(true);
        expect(await store.consume('org-a', quota, t0, 2)).toMatchObject({ allowed: false, window: 'day', remaining: 1 });
        expect(await store.consume('org-a', quota, t0, 1)).toMatchObject({ allowed: true, remaining: 0 });
        expect((await store.consume('org-a', quota, t0, 1)).allowed).toBe(false);
        expect(await store.consume('org-a', quota, windowsAt(t0).day.endsAt, perDay)).toMatchObject({ allowed: true, remaining: 0 });
      }),
      RUNS,
    );
  });
});

describeWithRedis('RedisQuotaStore against InMemoryQuotaStore on the same sequences', () => {
  const runPrefix = `test:quota-properties:${process.pid}:${randomBytes(4).toString('hex')}:`;
  let scenarios = 0;
  afterAll(() => deleteKeysUnder(runPrefix, REDIS_URL));

  it('gives every call the same decision', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const client = createClient({ url: REDIS_URL, disableOfflineQueue: true, scripts: QUOTA_SCRIPTS });
        await client.connect();
        const redis = new RedisQuotaStore(client, { keyPrefix: `${runPrefix}${scenarios++}:` });
        try {
          const inProcess = (await play(new InMemoryQuotaStore(), s)).map((d) => d.decision);
          expect((await play(redis, s)).map((d) => d.decision)).toEqual(inProcess);
        } finally {
          await redis.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
