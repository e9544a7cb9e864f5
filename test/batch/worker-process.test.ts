/**
 * The production shape of batch work, through the API: the gateway and subgraphs on Redis with no
 * workers of their own, the location subgraph also run alone (`node dist/subgraphs/main.js
 * location`), and two `npm run worker` processes (worker-main) taking the chunks and placing their
 * items through it. One worker is killed with SIGKILL mid-job, while the upload is still streaming
 * in; the job still completes through POST /api/batch and its results stream holds every item
 * exactly once.
 */
import { randomBytes } from 'node:crypto';
import { ENTRY, startProcess, stopProcess, type StartedProcess } from '../support/processes';
import { REDIS_URL, describeWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

const KEY_PREFIX = `test:worker-process:${process.pid}:${randomBytes(4).toString('hex')}:`;
const INTERNAL_TOKEN = randomBytes(24).toString('base64url');
const ITEMS = 30_000;
const ADDRESSES = ['Chilonzor tumani, 13-kvartal', 'Юнусабад 8-й квартал', 'Куйлюк-5', 'массив Карасу-3', 'Сергели-IV'];

describeWithRedis('worker processes on Redis', () => {
  let stack: TestStack;
  let key: string;
  const workers: StartedProcess[] = [];
  let location: StartedProcess;

  const startWorker = async () =>
    workers.push(
      await startProcess(ENTRY.worker, [], {
        REDIS_URL,
        RESIDENTIAL_URL: stack.residential.url,
        LOCATION_URL: location.ready,
        INTERNAL_TOKEN,
        BATCH_KEY_PREFIX: KEY_PREFIX,
        BATCH_WORKER_CONCURRENCY: '1',
        // A dead worker's chunk goes to the other within seconds, not BullMQ's default 30.
        BATCH_LOCK_DURATION_MS: '2000',
        BATCH_STALLED_INTERVAL_MS: '1000',
      }, /batch worker taking chunks/),
    );

  beforeAll(async () => {
    stack = await startTestStack({ redisUrl: REDIS_URL, env: { BATCH_WORKERS: '0', INTERNAL_TOKEN, BATCH_KEY_PREFIX: KEY_PREFIX } });
    key = stack.newKey('enterprise');
    // The workers' geocoding runs in a location process of its own, as it would in a split deployment.
    location = await startProcess(ENTRY.subgraph, ['location'], { INTERNAL_TOKEN, LOCATION_PORT: '0' }, /listening on (\S+)/);
    await Promise.all([startWorker(), startWorker()]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...workers, location].map((p) => stopProcess(p)));
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
    await stopProcess(workers[0]);
    release();
    const submitted = await submitting;
    expect(submitted.status).toBe(202);
    const { id } = await json(submitted);
    expect(id).toBe(underWay.id);

    const seen = await until(() => getJob(id), (job) => ['completed', 'failed', 'cancelled'].includes(job.status), 120_000, 200);
    expect(workers[0].child.signalCode).toBe('SIGKILL');
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
      expect(typeof item.result.location_index.composite).toBe('number');
    }
  }, 240_000);
});
