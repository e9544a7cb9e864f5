/**
 * The pacer's schedule (gateway/http/bulk-pacing.ts), on an injected clock: while an interactive
 * request is in flight, bulk parts of every lane run one at a time, each after a pause as long as
 * the part before it; uncontended they run at once, side by side.
 */
import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { BulkPacer } from '../../gateway/http/bulk-pacing';

/** A clock moved by the parts' work and the pacer's pauses, and the pauses asked for. */
function fakeTime() {
  let now = 0;
  const pauses: number[] = [];
  const pacer = new BulkPacer({ now: () => now, sleep: async (ms) => { pauses.push(ms); now += ms; } });
  return { pacer, pauses, advance: (ms: number) => void (now += ms) };
}

/** An interactive request in flight until `end()`. */
function interactive(pacer: BulkPacer): { end(): void } {
  const raw = new EventEmitter();
  pacer.trackInteractive({ raw } as unknown as FastifyReply);
  return { end: () => void raw.emit('close') };
}

it('uncontended, two lanes run their parts side by side without pauses', async () => {
  const { pacer, pauses, advance } = fakeTime();
  let running = 0;
  let most = 0;
  const part = async () => {
    most = Math.max(most, ++running);
    await new Promise((resolve) => setImmediate(resolve));
    advance(40);
    running--;
  };
  const [a, b] = [pacer.lane(), pacer.lane()];
  await Promise.all([a.run(part).then(() => a.run(part)), b.run(part).then(() => b.run(part))]);
  expect(pauses).toEqual([]);
  expect(most).toBe(2);
});

it('while an interactive request is in flight, parts of two lanes run one at a time, each after a pause as long as the last part took', async () => {
  const { pacer, pauses, advance } = fakeTime();
  const request = interactive(pacer);
  let running = 0;
  let most = 0;
  const part = (ms: number) => async () => {
    most = Math.max(most, ++running);
    await new Promise((resolve) => setImmediate(resolve));
    advance(ms);
    running--;
  };
  const [a, b] = [pacer.lane(), pacer.lane()];
  await Promise.all([a.run(part(30)).then(() => a.run(part(30))), b.run(part(70)).then(() => b.run(part(70)))]);
  expect(most).toBe(1);
  // The first part owes nothing; each later one the time of the part before it, whichever lane ran it.
  expect(pauses).toHaveLength(3);
  expect(pauses.every((ms) => ms === 30 || ms === 70)).toBe(true);
  request.end();
  expect(pacer.load().inFlight).toBe(0);
});

it('a pause is at most 250 ms, and none is owed once the interactive request has ended and no other came', async () => {
  const { pacer, pauses, advance } = fakeTime();
  const lane = pacer.lane();
  const request = interactive(pacer);
  await lane.run(async () => advance(1_000));
  await lane.run(async () => advance(10));
  expect(pauses).toEqual([250]);
  request.end();
  await lane.run(async () => advance(10));
  expect(pauses).toEqual([250]);
  // One that arrives and ends while a part runs is still owed its pause before the next.
  await lane.run(async () => {
    interactive(pacer).end();
    advance(20);
  });
  await lane.run(async () => advance(10));
  expect(pauses).toEqual([250, 20]);
});

it('a part that never ends holds the others for at most 250 ms while contended', async () => {
  const { pacer } = fakeTime();
  const request = interactive(pacer);
  void pacer.lane().run(() => new Promise<never>(() => undefined));
  const started = Date.now();
  await pacer.lane().run(async () => undefined);
  expect(Date.now() - started).toBeLessThan(5_000); // without the bound: forever (the test times out)
  request.end();
});
