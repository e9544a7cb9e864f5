/**
 * How long a valuation waits on its record before it is answered unrecorded: on files, as long as a
 * busy disk's fsync can take (FILE_RECORD_TIMEOUT_MS), not the Redis bound. The store's append is
 * replaced by one the test's fake clock answers, so no test waits on a real disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_REDIS_TIMEOUT_MS } from '../../platform/redis-health';
import { FILE_RECORD_TIMEOUT_MS, openValuationRecorder } from '../../subgraphs/common/valuation-recorder';

const CALLER = { organisation: 'org-1', plan: null, requestId: 'req-1' };
const ITEM = { input: { district: 'Chilanzar' }, valuation: { estimate: 78_500, warnings: [] as string[] } };

let dir: string;
let opened: Awaited<ReturnType<typeof openValuationRecorder>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recorder-timeout-'));
  opened = await openValuationRecorder({ kind: 'home', env: { VALUATION_RECORD_DIR: dir }, log: () => undefined });
});
afterEach(() => jest.useRealTimers());
afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Stamps one valuation while the store takes `appendMs` to answer (Infinity: never), on the fake clock. */
async function stampWithSlowStore(appendMs: number, waitMs: number) {
  jest.useFakeTimers();
  const { store } = opened.recorder;
  const append = store.append;
  store.append = () => new Promise((resolve) => (Number.isFinite(appendMs) ? setTimeout(resolve, appendMs) : undefined));
  try {
    const stamped = opened.recorder.stamp(CALLER, [ITEM]);
    await jest.advanceTimersByTimeAsync(waitMs);
    return (await stamped)[0] as { valuationId: string | null; warnings: string[] };
  } finally {
    store.append = append;
  }
}

test('an fsync slower than the Redis bound still records the valuation', async () => {
  const appendMs = 4 * DEFAULT_REDIS_TIMEOUT_MS;
  expect(appendMs).toBeLessThan(FILE_RECORD_TIMEOUT_MS);
  const stamped = await stampWithSlowStore(appendMs, appendMs + 1);
  expect(stamped.valuationId).toMatch(/^val_/);
  expect(stamped.warnings).toEqual([]);
});

test('a disk that does not answer within FILE_RECORD_TIMEOUT_MS: answered without an id, and says so', async () => {
  const stamped = await stampWithSlowStore(Infinity, FILE_RECORD_TIMEOUT_MS + 10);
  expect(stamped.valuationId).toBeNull();
  expect(stamped.warnings).toEqual(['this valuation was not recorded (the record store did not answer): it has no valuation_id; value it again to get one']);
});
