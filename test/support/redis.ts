/**
 * The run's Redis, for every suite that needs one: test/jest-global-setup.js finds or starts it once
 * (REDIS_URL answering, else a redis-server of the run's own, else none) and these helpers skip the
 * Redis parts, visibly, when there is none. Suites that start private redis-servers (restarts,
 * stalls) use describeWithRedisServer.
 */
import { HAS_REDIS_SERVER } from './redis-server';

/** Whether the run has a Redis; without the global setup (a bare jest config), the old assumption: it has. */
export const HAS_REDIS = process.env.TEST_REDIS !== 'unavailable';

/** The run's Redis ('' when there is none: the suites using it are skipped then). */
export const REDIS_URL = HAS_REDIS ? process.env.REDIS_URL || 'redis://127.0.0.1:6379' : '';

/** A describe that needs the run's Redis: skipped when there is none. */
export const describeWithRedis: jest.Describe = HAS_REDIS ? describe : describe.skip;

/** A test that needs the run's Redis: skipped when there is none. */
export const testWithRedis: jest.It = HAS_REDIS ? test : test.skip;

/** A describe that starts redis-servers of its own: skipped when none is installed. */
export const describeWithRedisServer: jest.Describe = HAS_REDIS_SERVER ? describe : describe.skip;

/**
 * The same block for both adapters of a port: in process (`redisUrl` undefined), then on the run's
 * Redis (skipped when there is none). `%s` in the title is the label of each.
 */
export function describeInProcessAndOnRedis(title: string, labels: readonly [inProcess: string, onRedis: string], fn: (redisUrl: string | undefined) => void): void {
  describe(title.replace('%s', labels[0]), () => fn(undefined));
  describeWithRedis(title.replace('%s', labels[1]), () => fn(REDIS_URL));
}
