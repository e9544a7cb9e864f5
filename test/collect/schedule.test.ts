/**
 * Issue 37, item 2: the daily schedule. In process: the timer aims at the next HH:MM UTC, re-arms
 * after each run and never starts a run over a running one. With Redis: the BullMQ job scheduler is
 * upserted once (however many processes start it) with the same daily pattern.
 */
import { dailyCronPattern, msUntilNextDaily, startInProcessDailySchedule } from '../../platform/collect';
import { startBullmqDailySchedule } from '../../platform/collect/bullmq-schedule';

describe('daily schedule', () => {
  it('aims at the next HH:MM UTC', () => {
    const now = Date.parse('2026-06-01T01:00:00Z');
    expect(msUntilNextDaily('02:30', now)).toBe(90 * 60_000);
    expect(msUntilNextDaily('00:30', now)).toBe(23.5 * 3_600_000);
    expect(msUntilNextDaily('01:00', now)).toBe(24 * 3_600_000);
    expect(dailyCronPattern('02:30')).toBe('30 2 * * *');
  });

  it('runs once per tick, re-arms after the run, and skips a tick while a run is going', async () => {
    let now = Date.parse('2026-06-01T02:00:00Z');
    const timers: { fn: () => void; ms: number }[] = [];
    let release: () => void = () => undefined;
    let runs = 0;
    const schedule = startInProcessDailySchedule(
      '02:30',
      () => {
        runs++;
        return new Promise<void>((resolve) => (release = resolve));
      },
      () => undefined,
      { now: () => now, setTimeout: (fn, ms) => timers.push({ fn, ms }), clearTimeout: () => undefined },
    );
    expect(timers.map((t) => t.ms)).toEqual([30 * 60_000]);
    now += 30 * 60_000;
    timers[0].fn();
    expect(runs).toBe(1);
    expect(timers).toHaveLength(1); // not re-armed while running
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers.map((t) => t.ms)).toEqual([30 * 60_000, 24 * 3_600_000]);
    schedule.stop();
  });

  const withRedis = process.env.REDIS_URL ? it : it.skip;
  withRedis('upserts one BullMQ job scheduler with the daily pattern', async () => {
    const prefix = `collect-test-${process.pid}`;
    const first = await startBullmqDailySchedule(process.env.REDIS_URL!, '02:30', ['uybor'], async () => undefined, () => undefined, { prefix, worker: false });
    const second = await startBullmqDailySchedule(process.env.REDIS_URL!, '02:30', ['uybor'], async () => undefined, () => undefined, { prefix, worker: false });
    try {
      const schedulers = await first.queue.getJobSchedulers();
      expect(schedulers).toHaveLength(1);
      expect(schedulers[0]).toMatchObject({ key: 'collect-daily', pattern: '30 2 * * *' });
    } finally {
      await first.queue.obliterate({ force: true });
      await second.close();
      await first.close();
    }
  });
});
