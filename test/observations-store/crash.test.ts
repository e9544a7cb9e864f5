/**
 * A process killed (SIGKILL) while it appends: every call it was told had succeeded is there in
 * full, and no part of any other. A child (fixtures/append-loop.ts) appends calls of 500 records
 * in a loop and prints each acknowledged call; the test kills it, reopens the store and counts.
 * Three rounds on the same store, each child opening (and, for files, repairing) what the killed
 * one left.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createObservationRedisClient,
  FileObservationStore,
  RedisObservationStore,
  type ObservationStore,
} from '../../subgraphs/common/observation-store';
import { startProcess, stopProcess, type StartedProcess } from '../support/processes';
import { REDIS_URL, describeWithRedis } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { waitFor } from '../support/wait';

const APPEND_LOOP = join(__dirname, 'fixtures', 'append-loop.js');
const RECORDS_PER_CALL = 500;
const ORG = 'bank/1';
const ROUNDS = 3;

interface Ack {
  call: number;
  revision: number;
}

function acksIn(output: string): Ack[] {
  return [...output.matchAll(/^acked (\d+) (\d+)$/gm)].map((match) => ({ call: Number(match[1]), revision: Number(match[2]) }));
}

/**
 * Runs ROUNDS children against the store `env` names, killing each after `killAfter(round)` acks,
 * and checks the store `reopen()` gives after each kill.
 */
async function killMidAppendAndCount(env: Record<string, string>, reopen: () => Promise<ObservationStore>): Promise<void> {
  let children: StartedProcess | undefined;
  let revisionBefore = 0;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      children = await startProcess(APPEND_LOOP, [], { ...env, ROUND: String(round), ORG, RECORDS: String(RECORDS_PER_CALL) }, /^ready$/m);
      const child = children;
      const killAt = 4 + 5 * round;
      await waitFor(() => acksIn(child.output()).length >= killAt, 30_000);
      await stopProcess(child, 'SIGKILL');
      const acked = acksIn(child.output());
      expect(acked.length).toBeGreaterThanOrEqual(killAt);
      expect(child.child.signalCode).toBe('SIGKILL');

      const store = await reopen();
      try {
        const records = await store.list(ORG, 'home');
        const callsOfRound = new Map<number, number[]>();
        for (const record of records) {
          const input = record.input as { round: string; call: number; index: number };
          if (input.round !== String(round)) continue;
          const indexes = callsOfRound.get(input.call) ?? [];
          indexes.push(input.index);
          callsOfRound.set(input.call, indexes);
        }
        const calls = [...callsOfRound.keys()].sort((a, b) => a - b);
        const lastAcked = acked[acked.length - 1].call;
        // Every acknowledged call, and at most the one call in flight when the kill came, which may have landed.
        expect(calls).toEqual(Array.from({ length: calls.length }, (_, i) => i + 1));
        expect(calls.length === lastAcked || calls.length === lastAcked + 1).toBe(true);
        // Each one whole: 500 records, indexes 0 … 499 once each.
        for (const call of calls) {
          expect({ call, indexes: callsOfRound.get(call)!.sort((a, b) => a - b) }).toEqual({ call, indexes: Array.from({ length: RECORDS_PER_CALL }, (_, i) => i) });
        }
        // Revisions: one per call, on from the previous round; the acknowledged ones were returned in order.
        expect(acked.map((ack) => ack.revision)).toEqual(acked.map((ack) => revisionBefore + ack.call));
        const revision = await store.revision(ORG, 'home');
        expect(revision).toBe(revisionBefore + calls.length);
        revisionBefore = revision;
      } finally {
        await store.close();
      }
    }
    const store = await reopen();
    expect(await store.list(ORG, 'home')).toHaveLength(revisionBefore * RECORDS_PER_CALL);
    await store.close();
  } finally {
    await stopProcess(children);
  }
}

test('a process killed mid-append, file store: every acknowledged call is there in full after the kill; no partial call is', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'observations-crash-'));
  const directory = join(dir, 'store');
  try {
    await killMidAppendAndCount({ STORE: 'file', OBSERVATION_DIR: directory }, () => FileObservationStore.open({ directory, log: () => undefined }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describeWithRedis('a process killed mid-append: Redis store', () => {
  const keyPrefix = `test:observations-crash:${process.pid}:${randomBytes(4).toString('hex')}:`;
  afterAll(() => deleteKeysUnder(keyPrefix, REDIS_URL));

  test('every acknowledged call is there in full after the kill; no partial call is (one MULTI each)', async () => {
    await killMidAppendAndCount({ STORE: 'redis', REDIS_URL, OBSERVATION_KEY_PREFIX: keyPrefix }, async () => {
      const client = createObservationRedisClient(REDIS_URL);
      await client.connect();
      return new RedisObservationStore(client, { keyPrefix, onClose: () => client.close() });
    });
  });
});
