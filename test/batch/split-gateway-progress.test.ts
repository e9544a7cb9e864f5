/**
 * batchProgress in the split deployment (issue 17): a gateway run alone (`node dist/gateway/main.js`,
 * its own process) in front of subgraphs started elsewhere follows a job's progress over the batch
 * engine's Redis bus. The job is submitted through another gateway (the test stack's) and processed by
 * that stack's worker: the split gateway only shares Redis, the keys file and the subgraphs with it.
 */
import { randomBytes } from 'node:crypto';
import { createClient as createGraphqlWsClient, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { ENTRY, startProcess, stopProcess, type StartedProcess } from '../support/processes';
import { REDIS_URL, describeWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { json, startTestStack, type TestStack } from '../support/stack';

const KEY_PREFIX = `test:split-gateway:${process.pid}:${randomBytes(4).toString('hex')}:`;
const INTERNAL_TOKEN = randomBytes(24).toString('base64url');
const PROGRESS = 'subscription($id: ID!) { batchProgress(id: $id) { id status processed total final } }';

describeWithRedis('a split gateway on Redis', () => {
  let stack: TestStack;
  let key: string;
  let split: StartedProcess | undefined;

  /** The split gateway's URL, once it says it listens. */
  async function startSplitGateway(env: Record<string, string>): Promise<string> {
    split = await startProcess(ENTRY.gateway, [], env, /gateway listening on (\S+)/);
    return split.ready;
  }

  beforeAll(async () => {
    stack = await startTestStack({ redisUrl: REDIS_URL, env: { INTERNAL_TOKEN, BATCH_KEY_PREFIX: KEY_PREFIX } });
    key = stack.newKey('enterprise');
  }, 60_000);

  afterAll(async () => {
    await stopProcess(split, 'SIGTERM');
    await stack?.stop();
    await deleteKeysUnder(KEY_PREFIX, REDIS_URL);
  });

  it('a gateway run alone serves batchProgress from Redis: every event of a job another gateway took, to its end', async () => {
    const url = await startSplitGateway({
      PORT: '0',
      REDIS_URL,
      INTERNAL_TOKEN,
      BATCH_KEY_PREFIX: KEY_PREFIX,
      RESIDENTIAL_URL: stack.residential.url,
      LOCATION_URL: stack.location.url,
      VEHICLE_URL: stack.vehicle.url,
      BATCH_URL: stack.batch.url,
      OBSERVATIONS_URL: stack.observations.url,
      VALUATIONS_URL: stack.valuations.url,
    });
    const submitted = await json(await stack.post('/graphql', { query: 'mutation($input: SubmitBatchInput!) { submitBatch(input: $input) { id } }', variables: { input: { items: Array.from({ length: 60 }, (_, i) => ({ address: `Chilonzor tumani, ${i + 1}-kvartal` })), chunkSize: 10 } } }, { 'x-api-key': key }));
    expect(submitted.errors).toBeUndefined();
    const id: string = submitted.data.submitBatch.id;

    const client = createGraphqlWsClient({ url: `${url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': key }, retryAttempts: 0, lazy: true });
    try {
      const events: { id: string; status: string; processed: number; total: number; final: boolean }[] = [];
      const errors = await new Promise<unknown>((resolve) => {
        client.subscribe<{ batchProgress: (typeof events)[number] }>({ query: PROGRESS, variables: { id } }, {
          next: (result: ExecutionResult<{ batchProgress: (typeof events)[number] }>) => (result.errors ? resolve(result.errors) : events.push(result.data!.batchProgress)),
          error: resolve,
          complete: () => resolve(undefined),
        });
      });
      expect(errors).toBeUndefined();
      expect(events.length).toBeGreaterThanOrEqual(1);
      for (let i = 1; i < events.length; i++) expect(events[i].processed).toBeGreaterThanOrEqual(events[i - 1].processed);
      expect(events[events.length - 1]).toEqual({ id, status: 'completed', processed: 60, total: 60, final: true });

      // The organisation boundary holds there too: another organisation's key sees no such job.
      const other = createGraphqlWsClient({ url: `${url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': stack.newKey('standard') }, retryAttempts: 0, lazy: true });
      try {
        const refused = await new Promise<unknown>((resolve) => {
          other.subscribe({ query: PROGRESS, variables: { id } }, { next: (result) => resolve(result.errors), error: resolve, complete: () => resolve(undefined) });
        });
        expect(JSON.stringify(refused)).toMatch(/NOT_FOUND/);
      } finally {
        await other.dispose();
      }
    } finally {
      await client.dispose();
    }
  }, 60_000);
});
