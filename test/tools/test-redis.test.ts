/**
 * Issue 35, item 13: `npm test` says in one line which Redis it uses when one answers at REDIS_URL
 * (it used to use whatever listened on 6379 without a word), and never prints its password.
 */
import { join } from 'node:path';
import { describeWithRedis, REDIS_URL } from '../support/redis';

const globalSetup = require(join(__dirname, '..', '..', '..', 'test', 'jest-global-setup.js')) as () => Promise<void>;

describeWithRedis('the test run\'s Redis', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ['REDIS_URL', 'TEST_REDIS', 'TEST_REDIS_SERVER']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('is named in one line, its password masked', async () => {
    const url = new URL(REDIS_URL);
    url.username = 'default';
    url.password = 'not-to-be-printed';
    process.env.REDIS_URL = url.toString();
    const printed: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));
    try {
      await globalSetup();
    } finally {
      write.mockRestore();
    }
    const line = printed.find((text) => text.startsWith('Redis: using the one answering at'));
    // A server without ACLs takes any password for the default user: it answers, so it is the one used.
    expect(line).toContain(`redis://default:***@${url.host}`);
    expect(printed.join('')).not.toContain('not-to-be-printed');
  });
});
