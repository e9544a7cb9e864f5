import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournaledJobStore } from '../../platform/batch-engine/journaled-job-store';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';
import {
  BatchEngine,
  BatchItemLimitError,
  BatchJobClosedError,
  BatchJobNotFoundError,
  BatchSubmissionError,
  createBatchEngine,
  createInProcessBatchBackend,
  createRedisBatchBackend,
  InvalidBatchOptionsError,
  type BatchBackend,
  type BatchJob,
  type ChunkProcessor,
  type ItemResult,
  type ProgressEvent,
} from '../../platform/batch-engine';
import { echoProcessor, echoResult, sampleItem, sampleItems } from './fixtures/echo-processor';
import { waitFor } from '../support/wait';
import { REDIS_URL, describeWithRedis, testWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';

const RUN_PREFIX = `test:batch:${process.pid}:${randomBytes(4).toString('hex')}:`;
let backendCount = 0;
const uniquePrefix = () => `${RUN_PREFIX}${backendCount++}:`;

interface BackendSettings {
  retentionMs?: number;
  attempts?: number;
}
type MakeBackend = (settings: BackendSettings, log: (message: string) => void) => Promise<BatchBackend>;

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

/** The one behaviour every batch backend must show, seen through the engine. */
function batchEngineContract(makeBackend: MakeBackend): void {
  const engines: BatchEngine[] = [];
  let logs: string[] = [];

  async function makeEngine(settings: BackendSettings = {}): Promise<BatchEngine> {
    const log = (message: string) => logs.push(message);
    const engine = new BatchEngine(await makeBackend(settings, log), { progressHeartbeatMs: 900, log });
    engines.push(engine);
    return engine;
  }

  /** Every ended job the engine announces, in order. */
  function endedJobs(engine: BatchEngine): BatchJob[] {
    const ended: BatchJob[] = [];
    engine.onJobEnded((job) => {
      ended.push(job);
    });
    return ended;
  }

  async function finalEvent(engine: BatchEngine, organisation: string, id: string): Promise<ProgressEvent> {
    const events = await collect(engine.progress(organisation, id));
    return events[events.length - 1];
  }

  beforeEach(() => {
    logs = [];
  });
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });

  test('a submission cut off mid-way is failed by the stalled-submission sweep, with a final event and an end to announce', async () => {
    const engine = await makeEngine();
    const ended = endedJobs(engine);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // 25 items, then nothing: the reader of the upload is gone.
    async function* cutOff() {
      for (let i = 0; i < 25; i++) yield sampleItem(i);
      await held;
    }
    const submitting = engine.submit('org-a', cutOff(), { chunkSize: 10 });
    let id = '';
    await waitFor(async () => {
      const [job] = (await engine.list('org-a')).jobs;
      id = job?.id ?? '';
      return job?.total === 20;
    });
    const events = collect(engine.progress('org-a', id));
    expect(await engine.failStalledSubmissions(60_000)).toEqual([]); // items came less than a minute ago
    await sleep(150);
    expect(await engine.failStalledSubmissions(100)).toEqual([id]);
    expect(await engine.failStalledSubmissions(100)).toEqual([]); // failed once, listed no more
    expect((await events).pop()).toMatchObject({ status: 'failed', final: true, total: 20 });
    expect((await engine.get('org-a', id))?.error).toMatch(/cut off after 20 items/);
    await waitFor(() => ended.some((job) => job.id === id));
    // The late rest of the items finds the job ended, and the submission returns it as it is.
    release();
    await expect(submitting).resolves.toMatchObject({ id, status: 'failed', total: 20 });
  });

  test('a sealed submission, waiting for workers or ended, is never swept', async () => {
    const engine = await makeEngine(); // no worker: the sealed job stays queued
    const waiting = await engine.submit('org-a', sampleItems(30), { chunkSize: 10 });
    const empty = await engine.submit('org-a', []);
    expect(empty.status).toBe('completed');
    await sleep(150);
    expect(await engine.failStalledSubmissions(100)).toEqual([]);
    expect((await engine.get('org-a', waiting.id))?.status).toBe('queued');
  });

  describe('a submission in several calls (open, then append)', () => {
    const itemList = (count: number) => Array.from({ length: count }, (_, index) => sampleItem(index));

    test('appended parts are stored in order, processed as they come, and the last one seals the job', async () => {
      const engine = await makeEngine();
      const ended = endedJobs(engine);
      await engine.startWorker({ processChunk: echoProcessor(), concurrency: 2 });
      const opened = await engine.open('org-a', { chunkSize: 10, callbackUrl: 'https://bank.example/hook', fileName: 'Q3 mortgages.csv' });
      expect(opened).toMatchObject({ organisation: 'org-a', status: 'queued', total: 0, sealed: false, chunkSize: 10, callbackUrl: 'https://bank.example/hook', fileName: 'Q3 mortgages.csv' });
      expect(await engine.get('org-a', opened.id)).toMatchObject({ fileName: 'Q3 mortgages.csv' }); // read back from the store
      const items = itemList(45);
      expect(await engine.append('org-a', opened.id, items.slice(0, 20), { last: false })).toMatchObject({ total: 20, sealed: false });
      // The first part is being valued while the rest is still to come.
      await waitFor(async () => ((await engine.get('org-a', opened.id))?.processed ?? 0) === 20);
      expect((await engine.get('org-a', opened.id))?.status).toBe('running');
      expect(await engine.append('org-a', opened.id, items.slice(20, 40), { last: false })).toMatchObject({ total: 40 });
      expect(await engine.append('org-a', opened.id, items.slice(40), { last: true })).toMatchObject({ total: 45, sealed: true });

      expect(await finalEvent(engine, 'org-a', opened.id)).toMatchObject({ status: 'completed', processed: 45, total: 45, final: true });
      const results = await collect(engine.results('org-a', opened.id));
      expect(results.map((result) => result.index)).toEqual(Array.from({ length: 45 }, (_, i) => i));
      expect(results[42]).toEqual({ index: 42, ok: true, result: echoResult(sampleItem(42), 42) });
      await waitFor(() => ended.length === 1);
    });

    test('an empty last part seals the job; a job sealed with no items completes at once', async () => {
      const engine = await makeEngine();
      await engine.startWorker({ processChunk: echoProcessor() });
      const job = await engine.open('org-a', { chunkSize: 5 });
      await engine.append('org-a', job.id, itemList(10), { last: false });
      await engine.append('org-a', job.id, [], { last: true });
      expect(await finalEvent(engine, 'org-a', job.id)).toMatchObject({ status: 'completed', processed: 10, total: 10 });
      const empty = await engine.open('org-a');
      expect(await engine.append('org-a', empty.id, [], { last: true })).toMatchObject({ status: 'completed', total: 0, sealed: true });
    });

    test('every part but the last must be whole chunks: anything else is refused and stores nothing', async () => {
      const engine = await makeEngine();
      const job = await engine.open('org-a', { chunkSize: 10 });
      await expect(engine.append('org-a', job.id, itemList(15), { last: false })).rejects.toThrow(InvalidBatchOptionsError);
      await expect(engine.append('org-a', job.id, itemList(15), { last: false })).rejects.toThrow(/multiple of the job's chunk size \(10\)/);
      expect(await engine.get('org-a', job.id)).toMatchObject({ status: 'queued', total: 0, sealed: false });
      // Refused, not failed: the caller sends it again the right way.
      await engine.append('org-a', job.id, itemList(10), { last: false });
      expect(await engine.append('org-a', job.id, itemList(3), { last: true })).toMatchObject({ total: 13, sealed: true });
      await expect(engine.open('org-a', { chunkSize: 0 })).rejects.toBeInstanceOf(InvalidBatchOptionsError);
    });

    test('a sealed job takes no more items, and neither does an ended one', async () => {
      const engine = await makeEngine();
      const sealed = await engine.open('org-a', { chunkSize: 10 });
      await engine.append('org-a', sealed.id, itemList(5), { last: true });
      const refusal = await engine.append('org-a', sealed.id, itemList(10), { last: false }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(BatchJobClosedError);
      expect(refusal).toMatchObject({ reason: 'sealed', message: expect.stringMatching(/sealed/) });
      expect((await engine.get('org-a', sealed.id))?.total).toBe(5);

      const cancelled = await engine.open('org-a', { chunkSize: 10 });
      await engine.cancel('org-a', cancelled.id);
      await expect(engine.append('org-a', cancelled.id, itemList(10), { last: true })).rejects.toMatchObject({ name: 'BatchJobClosedError', reason: 'ended', message: expect.stringMatching(/has ended \(cancelled\)/) });
    });

    test("another organisation's job, or none, is not found", async () => {
      const engine = await makeEngine();
      const job = await engine.open('org-a', { chunkSize: 10 });
      await expect(engine.append('org-b', job.id, itemList(10), { last: true })).rejects.toBeInstanceOf(BatchJobNotFoundError);
      await expect(engine.append('org-a', 'no-such-job', itemList(10), { last: true })).rejects.toBeInstanceOf(BatchJobNotFoundError);
      expect(await engine.get('org-a', job.id)).toMatchObject({ total: 0, sealed: false, status: 'queued' });
    });

    test('past maxItems the job is failed with the reason, and nothing of that part is stored', async () => {
      const engine = await makeEngine();
      const ended = endedJobs(engine);
      const job = await engine.open('org-a', { chunkSize: 10 });
      await engine.append('org-a', job.id, itemList(20), { last: false, maxItems: 25 });
      const refusal = await engine.append('org-a', job.id, itemList(10), { last: false, maxItems: 25 }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(BatchItemLimitError);
      expect(refusal).toMatchObject({ jobId: job.id, limit: 25, wouldHold: 30 });
      expect(await engine.get('org-a', job.id)).toMatchObject({ status: 'failed', total: 20, error: expect.stringMatching(/limit of 25 items/) });
      await waitFor(() => ended.some((endedJob) => endedJob.id === job.id && endedJob.status === 'failed'));
      // Exactly at the limit is fine.
      const full = await engine.open('org-a', { chunkSize: 10 });
      expect(await engine.append('org-a', full.id, itemList(25), { last: true, maxItems: 25 })).toMatchObject({ total: 25, sealed: true });
    });

    test('two appends racing for the same place: one is stored, the other refused before storing anything', async () => {
      const engine = await makeEngine();
      const job = await engine.open('org-a', { chunkSize: 10 });
      const outcomes = await Promise.allSettled([
        engine.append('org-a', job.id, itemList(10), { last: false }),
        engine.append('org-a', job.id, itemList(10), { last: false }),
      ]);
      const stored = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
      expect(stored).toBeGreaterThanOrEqual(1);
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(InvalidBatchOptionsError);
      // Whichever way it went, the job is intact: whole parts only, still open.
      expect(await engine.get('org-a', job.id)).toMatchObject({ status: 'queued', total: 10 * stored, sealed: false });
    });

    test('an open job that stops receiving is failed by the stalled-submission sweep; a late part is refused', async () => {
      const engine = await makeEngine();
      const ended = endedJobs(engine);
      const job = await engine.open('org-a', { chunkSize: 10 });
      await engine.append('org-a', job.id, itemList(20), { last: false });
      const never = await engine.open('org-a'); // not a single item
      const events = collect(engine.progress('org-a', job.id));
      expect(await engine.failStalledSubmissions(60_000)).toEqual([]);
      await sleep(150);
      expect((await engine.failStalledSubmissions(100)).sort()).toEqual([job.id, never.id].sort());
      expect((await events).pop()).toMatchObject({ status: 'failed', final: true, total: 20 });
      expect(await engine.get('org-a', job.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/cut off after 20 items/) });
      await waitFor(() => ended.length === 2);
      await expect(engine.append('org-a', job.id, itemList(5), { last: true })).rejects.toBeInstanceOf(BatchJobClosedError);
      expect((await engine.get('org-a', job.id))?.total).toBe(20);
    });

    test('each part keeps an open job from the sweep', async () => {
      const engine = await makeEngine();
      const job = await engine.open('org-a', { chunkSize: 10 });
      for (let part = 0; part < 3; part++) {
        await sleep(120);
        await engine.append('org-a', job.id, itemList(10), { last: false });
        expect(await engine.failStalledSubmissions(200)).toEqual([]);
      }
      await engine.append('org-a', job.id, [], { last: true });
      await sleep(250);
      expect(await engine.failStalledSubmissions(200)).toEqual([]); // sealed: never swept
      expect(await engine.get('org-a', job.id)).toMatchObject({ status: 'queued', total: 30, sealed: true });
    });

    test('cancel during an open submission ends it: pending chunks are skipped and later parts refused', async () => {
      const engine = await makeEngine();
      const ended = endedJobs(engine);
      let runs = 0;
      await engine.startWorker({ processChunk: echoProcessor({ delayMs: 50, onChunkStart: () => runs++ }), concurrency: 1 });
      const job = await engine.open('org-a', { chunkSize: 10 });
      await engine.append('org-a', job.id, itemList(200), { last: false });
      const progress = collect(engine.progress('org-a', job.id));
      await waitFor(async () => ((await engine.get('org-a', job.id))?.processed ?? 0) >= 20);
      const cancelled = await engine.cancel('org-a', job.id);
      expect(cancelled).toMatchObject({ status: 'cancelled', total: 200, sealed: false });
      const runsAtCancel = runs;
      await expect(engine.append('org-a', job.id, itemList(10), { last: true })).rejects.toMatchObject({ name: 'BatchJobClosedError', reason: 'ended' });
      await sleep(300);
      expect(runs).toBeLessThanOrEqual(runsAtCancel + 1);
      expect((await progress).filter((event) => event.final)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
      expect(await engine.failStalledSubmissions(1)).toEqual([]); // ended: not a stalled submission
      await waitFor(() => ended.length === 1);
      expect(ended[0]).toMatchObject({ id: job.id, status: 'cancelled' });
    });
  });

  test('a 2,500-item job in chunks of 100 completes with every result exactly once, in order', async () => {
    const engine = await makeEngine();
    const ended = endedJobs(engine);
    // Two workers on one backend, so chunks finish out of order and race for the last one.
    await engine.startWorker({ processChunk: echoProcessor({ delayMs: 5 }), concurrency: 3 });
    await engine.startWorker({ processChunk: echoProcessor({ delayMs: 5 }), concurrency: 2 });

    const submitted = await engine.submit('org-a', sampleItems(2500), { chunkSize: 100, callbackUrl: 'https://bank.example/hook' });
    expect(submitted).toMatchObject({ organisation: 'org-a', total: 2500, chunkSize: 100, callbackUrl: 'https://bank.example/hook' });

    expect(await finalEvent(engine, 'org-a', submitted.id)).toMatchObject({ status: 'completed', processed: 2500, final: true });
    const job = await engine.get('org-a', submitted.id);
    expect(job).toMatchObject({ status: 'completed', total: 2500, processed: 2500, succeeded: 2500, failed: 0 });
    expect(Date.parse(job!.completedAt!)).toBeGreaterThanOrEqual(Date.parse(job!.startedAt!));

    const results = await collect(engine.results('org-a', submitted.id));
    expect(results.map((result) => result.index)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(results[1234]).toEqual({ index: 1234, ok: true, result: echoResult(sampleItem(1234), 1234) });
    expect(results.every((result) => result.ok && (result.result as { square: number }).square === result.index ** 2)).toBe(true);

    await waitFor(() => ended.length > 0);
    await sleep(300); // room for a second announcement, were there one
    expect(ended.map((endedJob) => [endedJob.id, endedJob.status])).toEqual([[submitted.id, 'completed']]);
  });

  test('per-item errors are counted as failed and the job still completes', async () => {
    const engine = await makeEngine();
    await engine.startWorker({ processChunk: echoProcessor({ failsItem: (index) => index % 10 === 3 }), concurrency: 2 });
    const items = Array.from({ length: 1000 }, (_, index) => sampleItem(index));
    const job = await engine.submit('org-a', items, { chunkSize: 64 });

    expect(await finalEvent(engine, 'org-a', job.id)).toMatchObject({ status: 'completed', processed: 1000, succeeded: 900, failed: 100 });
    const results = await collect(engine.results('org-a', job.id));
    expect(results).toHaveLength(1000);
    expect(results[13]).toEqual({ index: 13, ok: false, error: { code: 'UNRESOLVABLE_ADDRESS', message: 'item 13 cannot be placed' } });
    expect(results.filter((result) => !result.ok).map((result) => result.index % 10)).toEqual(Array(100).fill(3));
  });

  test('results can start at an item index, mid-chunk, without the items before it', async () => {
    const engine = await makeEngine();
    await engine.startWorker({ processChunk: echoProcessor(), concurrency: 2 });
    const job = await engine.submit('org-a', sampleItems(250), { chunkSize: 100 });
    await finalEvent(engine, 'org-a', job.id);
    const tail = await collect(engine.results('org-a', job.id, 150));
    expect(tail.map((result) => result.index)).toEqual(Array.from({ length: 100 }, (_, i) => 150 + i));
    expect(await collect(engine.results('org-a', job.id, 250))).toEqual([]);
  });

  test('a chunk whose processor throws is retried, and after its last attempt its items are INTERNAL failures', async () => {
    const engine = await makeEngine({ attempts: 3 });
    const runs = new Map<number, number>();
    const echo = echoProcessor();
    const flaky: ChunkProcessor = async (items, context) => {
      runs.set(context.chunkIndex, (runs.get(context.chunkIndex) ?? 0) + 1);
      if (context.chunkIndex === 2 && context.attempt === 1) throw new Error('geocoder timed out');
      if (context.chunkIndex === 4) throw new Error('geocoder is down');
      return echo(items, context);
    };
    await engine.startWorker({ processChunk: flaky, concurrency: 2 });
    const job = await engine.submit('org-a', sampleItems(600), { chunkSize: 100 });

    expect(await finalEvent(engine, 'org-a', job.id)).toMatchObject({ status: 'completed', processed: 600, succeeded: 500, failed: 100 });
    expect(runs.get(2)).toBe(2);
    expect(runs.get(4)).toBe(3);
    const results = await collect(engine.results('org-a', job.id));
    expect(results.slice(200, 300).every((result) => result.ok)).toBe(true);
    const chunk4 = results.slice(400, 500);
    expect(chunk4.map((result) => result.index)).toEqual(Array.from({ length: 100 }, (_, i) => 400 + i));
    expect(chunk4.every((result) => !result.ok && result.error.code === 'INTERNAL' && result.error.message === 'Internal error')).toBe(true);
    // The internal message stays in the log, not in the results.
    expect(logs.some((line) => line.includes('geocoder is down') && line.includes('recorded as INTERNAL'))).toBe(true);
  });

  test('a processor breaking its contract (wrong result count or index) fails its chunk', async () => {
    const engine = await makeEngine({ attempts: 2 });
    const echo = echoProcessor();
    await engine.startWorker({
      processChunk: async (items, context) => {
        const results = [...(await echo(items, context))];
        if (context.chunkIndex === 0) results.pop();
        if (context.chunkIndex === 1) results.reverse();
        return results;
      },
    });
    const job = await engine.submit('org-a', sampleItems(30), { chunkSize: 10 });
    expect(await finalEvent(engine, 'org-a', job.id)).toMatchObject({ status: 'completed', succeeded: 10, failed: 20 });
    const codes = (await collect(engine.results('org-a', job.id))).map((result) => (result.ok ? 'ok' : result.error.code));
    expect(codes).toEqual([...Array(20).fill('INTERNAL'), ...Array(10).fill('ok')]);
  });

  test('progress arrives in order, at least once a second, never goes back, and ends with one final event', async () => {
    const engine = await makeEngine();
    // 30 chunks of 100 ms on one worker: about three seconds.
    await engine.startWorker({ processChunk: echoProcessor({ delayMs: 100 }), concurrency: 1 });
    const job = await engine.submit('org-a', sampleItems(3000), { chunkSize: 100 });

    const received: Array<{ event: ProgressEvent; at: number }> = [];
    for await (const event of engine.progress('org-a', job.id)) received.push({ event, at: Date.now() });

    const events = received.map((entry) => entry.event);
    expect(received[received.length - 1].at - received[0].at).toBeGreaterThan(2_000);
    // Gaps by the publisher's clock: the contract is what workers publish, not how fast a loaded test machine reads it.
    const published = received.map((entry) => Date.parse(entry.event.at));
    const gaps = published.slice(1).map((at, i) => at - published[i]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(1_000);
    const processed = events.map((event) => event.processed);
    expect(processed).toEqual([...processed].sort((a, b) => a - b));
    expect(events.filter((event) => event.final)).toHaveLength(1);
    expect(events[events.length - 1]).toMatchObject({ id: job.id, status: 'completed', final: true, processed: 3000, total: 3000, etaSeconds: 0 });
    const running = events.filter((event) => event.status === 'running' && event.processed > 0);
    expect(running.length).toBeGreaterThanOrEqual(3);
    expect(running.every((event) => event.ratePerSecond > 0 && event.etaSeconds !== null && event.etaSeconds >= 0)).toBe(true);
    expect(Number.isNaN(Date.parse(events[0].at))).toBe(false);
  });

  test('another organisation sees nothing of a job: get, list, results, progress, cancel, deliveries', async () => {
    const engine = await makeEngine();
    const job = await engine.submit('org-a', sampleItems(200), { chunkSize: 50 });

    expect(await engine.get('org-b', job.id)).toBeUndefined();
    expect(await engine.list('org-b')).toEqual({ jobs: [], nextOffset: null });
    await expect(collect(engine.results('org-b', job.id))).rejects.toBeInstanceOf(BatchJobNotFoundError);
    await expect(collect(engine.progress('org-b', job.id))).rejects.toBeInstanceOf(BatchJobNotFoundError);
    expect(await engine.cancel('org-b', job.id)).toBeUndefined();
    expect(await engine.recordDelivery('org-b', job.id, { number: 1 })).toBe(false);
    // A missing job looks exactly the same.
    await expect(collect(engine.results('org-b', 'no-such-job'))).rejects.toBeInstanceOf(BatchJobNotFoundError);

    // org-b's cancel did nothing: the job still runs to completion for its owner.
    await engine.startWorker({ processChunk: echoProcessor() });
    expect(await finalEvent(engine, 'org-a', job.id)).toMatchObject({ status: 'completed', processed: 200 });
    expect((await collect(engine.results('org-a', job.id))).length).toBe(200);
  });

  test('cancel mid-job skips the pending chunks, freezes the counters and sends one final event', async () => {
    const engine = await makeEngine();
    const ended = endedJobs(engine);
    let runs = 0;
    await engine.startWorker({ processChunk: echoProcessor({ delayMs: 50, onChunkStart: () => runs++ }), concurrency: 1 });
    const job = await engine.submit('org-a', sampleItems(5000), { chunkSize: 100 });
    const progress = collect(engine.progress('org-a', job.id));
    await waitFor(async () => ((await engine.get('org-a', job.id))?.processed ?? 0) >= 300);

    const cancelled = await engine.cancel('org-a', job.id);
    const runsAtCancel = runs;
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled!.completedAt).not.toBeNull();
    await sleep(500); // ten chunks' worth of time
    expect(runs).toBeLessThanOrEqual(runsAtCancel + 1); // at most the chunk that was running
    const after = await engine.get('org-a', job.id);
    expect(after).toMatchObject({ status: 'cancelled', processed: cancelled!.processed });
    expect(after!.processed).toBeLessThan(5000);

    const events = await progress;
    expect(events.filter((event) => event.final)).toEqual([expect.objectContaining({ status: 'cancelled', processed: cancelled!.processed })]);
    expect(await engine.cancel('org-a', job.id)).toMatchObject({ status: 'cancelled', completedAt: cancelled!.completedAt });
    await waitFor(() => ended.length > 0);
    await sleep(200);
    expect(ended.map((endedJob) => endedJob.status)).toEqual(['cancelled']);
  });

  test('a job and its results expire after the retention once it ends', async () => {
    const engine = await makeEngine({ retentionMs: 400 });
    await engine.startWorker({ processChunk: echoProcessor() });
    const job = await engine.submit('org-a', sampleItems(50), { chunkSize: 10 });
    await finalEvent(engine, 'org-a', job.id);
    expect(await collect(engine.results('org-a', job.id))).toHaveLength(50);
    expect((await engine.list('org-a')).jobs.map((listed) => listed.id)).toEqual([job.id]);

    await sleep(700);
    expect(await engine.get('org-a', job.id)).toBeUndefined();
    await expect(collect(engine.results('org-a', job.id))).rejects.toBeInstanceOf(BatchJobNotFoundError);
    expect(await engine.list('org-a')).toEqual({ jobs: [], nextOffset: null });
  });

  test('a job that has not ended does not expire', async () => {
    const engine = await makeEngine({ retentionMs: 100 });
    const job = await engine.submit('org-a', sampleItems(10), { chunkSize: 10 }); // no worker: stays queued
    await sleep(300);
    expect(await engine.get('org-a', job.id)).toMatchObject({ status: 'queued', total: 10 });
  });

  test('the store refuses illegal status transitions and lets exactly one concurrent caller end a job', async () => {
    const backend = await makeBackend({}, (message) => logs.push(message));
    engines.push(new BatchEngine(backend));
    const { store } = backend;
    await store.create({ id: 'job-1', organisation: 'org-a', chunkSize: 10 });

    expect(await store.transition('job-1', 'completed')).toEqual({ applied: false, current: 'queued' });
    expect(await store.transition('job-1', 'queued')).toEqual({ applied: false, current: 'queued' });
    expect(await store.transition('job-1', 'running')).toEqual({ applied: true, from: 'queued' });
    expect(await store.transition('job-1', 'running')).toEqual({ applied: false, current: 'running' });
    expect(await store.transition('job-1', 'queued')).toEqual({ applied: false, current: 'running' });
    const racing = await Promise.all([
      store.transition('job-1', 'completed'),
      store.transition('job-1', 'cancelled'),
      store.transition('job-1', 'failed', { error: 'boom' }),
    ]);
    expect(racing.filter((result) => result.applied)).toHaveLength(1);
    const ended = (await store.get('job-1'))!;
    for (const to of ['running', 'completed', 'failed', 'cancelled', 'queued'] as const) {
      expect(await store.transition('job-1', to)).toEqual({ applied: false, current: ended.status });
    }
    expect(await store.transition('no-such-job', 'running')).toEqual({ applied: false, current: undefined });
  });

  test('a chunk recorded twice counts once, and nothing is recorded after the job ends', async () => {
    const backend = await makeBackend({}, (message) => logs.push(message));
    engines.push(new BatchEngine(backend));
    const { store } = backend;
    const ok = (index: number): ItemResult => ({ index, ok: true, result: { n: index } });
    await store.create({ id: 'job-2', organisation: 'org-a', chunkSize: 2 });
    expect(await store.appendInput('job-2', 0, ['a', 'b'])).toBe(true);
    expect(await store.appendInput('job-2', 1, ['c'])).toBe(true);
    await expect(store.appendInput('job-2', 5, ['z'])).rejects.toThrow(/out of order/);
    expect(await store.seal('job-2')).toEqual({ completed: false });
    expect(await store.readInput('job-2', 1)).toEqual(['c']);

    expect(await store.recordChunk('job-2', 0, [ok(0), { index: 1, ok: false, error: { code: 'INTERNAL', message: 'x' } }])).toEqual({ kind: 'recorded' });
    expect(await store.recordChunk('job-2', 0, [ok(0), ok(1)])).toEqual({ kind: 'duplicate' });
    expect(await store.get('job-2')).toMatchObject({ status: 'running', processed: 2, succeeded: 1, failed: 1 });
    expect(await store.readInput('job-2', 0)).toBeUndefined();
    expect(await store.recordChunk('job-2', 1, [ok(2)])).toEqual({ kind: 'completed' });
    expect(await store.recordChunk('job-2', 1, [ok(2)])).toEqual({ kind: 'discarded', status: 'completed' });
    expect(await store.get('job-2')).toMatchObject({ status: 'completed', total: 3, processed: 3, succeeded: 2, failed: 1 });
    expect((await collect(store.streamResults('job-2'))).map((result) => result.index)).toEqual([0, 1, 2]);
    expect(await store.recordChunk('no-such-job', 0, [ok(0)])).toEqual({ kind: 'discarded', status: undefined });
  });

  test('an organisation lists its jobs newest first, a page at a time', async () => {
    const engine = await makeEngine();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await engine.submit('org-a', [sampleItem(i)])).id);
    await engine.submit('org-b', [sampleItem(9)]);
    const newestFirst = [...ids].reverse();

    const first = await engine.list('org-a', { limit: 2 });
    expect(first.jobs.map((job) => job.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.nextOffset).toBe(2);
    const second = await engine.list('org-a', { offset: 2, limit: 2 });
    expect(second.jobs.map((job) => job.id)).toEqual(newestFirst.slice(2, 4));
    const last = await engine.list('org-a', { offset: 4, limit: 2 });
    expect(last).toEqual({ jobs: [expect.objectContaining({ id: newestFirst[4], organisation: 'org-a' })], nextOffset: null });
    expect((await engine.list('org-a')).jobs).toHaveLength(5);
    await expect(engine.list('org-a', { limit: 101 })).rejects.toBeInstanceOf(InvalidBatchOptionsError);
  });

  test('a job of no items completes at once, with one final event and one announcement', async () => {
    const engine = await makeEngine();
    const ended = endedJobs(engine);
    const job = await engine.submit('org-a', []);
    expect(job).toMatchObject({ status: 'completed', total: 0, processed: 0 });
    expect(await collect(engine.progress('org-a', job.id))).toEqual([expect.objectContaining({ final: true, status: 'completed' })]);
    expect(await collect(engine.results('org-a', job.id))).toEqual([]);
    await waitFor(() => ended.length === 1);
  });

  test('items that fail to read part-way leave a failed job and reject the submission', async () => {
    const engine = await makeEngine();
    const ended = endedJobs(engine);
    async function* brokenUpload() {
      yield* sampleItems(150);
      throw new Error('line 151 is not valid JSON');
    }
    const failure = await engine.submit('org-a', brokenUpload(), { chunkSize: 100 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BatchSubmissionError);
    const jobId = (failure as BatchSubmissionError).jobId;
    expect(await engine.get('org-a', jobId)).toMatchObject({
      status: 'failed',
      error: 'the items could not be read: line 151 is not valid JSON',
    });
    await waitFor(() => ended.length === 1);
    expect(ended[0]).toMatchObject({ id: jobId, status: 'failed' });
  });

  test('refuses bad options before storing anything', async () => {
    const engine = await makeEngine();
    await expect(engine.submit('org-a', [1], { chunkSize: 0 })).rejects.toBeInstanceOf(InvalidBatchOptionsError);
    await expect(engine.submit('org-a', [1], { chunkSize: 10_001 })).rejects.toBeInstanceOf(InvalidBatchOptionsError);
    await expect(engine.submit('', [1])).rejects.toBeInstanceOf(InvalidBatchOptionsError);
    expect((await engine.list('org-a')).jobs).toEqual([]);
  });

  test('closing a worker lets its running chunk finish and be recorded, and takes no new one', async () => {
    const engine = await makeEngine();
    const started: number[] = [];
    const worker = await engine.startWorker({
      processChunk: echoProcessor({ delayMs: 300, onChunkStart: ({ chunkIndex }) => started.push(chunkIndex) }),
    });
    const job = await engine.submit('org-a', sampleItems(300), { chunkSize: 100 });
    await waitFor(() => started.length === 1);
    await worker.close();
    expect(started).toHaveLength(1);
    expect(await engine.get('org-a', job.id)).toMatchObject({ status: 'running', processed: 100 });

    // The rest waits for the next worker.
    await engine.startWorker({ processChunk: echoProcessor() });
    expect(await finalEvent(engine, 'org-a', job.id)).toMatchObject({ status: 'completed', processed: 300 });
    expect((await collect(engine.results('org-a', job.id))).map((result) => result.index)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  test('closing a worker gives up on a chunk that outlives the grace', async () => {
    const engine = await makeEngine();
    let started = false;
    const worker = await engine.startWorker({
      processChunk: () => {
        started = true;
        return new Promise(() => undefined);
      },
      closeGraceMs: 200,
    });
    await engine.submit('org-a', sampleItems(10));
    await waitFor(() => started);
    const closing = Date.now();
    await worker.close();
    expect(Date.now() - closing).toBeLessThan(2_000);
  });

  test('webhook deliveries are recorded on the job, in order', async () => {
    const engine = await makeEngine();
    const job = await engine.submit('org-a', []);
    expect(await engine.recordDelivery('org-a', job.id, { number: 1, statusCode: 503 })).toBe(true);
    expect(await engine.recordDelivery('org-a', job.id, { number: 2, statusCode: 200 })).toBe(true);
    expect((await engine.get('org-a', job.id))?.deliveries).toEqual([
      { number: 1, statusCode: 503 },
      { number: 2, statusCode: 200 },
    ]);
    // Listing stays light: deliveries only come with a single job.
    expect((await engine.list('org-a')).jobs[0].deliveries).toBeUndefined();
  });
}

describe('in-process batch engine', () => {
  batchEngineContract(async (settings, log) =>
    createInProcessBatchBackend({
      retentionMs: settings.retentionMs ?? 60_000,
      retry: { attempts: settings.attempts ?? 3, backoffMs: 10 },
      log,
    }),
  );
});

describe('in-process batch engine, jobs journaled to a file (the embedded service)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'batch-journal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  batchEngineContract(async (settings, log) =>
    createInProcessBatchBackend(
      { retentionMs: settings.retentionMs ?? 60_000, retry: { attempts: settings.attempts ?? 3, backoffMs: 10 }, log },
      await JournaledJobStore.open(join(dir, `jobs-${files++}.ndjson`), { retentionMs: settings.retentionMs ?? 60_000, log }),
    ),
  );
});

describeWithRedis('Redis batch engine (BullMQ on node-redis)', () => {
  const admin = createClient({ url: REDIS_URL });
  const keysUnder = async (prefix: string) => {
    const keys: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
    return keys;
  };
  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    await deleteKeysUnder(RUN_PREFIX, admin);
    await admin.close();
  });

  const redisBackend = (settings: BackendSettings, log: (message: string) => void, keyPrefix = uniquePrefix()) =>
    createRedisBatchBackend({
      url: REDIS_URL,
      keyPrefix,
      retentionMs: settings.retentionMs ?? 60_000,
      retry: { attempts: settings.attempts ?? 3, backoffMs: 10 },
      lockDurationMs: 2_000,
      stalledIntervalMs: 1_000,
      maxStalledCount: 2,
      log,
    });

  batchEngineContract(redisBackend);

  test('every key of an ended job carries the retention as its expiry', async () => {
    const keyPrefix = uniquePrefix();
    const engine = new BatchEngine(await redisBackend({ retentionMs: 30_000 }, () => undefined, keyPrefix));
    await engine.startWorker({ processChunk: echoProcessor() });
    const job = await engine.submit('org-a', sampleItems(30), { chunkSize: 10 });
    await collect(engine.progress('org-a', job.id));
    await engine.recordDelivery('org-a', job.id, { number: 1 });

    const jobKeys = await keysUnder(`${keyPrefix}job:${job.id}`);
    expect(jobKeys.map((key) => key.slice(keyPrefix.length)).sort()).toEqual([
      `job:${job.id}`,
      `job:${job.id}:deliveries`,
      `job:${job.id}:out`, // the items (`:in`) went when their chunks were recorded
    ]);
    for (const key of jobKeys) {
      const ttl = await admin.pTTL(key);
      expect(ttl).toBeGreaterThan(25_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
    }
    await engine.close();
  });

  test('an engine without workers hands its chunks to a worker of another engine (another process, in production)', async () => {
    const keyPrefix = uniquePrefix();
    const api = new BatchEngine(await redisBackend({}, () => undefined, keyPrefix));
    const workerSide = new BatchEngine(await redisBackend({}, () => undefined, keyPrefix));
    const ended = [] as string[];
    api.onJobEnded((job) => {
      ended.push(job.id);
    });
    await workerSide.startWorker({ processChunk: echoProcessor(), concurrency: 2 });
    const job = await api.submit('org-a', sampleItems(500), { chunkSize: 50 });
    expect((await collect(api.progress('org-a', job.id))).pop()).toMatchObject({ status: 'completed', processed: 500 });
    await waitFor(() => ended.length === 1);
    await Promise.all([api.close(), workerSide.close()]);
  });
});

describe('createBatchEngine', () => {
  const savedRedisUrl = process.env.REDIS_URL;
  afterEach(() => {
    if (savedRedisUrl === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = savedRedisUrl;
  });

  test('runs in process when REDIS_URL is not set', async () => {
    delete process.env.REDIS_URL;
    const engine = await createBatchEngine();
    expect(engine.kind).toBe('in-process');
    await engine.close();
  });

  testWithRedis('runs on Redis when REDIS_URL is set, under the key prefix given', async () => {
    process.env.REDIS_URL = REDIS_URL;
    const keyPrefix = uniquePrefix();
    const engine = await createBatchEngine({ keyPrefix, log: () => undefined });
    expect(engine.kind).toBe('redis');
    const job = await engine.submit('org-a', []);
    expect((await engine.get('org-a', job.id))?.status).toBe('completed');
    await engine.close();
    await deleteKeysUnder(keyPrefix, REDIS_URL);
  });
});
