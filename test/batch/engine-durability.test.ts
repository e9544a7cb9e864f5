/**
 * The Redis engine across process deaths: worker processes (test/batch/fixtures/echo-worker) are
 * killed mid-job, and a private Redis with AOF persistence is restarted under a queued job.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { createBatchEngine, type BatchEngine, type BatchJob, type ItemResult } from '../../platform/batch-engine';
import { freePort, sendCommand, startRedisServer } from '../support/redis-server';
import { sampleItems } from './fixtures/echo-processor';
import { waitFor } from '../support/wait';
import { REDIS_URL, describeWithRedis, describeWithRedisServer } from '../support/redis';

const RUN_PREFIX = `test:batch-durability:${process.pid}:${randomBytes(4).toString('hex')}:`;
const WORKER_SCRIPT = join(__dirname, 'fixtures', 'echo-worker.js');

/** What echo-worker tells its parent about chunks. */
interface ChunkMessage {
  type: 'ready' | 'chunk-started' | 'chunk-settled';
  jobId: string;
  chunkIndex: number;
  outcome?: string;
}

/** An echo-worker process and what it has told us. */
class WorkerProcess {
  /** Chunks it has started and not yet settled. */
  readonly running = new Set<number>();
  readonly settled: ChunkMessage[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the worker takes chunks. */
  readonly ready: Promise<void>;
  private stderr = '';

  private constructor(readonly child: ChildProcess) {
    child.stderr?.on('data', (data: Buffer) => (this.stderr += data.toString()));
    child.on('message', (message: ChunkMessage) => {
      if (message.type === 'chunk-started') this.running.add(message.chunkIndex);
      if (message.type === 'chunk-settled') {
        this.running.delete(message.chunkIndex);
        this.settled.push(message);
      }
    });
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    this.ready = new Promise<void>((resolve, reject) => {
      child.on('message', (message: ChunkMessage) => message.type === 'ready' && resolve());
      void this.exited.then(({ code }) => reject(new Error(`echo-worker exited (${code}) before it was ready:\n${this.stderr}`)));
    });
    this.ready.catch(() => undefined); // a worker killed by a test before it was ready is no failure by itself
  }

  static fork(env: Record<string, string>): WorkerProcess {
    const child = fork(WORKER_SCRIPT, [], { env: { ...process.env, ...env }, execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    return new WorkerProcess(child);
  }

  outcomesOf(chunkIndex: number): Array<string | undefined> {
    return this.settled.filter((message) => message.chunkIndex === chunkIndex).map((message) => message.outcome);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const patience = new AbortController();
    const stopped = await Promise.race([
      this.exited,
      sleep(10_000, undefined, { signal: patience.signal }).catch(() => undefined),
    ]);
    patience.abort();
    if (!stopped) this.child.kill('SIGKILL');
  }
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

/** Waits for the job's end and checks it holds every item's result exactly once. */
async function expectEveryItemOnce(engine: BatchEngine, id: string, total: number): Promise<void> {
  const events = await collect(engine.progress('org-a', id));
  expect(events[events.length - 1]).toMatchObject({ status: 'completed', final: true, processed: total, succeeded: total, failed: 0 });
  expect(await engine.get('org-a', id)).toMatchObject({ status: 'completed', total, processed: total, succeeded: total, failed: 0 });
  const results: ItemResult[] = await collect(engine.results('org-a', id));
  expect(results).toHaveLength(total);
  expect(results.map((result) => result.index)).toEqual(Array.from({ length: total }, (_, i) => i));
  expect(results.every((result) => result.ok && (result.result as { square: number }).square === result.index ** 2)).toBe(true);
}

describeWithRedis('a worker process killed mid-job', () => {
  const admin = createClient({ url: REDIS_URL });
  const workers: WorkerProcess[] = [];
  const engines: BatchEngine[] = [];
  let keyPrefix: string;
  let testCount = 0;

  /** Forks a worker with `settings` over the defaults; registered at once, so teardown stops even one still starting. */
  function forkWorker(settings: Record<string, string>): WorkerProcess {
    const worker = WorkerProcess.fork({
      REDIS_URL,
      BATCH_KEY_PREFIX: keyPrefix,
      CHUNK_DELAY_MS: '120',
      CONCURRENCY: '2',
      LOCK_DURATION_MS: '1000',
      STALLED_INTERVAL_MS: '500',
      ...settings,
    });
    workers.push(worker);
    return worker;
  }

  /** One worker per entry, each with that entry's settings; resolves once all take chunks. */
  async function startWorkers(...settings: Array<Record<string, string>>): Promise<WorkerProcess[]> {
    const started = settings.map(forkWorker);
    await Promise.all(started.map((worker) => worker.ready));
    return started;
  }

  async function apiEngine(): Promise<{ engine: BatchEngine; ended: BatchJob[] }> {
    const engine = await createBatchEngine({ redisUrl: REDIS_URL, keyPrefix, log: () => undefined });
    engines.push(engine);
    const ended: BatchJob[] = [];
    engine.onJobEnded((job) => {
      ended.push(job);
    });
    return { engine, ended };
  }

  beforeAll(async () => {
    await admin.connect();
  });
  beforeEach(() => {
    keyPrefix = `${RUN_PREFIX}${testCount++}:`;
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });
  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL'); // none should be left; never leave one behind
    await deleteKeysUnder(RUN_PREFIX, admin);
    await admin.close();
  });

  test('loses no item and duplicates none: its running chunks go to the other worker', async () => {
    const [doomed, survivor] = await startWorkers({}, {});
    const { engine, ended } = await apiEngine();
    // 60 chunks of 120 ms, four at a time: about two seconds of work.
    const job = await engine.submit('org-a', sampleItems(3000), { chunkSize: 50 });

    await waitFor(() => doomed.settled.length >= 4 && doomed.running.size > 0);
    const cutShort = [...doomed.running];
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toMatchObject({ signal: 'SIGKILL' });

    await expectEveryItemOnce(engine, job.id, 3000);
    // The chunks it was running were handed to the survivor once their claims lapsed.
    for (const chunkIndex of cutShort) expect(survivor.outcomesOf(chunkIndex).length).toBeGreaterThan(0);
    await waitFor(() => ended.length > 0);
    await sleep(300);
    expect(ended.map((endedJob) => endedJob.status)).toEqual(['completed']);
  }, 60_000);

  test('killed right after recording a chunk, before the queue heard of it: the retry records nothing', async () => {
    // The doomed worker kills itself inside the window exactly-once exists for.
    const [doomed, survivor] = await startWorkers({ KILL_SELF_AFTER_RECORDING: '3' }, {});
    const { engine } = await apiEngine();
    const job = await engine.submit('org-a', sampleItems(2000), { chunkSize: 50 });

    expect(await doomed.exited).toMatchObject({ signal: 'SIGKILL' });
    await expectEveryItemOnce(engine, job.id, 2000);
    // The survivor was handed the recorded chunk again and found nothing left to do.
    expect(survivor.settled.some((message) => message.outcome === 'skipped')).toBe(true);
  }, 60_000);

  test('a chunk that kills every worker running it is recorded as INTERNAL after maxStalledCount crashes', async () => {
    // Both workers die whenever they start chunk 3; crashed workers are replaced, as a supervisor would.
    // One chunk at a time: a crash counts against every chunk its worker was running, and this test
    // is about the poisonous one alone.
    const poisoned = { CRASH_ON_CHUNK: '3', MAX_STALLED_COUNT: '1', CHUNK_DELAY_MS: '20', CONCURRENCY: '1' };
    let crashes = 0;
    let supervising = true;
    // A replacement may take chunk 3 and die before it says it is ready: nothing waits for that.
    const replaceWhenKilled = (worker: WorkerProcess): void =>
      void worker.exited.then(({ signal }) => {
        if (signal !== 'SIGKILL' || !supervising) return;
        crashes += 1;
        replaceWhenKilled(forkWorker(poisoned));
      });
    (await startWorkers(poisoned, poisoned)).forEach(replaceWhenKilled);
    const { engine, ended } = await apiEngine();
    const job = await engine.submit('org-a', sampleItems(400), { chunkSize: 50 });

    const events = await collect(engine.progress('org-a', job.id)).finally(() => (supervising = false));
    expect(events[events.length - 1]).toMatchObject({ status: 'completed', processed: 400, succeeded: 350, failed: 50 });
    // Two runs crashed (one stall allowed, plus the one BullMQ is told to allow on top);
    // the third hand-over settled the chunk without running it.
    expect(crashes).toBe(2);
    const results = await collect(engine.results('org-a', job.id));
    expect(results.map((result) => result.index)).toEqual(Array.from({ length: 400 }, (_, i) => i));
    const outcomes = results.map((result) => (result.ok ? 'ok' : result.error.code));
    expect(outcomes).toEqual([...Array(150).fill('ok'), ...Array(50).fill('INTERNAL'), ...Array(200).fill('ok')]);
    await waitFor(() => ended.length === 1);
  }, 60_000);
});

describeWithRedisServer('a Redis restart with persistence', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  let worker: WorkerProcess | undefined;
  const engines: BatchEngine[] = [];

  afterEach(async () => {
    await worker?.stop();
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
    if (server && server.exitCode === null) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('a job submitted before the restart, with no worker running, completes after it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'batch-redis-'));
    const port = await freePort();
    // A private server: the shared one on 6379 is never touched.
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--appendonly', 'yes', '--dir', dir, '--save', '', '--logfile', 'redis.log'];
    const url = `redis://127.0.0.1:${port}`;
    server = await startRedisServer(args, port);

    const producer = await createBatchEngine({ redisUrl: url, keyPrefix: 'batch:', log: () => undefined });
    const submitted = await producer.submit('org-a', sampleItems(500), { chunkSize: 50 });
    expect(submitted).toMatchObject({ status: 'queued', total: 500 });
    await producer.close();

    // SHUTDOWN writes the append-only file out before the server exits.
    await sendCommand(port, 'SHUTDOWN');
    await new Promise((resolve) => server!.once('exit', resolve));
    server = await startRedisServer(args, port);

    const engine = await createBatchEngine({ redisUrl: url, keyPrefix: 'batch:', log: () => undefined });
    engines.push(engine);
    expect(await engine.get('org-a', submitted.id)).toMatchObject({ status: 'queued', total: 500, processed: 0 });
    worker = WorkerProcess.fork({ REDIS_URL: url, BATCH_KEY_PREFIX: 'batch:', CHUNK_DELAY_MS: '10' });
    await worker.ready;
    await expectEveryItemOnce(engine, submitted.id, 500);
  }, 60_000);

  test('the same engine goes on after Redis forgets its scripts (SCRIPT FLUSH): node-redis sends them again', async () => {
    dir = mkdtempSync(join(tmpdir(), 'batch-redis-'));
    const port = await freePort();
    server = await startRedisServer(['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir], port);
    const engine = await createBatchEngine({ redisUrl: `redis://127.0.0.1:${port}`, keyPrefix: 'batch:', log: () => undefined });
    engines.push(engine);
    expect(await engine.submit('org-a', sampleItems(20), { chunkSize: 10 })).toMatchObject({ status: 'queued', total: 20 });
    expect(await sendCommand(port, 'SCRIPT FLUSH')).toMatch(/^\+OK/);
    // Creating, appending to and sealing a job, then cancelling it: four of the store's scripts, each forgotten.
    const second = await engine.submit('org-a', sampleItems(30), { chunkSize: 10 });
    expect(second).toMatchObject({ status: 'queued', total: 30 });
    expect(await engine.cancel('org-a', second.id)).toMatchObject({ status: 'cancelled' });
  }, 60_000);

  test('an engine with a worker, listeners and a progress reader closes promptly once Redis has gone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'batch-redis-'));
    const port = await freePort();
    server = await startRedisServer(['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir], port);
    const engine = await createBatchEngine({ redisUrl: `redis://127.0.0.1:${port}`, log: () => undefined });
    engine.onJobEnded(() => undefined);
    // A chunk that never ends, so the worker has something to give up on.
    await engine.startWorker({ processChunk: async () => new Promise(() => undefined), closeGraceMs: 300 });
    const job = await engine.submit('org-a', sampleItems(10));
    const reader = engine.progress('org-a', job.id)[Symbol.asyncIterator]();
    await reader.next();

    server.kill('SIGKILL');
    await new Promise((resolve) => server!.once('exit', resolve));
    const started = Date.now();
    await engine.close();
    // A graceful BullMQ close waits on Redis, which is not coming back: the engine must not.
    expect(Date.now() - started).toBeLessThan(3_000);
    // A reader of the closed engine may still get an event already on its way, then fails; it never hangs.
    const drained = (async () => {
      while (!(await reader.next()).done);
    })();
    await expect(drained).rejects.toThrow();
  }, 30_000);
});
