/**
 * Faults the service must survive, each through the real gateway, with what the client sees and
 * that nothing is lost: a subgraph down and back, Redis down and back, and a webhook receiver that
 * hangs. (A worker process killed mid-batch: test/batch/worker-process.test.ts.)
 */
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResidentialModelService } from '../../models/residential/serving';
import { SAMPLE_HOME_REQUEST } from '../../schema/home-contract';
import { start as startResidential } from '../../subgraphs/residential';
import { memoryObservationBook } from '../support/observations';
import { describeWithRedisServer } from '../support/redis';
import { freePort, sendCommand, startRedisServer } from '../support/redis-server';
import { json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

const TERMINAL = ['completed', 'failed', 'cancelled'];

describe('a subgraph down, then back (split deployment)', () => {
  let stack: TestStack;
  let key: string;
  beforeAll(async () => {
    stack = await startTestStack({ env: { SUBGRAPH_TRANSPORT: 'http' } });
    key = stack.newKey('enterprise');
  });
  afterAll(() => stack?.stop());

  const home = () => stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key });
  const districts = async () => json(await stack.post('/graphql', { query: '{ districts { name marketStatistics { listings } } }' }, { 'x-api-key': key }));

  test('its part answers SERVICE_UNAVAILABLE while the rest answers, and all recovers when it is back', async () => {
    const before = await json(await home());
    expect(before.estimate).toBeGreaterThan(0);
    const port = stack.residential.port;
    await stack.residential.close();

    // REST home valuation: a clear 503, no internal addresses.
    const down = await home();
    expect(down.status).toBe(503);
    const downBody = await json(down);
    expect(downBody.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(JSON.stringify(downBody)).not.toMatch(/127\.0\.0\.1|:\d{4,5}\//);
    // GraphQL across both subgraphs: the location part is there, the residential part is null with its error.
    const partial = await districts();
    expect(partial.data.districts).toHaveLength(12);
    expect(partial.data.districts.every((d: { marketStatistics: unknown }) => d.marketStatistics === null)).toBe(true);
    expect(new Set(partial.errors.map((e: { extensions: { code: string } }) => e.extensions.code))).toEqual(new Set(['SERVICE_UNAVAILABLE']));
    // A route that needs only the location subgraph is untouched.
    const location = await stack.post('/api/location/index', { lat: 41.2995, lon: 69.2401 }, { 'x-api-key': key });
    expect(location.status).toBe(200);

    // Back on the same address: no gateway restart.
    const runtime = await ResidentialModelService.start({ log: () => undefined });
    const restarted = await startResidential({ host: '127.0.0.1', port, internalToken: stack.internalToken, introspection: false }, runtime, await memoryObservationBook('home'));
    try {
      const after = await json(await home());
      expect(after.estimate).toBe(before.estimate);
      const whole = await districts();
      expect(whole.errors).toBeUndefined();
      expect(whole.data.districts.some((d: { marketStatistics: { listings: number } | null }) => (d.marketStatistics?.listings ?? 0) > 0)).toBe(true);
    } finally {
      await restarted.close();
      await runtime.close();
    }
  });
});

describeWithRedisServer('Redis down, then back', () => {
  let stack: TestStack;
  let key: string;
  let redis: ChildProcess;
  let dir: string;
  let args: string[];
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'faults-redis-'));
    port = await freePort();
    // A private server with persistence, as production runs it; the shared one on 6379 is never touched.
    args = ['--port', String(port), '--bind', '127.0.0.1', '--appendonly', 'yes', '--dir', dir, '--save', ''];
    redis = await startRedisServer(args, port);
    stack = await startTestStack({ redisUrl: `redis://127.0.0.1:${port}`, env: { BATCH_KEY_PREFIX: `faults-${randomBytes(3).toString('hex')}:` } });
    key = stack.newKey('enterprise');
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    if (redis?.exitCode === null) redis.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const home = () => stack.post('/api/predict/home', SAMPLE_HOME_REQUEST, { 'x-api-key': key });
  const submit = () => stack.post('/api/batch', { items: [{ address: 'Chilonzor tumani, 13-kvartal' }, { address: 'Куйлюк-5' }] }, { 'x-api-key': key });
  const job = async (id: string) => json(await stack.fetch(`/api/batch/${id}`, { headers: { 'x-api-key': key } }));

  test('valuations go on without quotas, batch calls fail clearly, and all recovers without a restart', async () => {
    // Before: quotas counted in Redis, a batch job completes.
    const counted = await home();
    expect(counted.status).toBe(200);
    expect(counted.headers.get('ratelimit-remaining')).not.toBeNull();
    const first = await json(await submit());
    const firstDone = await until(() => job(first.id), (j) => TERMINAL.includes(j.status));
    expect(firstDone).toMatchObject({ status: 'completed', processed: 2 });

    await sendCommand(port, 'SHUTDOWN');
    // The server's exit and its socket's close come in either order: it may have exited already.
    if (redis.exitCode === null) await new Promise((resolve) => redis.once('exit', resolve));

    // Valuations need no Redis: answered, uncounted (quotas fail open, and the gateway says so in its log).
    const uncounted = await home();
    expect(uncounted.status).toBe(200);
    expect((await json(uncounted)).estimate).toBeGreaterThan(0);
    expect(uncounted.headers.get('ratelimit-remaining')).toBeNull();
    expect(stack.logs.join('\n')).toMatch(/quota store unavailable, request let through/);
    // Batch jobs live in Redis: a clear 503, promptly, not a hang or a 500.
    const started = Date.now();
    const refused = await submit();
    expect(refused.status).toBe(503);
    expect((await json(refused)).error.code).toBe('SERVICE_UNAVAILABLE');
    const unreadable = await stack.fetch(`/api/batch/${first.id}`, { headers: { 'x-api-key': key } });
    expect(unreadable.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(20_000);

    // Back, with its data: counting resumes, the earlier job is readable, new jobs complete.
    redis = await startRedisServer(args, port);
    await until(home, (response) => response.headers.get('ratelimit-remaining') !== null, 30_000);
    // Each client reconnects on its own schedule: the batch engine's may come back after the quota store's.
    expect(await until(() => job(first.id), (j) => j.status !== undefined, 30_000)).toMatchObject({ status: 'completed', processed: 2 });
    const second = await until(submit, (response) => response.status === 202, 30_000);
    const { id } = await json(second);
    expect(await until(() => job(id), (j) => TERMINAL.includes(j.status))).toMatchObject({ status: 'completed', processed: 2 });
  }, 120_000);
});

describe('a webhook receiver that hangs', () => {
  let stack: TestStack;
  let key: string;
  let receiver: Server;
  let url: string;
  const arrivals: number[] = [];

  beforeAll(async () => {
    // Accepts the request and never answers.
    receiver = createServer(() => arrivals.push(Date.now()));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    stack = await startTestStack({ env: { BATCH_CALLBACK_ALLOW_PRIVATE: '1', BATCH_WEBHOOK_TIMEOUT_MS: '500', BATCH_WEBHOOK_BASE_DELAY_MS: '100' } });
    key = stack.newKey('enterprise');
  });
  afterAll(async () => {
    await stack?.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  test('the job completes and its results are readable; each attempt times out, is recorded, and is retried', async () => {
    const submitted = await stack.post('/api/batch', { items: [{ address: 'Куйлюк-5' }], callback_url: url }, { 'x-api-key': key });
    expect(submitted.status).toBe(202);
    const { id } = await json(submitted);
    const read = async () => json(await stack.fetch(`/api/batch/${id}`, { headers: { 'x-api-key': key } }));
    const done = await until(read, (j) => j.status === 'completed' && (j.deliveries?.length ?? 0) >= 2);
    expect(done.processed).toBe(1);
    expect(done.deliveries[0]).toMatchObject({ number: 1, status_code: null });
    expect(done.deliveries[0].error).toMatch(/timeout/i);
    expect(done.deliveries[1].number).toBe(2);
    expect(arrivals.length).toBeGreaterThanOrEqual(2);
    const results = await stack.fetch(`/api/batch/${id}/results`, { headers: { 'x-api-key': key } });
    expect(results.status).toBe(200);
    expect(JSON.parse((await results.text()).trim())).toMatchObject({ index: 0, ok: true });
  });
});
