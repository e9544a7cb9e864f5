// Finds the Redis for the run's Redis-adapter suites, once, before any test file (test/support/redis.ts
// reads what it decided):
//   1. a Redis answering at REDIS_URL (default redis://127.0.0.1:6379): used as it is (CI keeps one on 6379);
//   2. else, with redis-server on PATH: one started for the run on a free port (nothing kept on disk),
//      stopped by jest-global-teardown.js;
//   3. else none: the suites that need Redis are skipped, and this says so once.
// Under CI (CI=true) the third case fails the run instead: CI must run every suite.
const { spawn, spawnSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { createServer, connect } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const DEFAULT_URL = 'redis://127.0.0.1:6379';

/** Whether a Redis answers PING at `url` within `timeoutMs` (node-redis, so passwords and TLS in the URL work). */
async function answers(url, timeoutMs = 1500) {
  const { createClient } = require('redis');
  const client = createClient({ url, socket: { connectTimeout: timeoutMs, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    if (client.isOpen) await client.close().catch(() => client.destroy());
  }
}

async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** PING over a bare socket (the server just started has no password). */
function ping(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      reply += data.toString();
      socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => resolve(false));
  });
}

async function startOwnRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'jest-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', join(dir, 'redis.log')], { stdio: 'ignore' });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  // Never outlive the run, even when jest is stopped before its teardown.
  process.once('exit', stop);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode} (log in ${dir})`);
    if (await ping(port)) break;
    if (Date.now() > deadline) {
      stop();
      throw new Error('redis-server started for the tests did not answer PING within 10 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

/** A Redis URL as it may be printed: its password, if any, replaced. */
function withoutPassword(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return 'REDIS_URL (unreadable)';
  }
}

module.exports = async function globalSetup() {
  // The service runs with NODE_ENV=production (platform/production-mode.ts, imported first by every
  // entry point); the test stacks start it in process, past the entry points, so the run takes it here
  // (the workers and the processes they start inherit it). Jest's own default, 'test', ran graphql-js's
  // slow development instanceof on every type check (a tenth of a GraphQL-heavy file's CPU) and Apollo
  // Gateway's supergraph validation on every stack start, neither of which the service runs. Another
  // value set on purpose (development gives graphql-js's checks back) is kept.
  if (process.env.NODE_ENV === 'test' || !process.env.NODE_ENV) process.env.NODE_ENV = 'production';
  const configured = process.env.REDIS_URL || DEFAULT_URL;
  const hasRedisServer = !spawnSync('redis-server', ['--version']).error;
  process.env.TEST_REDIS_SERVER = hasRedisServer ? '1' : '0';
  const say = (line) => process.stderr.write(`${line}\n`);

  if (await answers(configured)) {
    process.env.REDIS_URL = configured;
    process.env.TEST_REDIS = 'available';
    say(`Redis: using the one answering at ${withoutPassword(configured)} (REDIS_URL, default ${DEFAULT_URL}); the Redis-adapter suites write keys of their own there.`);
  } else if (hasRedisServer) {
    const own = await startOwnRedis();
    globalThis.__TEST_REDIS_STOP__ = own.stop;
    process.env.REDIS_URL = own.url;
    process.env.TEST_REDIS = 'available';
    say(`Redis: none answered at ${configured}; started redis-server on ${own.url} for this run (stopped at the end).`);
  } else {
    const reason = `no Redis at ${configured} and no redis-server installed (apt-get install redis-server)`;
    if (process.env.CI === 'true') throw new Error(`CI runs every Redis-adapter suite, but there is ${reason}`);
    // Suites that could use a Redis but need none (test/mcp, hostile-queries) then run in process.
    delete process.env.REDIS_URL;
    process.env.TEST_REDIS = 'unavailable';
    process.env.TEST_REDIS_SKIP_REASON = reason;
    say(`Redis-adapter suites skipped: ${reason}`);
  }
  if (!hasRedisServer && process.env.TEST_REDIS === 'available') {
    say('Redis suites that start a private redis-server (restarts, stalls) skipped: no redis-server installed (apt-get install redis-server)');
  }
  const stopPostgres = await require('./jest-global-postgres')({ say, freePort });
  if (stopPostgres) globalThis.__TEST_POSTGRES_STOP__ = stopPostgres;
};
