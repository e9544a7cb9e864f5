/**
 * The Redis health probe (platform/redis-health.ts) and the bound on a call (within), with
 * a fake client: a stalled Redis is a PING that never settles.
 */
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { RedisHealth } from '../../platform/redis-health';
import { within } from '../../platform/within';
import { waitFor } from '../support/wait';

/** A client whose PINGs settle when the test says. */
function fakeClient() {
  const pings: { resolve(): void; reject(error: Error): void }[] = [];
  return {
    isReady: true,
    pings,
    ping: () => new Promise<unknown>((resolve, reject) => pings.push({ resolve: () => resolve('PONG'), reject })),
  };
}

/** Keeps the event loop busy, as a burst of synchronous work does. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

/** Lets the probe see a PING settle. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('RedisHealth', () => {
  let client: ReturnType<typeof fakeClient>;
  let health: RedisHealth;
  beforeEach(() => {
    client = fakeClient();
    health = new RedisHealth(client, { timeoutMs: 50 });
  });

  test('reachable while a PING is unanswered for less than the timeout, unreachable after, reachable once it is answered', async () => {
    expect(health.isReachable()).toBe(true);
    const sent = Date.now();
    health.probe();
    expect(health.isReachable()).toBe(true);
    await waitFor(() => !health.isReachable(), 2_000, 5);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(45);
    client.pings[0].resolve();
    await settled();
    expect(health.isReachable()).toBe(true);
  });

  test('sends one PING at a time: a stalled Redis is not sent a pile of them', async () => {
    health.probe();
    await waitFor(() => !health.isReachable(), 2_000, 5);
    health.probe();
    health.probe();
    expect(client.pings).toHaveLength(1);
    client.pings[0].resolve();
    await settled();
    health.probe();
    expect(client.pings).toHaveLength(2);
  });

  test('a failed PING makes Redis unreachable until one succeeds', async () => {
    health.probe();
    client.pings[0].reject(new Error('LOADING Redis is loading the dataset in memory'));
    await settled();
    expect(health.isReachable()).toBe(false);
    health.probe();
    client.pings[1].resolve();
    await settled();
    expect(health.isReachable()).toBe(true);
  });

  test('unreachable while the client is not ready, and no PING is sent then', () => {
    client.isReady = false;
    health.probe();
    expect(client.pings).toHaveLength(0);
    expect(health.isReachable()).toBe(false);
  });

  test('start() PINGs at once and on its interval until stop()', async () => {
    let sent = 0;
    const answering = { isReady: true, ping: async () => ++sent };
    const timed = new RedisHealth(answering, { intervalMs: 20 }).start();
    expect(sent).toBe(1);
    await waitFor(() => sent >= 3, 2_000, 5);
    timed.stop();
    const sentBeforeStop = sent;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toBe(sentBeforeStop);
  });
});

describe('within', () => {
  const never = new Promise<string>(() => undefined);

  test("the promise's value when it settles in time", async () => {
    await expect(within(Promise.resolve('reply'), 50, () => 'late')).resolves.toBe('reply');
    await expect(within(Promise.reject(new Error('refused')), 50, () => 'late')).rejects.toThrow('refused');
  });

  test('the clock starts once what the caller queued has gone out: a loop busy before the write is not counted', async () => {
    // As node-redis does: the command is written in a setImmediate, here after the loop was busy for 30 ms.
    const reply = new Promise<string>((resolve) =>
      setImmediate(() => {
        busyFor(30);
        setTimeout(() => resolve('reply'), 5);
      }),
    );
    await expect(within(reply, 15, () => 'late')).resolves.toBe('reply');
  });

  test('a reply that arrives while the loop is busy past the bound still wins', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = once(server, 'connection');
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const [peer] = (await accepted) as [Socket];
    try {
      const reply = once(socket, 'data').then(() => 'reply');
      const bounded = within(reply, 10, () => 'late');
      // The reply is in the socket while the loop is busy past the bound: the timer and the read fall in one turn.
      setImmediate(() => {
        peer.write('PONG');
        busyFor(40);
      });
      await expect(bounded).resolves.toBe('reply');
    } finally {
      socket.destroy();
      peer.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("late()'s value, or what it throws, when the promise does not settle in time", async () => {
    await expect(within(never, 10, () => 'late')).resolves.toBe('late');
    await expect(
      within(never, 10, () => {
        throw new Error('timed out');
      }),
    ).rejects.toThrow('timed out');
  });
});
