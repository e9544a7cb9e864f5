/**
 * The production shape of batch work, through the API: the gateway and subgraphs on Redis with no
 * workers of their own, the location subgraph also run alone (`node dist/subgraphs/main.js
 * location`), and two `npm run worker` processes (worker-main) taking the chunks and placing their
 * items through it. One worker is killed with SIGKILL mid-job, while the upload is still streaming
 * in; the job still completes through POST /api/batch and its results stream holds every item
 * exactly once.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describeWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const WORKER_MAIN = join(__dirname, '..', '..', 'subgraphs', 'batch', 'worker-main.js');
const SUBGRAPH_MAIN = join(__dirname, '..', '..', 'subgraphs', 'main.js');
const KEY_PREFIX = `test:worker-process:${process.pid}:${randomBytes(4).toString('hex')}:`;
const INTERNAL_TOKEN = randomBytes(24).toString('base64url');
const ITEMS = 30_000;
const ADDRESSES = ['Chilonzor tumani, 13-kvartal', 'Юнусабад 8-й квартал', 'Куйлюк-5', 'массив Карасу-3', 'Сергели-IV'];

describeWithRedis('worker processes on Redis', () => {
  let stack: TestStack;
  let key: string;
  const workers: ChildProcess[] = [];
  let location: ChildProcess;
  let locationUrl: string;

  function startLocation(): Promise<{ child: ChildProcess; url: string }> {
    const child = fork(SUBGRAPH_MAIN, ['location'], { env: { ...process.env, INTERNAL_TOKEN, LOCATION_PORT: '0' }, execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let output = '';
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (data: Buffer) => {
        output += data.toString();
        const url = /listening on (\S+)/.exec(output)?.[1];
        if (url) resolve({ child, url });
      });
      child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
      child.once('exit', (code) => reject(new Error(`the location subgraph exited (${code}) before listening:\n${output}`)));
    });
  }

  function startWorker(): Promise<ChildProcess> {
    const child = fork(WORKER_MAIN, [], {
      env: {
        ...process.env,
        REDIS_URL,
        RESIDENTIAL_URL: stack.residential.url,
        LOCATION_URL: locationUrl,
        INTERNAL_TOKEN,
        BATCH_KEY_PREFIX: KEY_PREFIX,
        BATCH_WORKER_CONCURRENCY: '1',
        // A dead worker's chunk goes to the other within seconds, not BullMQ's default 30.
        BATCH_LOCK_DURATION_MS: '2000',
        BATCH_STALLED_INTERVAL_MS: '1000',
      },
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    workers.push(child);
    let output = '';
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (data: Buffer) => {
        output += data.toString();
        if (output.includes('batch worker taking chunks')) resolve(child);
      });
      child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
      child.once('exit', (code) => reject(new Error(`worker exited (${code}) before taking chunks:\n${output}`)));
    });
  }

  beforeAll(async () => {
    stack = await startTestStack({ redisUrl: REDIS_URL, env: { BATCH_WORKERS: '0', INTERNAL_TOKEN, BATCH_KEY_PREFIX: KEY_PREFIX } });
    key = stack.newKey('enterprise');
    // The workers' geocoding runs in a location process of its own, as it would in a split deployment.
    ({ child: location, url: locationUrl } = await startLocation());
    await Promise.all([startWorker(), startWorker()]);
  }, 120_000);

  afterAll(async () => {
    for (const child of [...workers, location]) if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await stack?.stop();
    await deleteKeysUnder(KEY_PREFIX, REDIS_URL);
  });

  const getJob = async (id: string) => json(await stack.fetch(`/api/batch/${id}`, { headers: { 'x-api-key': key } }));

  /** The organisation's newest job, through GraphQL: the upload has not answered with its id yet. */
  const newestJob = async () => (await json(await stack.post('/graphql', { query: '{ batchJobs(limit: 1) { jobs { id status processed } } }' }, { 'x-api-key': key }))).data.batchJobs.jobs[0];

  test('a worker process killed mid-job: the job completes through the API with every item exactly once', async () => {
    const lines = Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ address: `${ADDRESSES[i % ADDRESSES.length]}, ${i}-uy` }));
    // The upload streams into the job: its first part (5,000 items) is being valued while the rest
    // is held back, so the worker dies mid-job however fast the machine is.
    const HELD_AT = 6_000;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const encoder = new TextEncoder();
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (next === HELD_AT) await held;
        if (next >= ITEMS) return controller.close();
        const end = Math.min(ITEMS, next + 1000, next < HELD_AT ? HELD_AT : ITEMS);
        controller.enqueue(encoder.encode(lines.slice(next, end).join('\n') + '\n'));
        next = end;
      },
    });
    const submitting = stack.fetch(`/api/batch?chunk_size=250`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'x-api-key': key },
      body,
      duplex: 'half',
    } as RequestInit);

    // Kill one worker as soon as the job is under way (a chunk recorded), long before it is done.
    const underWay = await until(newestJob, (job) => job?.processed > 0, 60_000, 20);
    expect(underWay.status).toBe('running');
    expect(underWay.processed).toBeLessThan(ITEMS / 2);
    workers[0].kill('SIGKILL');
    release();
    const submitted = await submitting;
    expect(submitted.status).toBe(202);
    const { id } = await json(submitted);
    expect(id).toBe(underWay.id);

    const seen = await until(() => getJob(id), (job) => ['completed', 'failed', 'cancelled'].includes(job.status), 120_000, 200);
    expect(workers[0].signalCode).toBe('SIGKILL');
    expect(seen).toMatchObject({ status: 'completed', total: ITEMS, processed: ITEMS });

    const results = await stack.fetch(`/api/batch/${id}/results`, { headers: { 'x-api-key': key } });
    expect(results.status).toBe(200);
    const items = (await results.text()).trim().split('\n').map((line) => JSON.parse(line));
    expect(items).toHaveLength(ITEMS);
    expect(items.map((item) => item.index)).toEqual(Array.from({ length: ITEMS }, (_, i) => i));
    expect(items.filter((item) => item.ok)).toHaveLength(seen.succeeded);
    expect(seen.succeeded).toBeGreaterThan(ITEMS * 0.9);
    // Each result is the item's own: its address back, placed in Tashkent, with an index.
    for (const item of items.filter((i) => i.ok).slice(0, 50)) {
      expect(item.result.address).toBe(`${ADDRESSES[item.index % ADDRESSES.length]}, ${item.index}-uy`);
      expect(item.result.geocode.lat).toBeGreaterThan(41.1);
      expect(item.result.geocode.lat).toBeLessThan(41.45);
      expect(typeof item.result.locationIndex.composite).toBe('number');
    }
  }, 240_000);
});
