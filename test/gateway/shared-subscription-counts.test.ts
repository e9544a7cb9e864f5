/**
 * Issue 33, finding 11: an organisation's subscriptions on the other gateway processes, shared
 * through a real Redis (gateway/subscriptions/shared-subscription-counts.ts): each process counts
 * the others' fresh counts and not its own, a dead process's count expires, a closed one's is
 * removed, and an unreachable Redis counts as none (logged).
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { RedisSubscriptionCounts } from '../../gateway/subscriptions/shared-subscription-counts';
import { describeWithRedis, REDIS_URL } from '../support/redis';
import { until } from '../support/wait';

describeWithRedis('subscription counts shared through Redis', () => {
  const client = createClient({ url: REDIS_URL });
  const keyPrefix = `test-subscriptions-${randomBytes(4).toString('hex')}:`;
  let now = 1_000_000;
  const logs: string[] = [];
  const process = (processId: string) => new RedisSubscriptionCounts(client, { current: () => new Map(), log: (m) => logs.push(m), keyPrefix, processId, now: () => now });

  beforeAll(() => client.connect());
  afterAll(async () => {
    for (const key of await client.keys(`${keyPrefix}*`)) await client.del(key);
    await client.close();
  });

  it('counts the other processes\' fresh counts, not its own; a dead one\'s expire, a closed one\'s are removed', async () => {
    const [a, b, c] = [process('a'), process('b'), process('c')];
    a.publish('bank-1', 4);
    b.publish('bank-1', 3);
    b.publish('bank-2', 9);
    await until(() => c.elsewhere('bank-1'), (n) => n === 7);
    expect(await a.elsewhere('bank-1')).toBe(3);
    expect(await b.elsewhere('bank-1')).toBe(4);
    expect(await a.elsewhere('bank-2')).toBe(9);
    expect(await a.elsewhere('bank-3')).toBe(0);

    b.publish('bank-1', 0); // its subscriptions ended
    await until(() => a.elsewhere('bank-1'), (n) => n === 0);
    await b.close(); // closing removes what it had written
    expect(await a.elsewhere('bank-2')).toBe(0);

    now += 31_000; // a process that stopped writing (died) for longer than the expiry
    expect(await c.elsewhere('bank-1')).toBe(0);
    await Promise.all([a.close(), c.close()]);
    expect(logs).toEqual([]);
  });

  it('an unreachable Redis counts as none, and says so', async () => {
    const down = createClient({ url: 'redis://127.0.0.1:1', socket: { reconnectStrategy: false } });
    down.on('error', () => undefined);
    const counts = new RedisSubscriptionCounts(down, { current: () => new Map(), log: (m) => logs.push(m), keyPrefix, processId: 'x' });
    expect(await counts.elsewhere('bank-1')).toBe(0);
    expect(logs.at(-1)).toMatch(/subscription counts of other gateways unavailable, counted as none/);
    await counts.close();
  });
});
