/**
 * The completion webhook survives the API process that was delivering it: a delivery cut short by
 * shutdown, mid-retry, is picked up by the next engine on the same backend, which goes on from the
 * attempts recorded (numbering, budget) with the same webhook-id. On Redis (another process, in
 * production) and in process (one backend, a second engine) alike.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { Webhook } from 'standardwebhooks';
import { sendCompletionWebhooks } from '../../subgraphs/batch/completion-webhooks';
import {
  BatchEngine,
  createInProcessBatchBackend,
  createRedisBatchBackend,
  type BatchBackend,
} from '../../platform/batch-engine';
import { newWebhookSecret, type DeliveryAttempt } from '../../subgraphs/batch/webhooks';
import { echoProcessor, sampleItems } from './fixtures/echo-processor';
import { waitFor } from '../support/wait';
import { REDIS_URL, describeWithRedis } from '../support/redis';

const RUN_PREFIX = `test:outbox:${process.pid}:${randomBytes(4).toString('hex')}:`;
const SECRET = newWebhookSecret();
const secrets = { secretFor: async () => SECRET };
const policy = { allowPrivateNetworks: true };

/** Answers 503 until `healthy` is set, then 200; records every request. */
async function startReceiver() {
  const requests: { headers: Record<string, string>; body: string }[] = [];
  const state = { healthy: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(state.healthy ? 200 : 503).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, requests, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type Backends = () => Promise<{ first: BatchBackend; second: BatchBackend; close(): Promise<void> }>;

function outboxContract(backends: Backends): void {
  test('a delivery cut short by shutdown mid-retry is finished by the next engine, numbering on, same webhook-id', async () => {
    const receiver = await startReceiver();
    const { first, second, close } = await backends();
    const engineA = new BatchEngine(first, { log: () => undefined });
    const engineB = new BatchEngine(second, { log: () => undefined });
    const logs: string[] = [];
    try {
      await engineA.startWorker({ processChunk: echoProcessor() });
      // A long wait after the first failure: the shutdown comes during it.
      const webhooksA = sendCompletionWebhooks(engineA, { secrets, policy, retry: { baseDelayMs: 600_000, maxDelayMs: 600_000 }, log: (m) => logs.push(m) });
      const job = await engineA.submit('org-a', sampleItems(20), { chunkSize: 10, callbackUrl: receiver.url });
      await waitFor(async () => ((await engineA.get('org-a', job.id))?.deliveries?.length ?? 0) === 1);
      expect(receiver.requests).toHaveLength(1);
      await webhooksA.close();
      expect(logs.join('\n')).toMatch(/cut short by shutdown after 1 attempts/);

      receiver.state.healthy = true;
      const webhooksB = sendCompletionWebhooks(engineB, { secrets, policy, retry: { baseDelayMs: 10, maxDelayMs: 10 }, log: (m) => logs.push(m) });
      await waitFor(() => receiver.requests.length === 2);
      await waitFor(async () => ((await engineB.get('org-a', job.id))?.deliveries?.length ?? 0) === 2);
      const deliveries = (await engineB.get('org-a', job.id))!.deliveries as DeliveryAttempt[];
      expect(deliveries.map((d) => [d.number, d.statusCode])).toEqual([[1, 503], [2, 200]]);
      const [before, after] = receiver.requests;
      expect(after.headers['webhook-id']).toBe(before.headers['webhook-id']);
      expect(after.body).toBe(before.body);
      const verified = new Webhook(SECRET).verify(after.body, after.headers) as { id: string; status: string };
      expect(verified).toMatchObject({ id: job.id, status: 'completed' });

      // Settled: nobody is handed this end again.
      await webhooksB.close();
      const webhooksC = sendCompletionWebhooks(engineA, { secrets, policy, retry: { baseDelayMs: 10, maxDelayMs: 10 } });
      await sleep(1_500);
      expect(receiver.requests).toHaveLength(2);
      await webhooksC.close();
    } finally {
      await engineA.close().catch(() => undefined);
      await engineB.close().catch(() => undefined);
      await close();
      await receiver.close();
    }
  });

  test('a signing secret out of reach (Redis away or stalled) delays the delivery, it does not lose it', async () => {
    const receiver = await startReceiver();
    receiver.state.healthy = true;
    const { first, second, close } = await backends();
    const engine = new BatchEngine(first, { log: () => undefined });
    let refusals = 2;
    const flaky = {
      secretFor: async () => {
        if (refusals-- > 0) throw new Error('Redis is not connected');
        return SECRET;
      },
    };
    const logs: string[] = [];
    try {
      await engine.startWorker({ processChunk: echoProcessor() });
      const webhooks = sendCompletionWebhooks(engine, { secrets: flaky, policy, retry: { baseDelayMs: 10, maxDelayMs: 10 }, log: (m) => logs.push(m) });
      const job = await engine.submit('org-a', sampleItems(20), { chunkSize: 10, callbackUrl: receiver.url });
      await waitFor(() => receiver.requests.length === 1);
      expect(new Webhook(SECRET).verify(receiver.requests[0].body, receiver.requests[0].headers)).toMatchObject({ id: job.id });
      expect(logs.filter((m) => /signing secret of org-a is out of reach/.test(m))).toHaveLength(2);
      await webhooks.close();
    } finally {
      await engine.close().catch(() => undefined);
      // Unused here; on Redis its own connection would outlive the file (and keep the jest worker alive).
      await second.close().catch(() => undefined);
      await close();
      await receiver.close();
    }
  });
}

describe('in process: a second engine on the same backend', () => {
  outboxContract(async () => {
    const backend = createInProcessBatchBackend({ retentionMs: 60_000, retry: { attempts: 3, backoffMs: 10 }, log: () => undefined });
    // Both engines share it; each engine's close() closes it, which is harmless twice.
    return { first: backend, second: backend, close: async () => undefined };
  });
});

describeWithRedis('on Redis: two engines under one key prefix (two API processes)', () => {
  let count = 0;
  const admin = createClient({ url: REDIS_URL });
  beforeAll(() => admin.connect());
  afterAll(async () => {
    await deleteKeysUnder(RUN_PREFIX, admin);
    await admin.close();
  });
  outboxContract(async () => {
    const keyPrefix = `${RUN_PREFIX}${count++}:`;
    const make = () =>
      createRedisBatchBackend({
        url: REDIS_URL,
        keyPrefix,
        retentionMs: 60_000,
        retry: { attempts: 3, backoffMs: 10 },
        lockDurationMs: 2_000,
        stalledIntervalMs: 1_000,
        maxStalledCount: 2,
        endedClaimAfterMs: 500,
        log: () => undefined,
      });
    return { first: await make(), second: await make(), close: async () => undefined };
  });
});
