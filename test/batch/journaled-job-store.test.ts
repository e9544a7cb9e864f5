/**
 * The embedded mode's jobs outlive a restart (issue 35, item 3): a JournaledJobStore reopened on
 * its file has the same jobs, counters, timestamps, results and webhook deliveries; a job the
 * restart cut off is failed, saying why; the file is compacted (expired jobs gone, ended jobs'
 * items kept as counts); a torn last line is skipped.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTERRUPTED_BY_RESTART, JournaledJobStore } from '../../platform/batch-engine/journaled-job-store';
import type { ItemResult } from '../../platform/batch-engine';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
  file = join(dir, 'batch', 'jobs.ndjson');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const results = (from: number, n: number): ItemResult[] => Array.from({ length: n }, (_, i) => ({ index: from + i, reference: `L-${from + i}`, ok: true, result: { address: `a${from + i}` } }));
const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

test('a completed job, its results and deliveries read the same after a reopen; a running one is failed saying why', async () => {
  const logs: string[] = [];
  const first = await JournaledJobStore.open(file, { retentionMs: 60_000 });
  await first.create({ id: 'done', organisation: 'bank', chunkSize: 2, callbackUrl: 'https://bank.example/hook' });
  await first.appendInput('done', 0, [{ address: 'portfolio-0' }, { address: 'portfolio-1' }]);
  await first.appendInput('done', 1, [{ address: 'portfolio-2' }]);
  await first.seal('done');
  await first.recordChunk('done', 0, results(0, 2));
  await first.recordChunk('done', 1, results(2, 1));
  await first.appendDelivery('done', { number: 1, statusCode: 200 });
  await first.create({ id: 'cut', organisation: 'bank', chunkSize: 2 });
  await first.appendInput('cut', 0, [{ address: 'b0' }, { address: 'b1' }]);
  await first.seal('cut');
  const before = await first.get('done');
  await first.close();

  const second = await JournaledJobStore.open(file, { retentionMs: 60_000, log: (m) => logs.push(m) });
  expect(await second.get('done')).toEqual(before);
  expect((await second.get('done'))).toMatchObject({ status: 'completed', total: 3, processed: 3, succeeded: 3 });
  expect(await collect(second.streamResults('done'))).toEqual(results(0, 3));
  expect((await second.get('cut'))).toMatchObject({ status: 'failed', error: INTERRUPTED_BY_RESTART, total: 2, processed: 0 });
  expect(logs.join('\n')).toMatch(/1 batch job\(s\) still running when the service stopped were failed/);
  expect((await second.listByOrganisation('bank', 0, 10)).jobs.map((j) => j.id)).toEqual(['cut', 'done']);
  // Compacted: the ended jobs' portfolios are counts now, not the addresses.
  expect(readFileSync(file, 'utf8')).not.toContain('portfolio-1');
  await second.close();

  // And a third open reads the compacted file to the same state (nothing failed twice).
  const third = await JournaledJobStore.open(file, { retentionMs: 60_000 });
  expect(await third.get('done')).toEqual(before);
  expect((await third.get('cut'))?.status).toBe('failed');
  await third.close();
});

test('a torn last line is skipped with a word; an expired job is gone after a reopen', async () => {
  const first = await JournaledJobStore.open(file, { retentionMs: 0 });
  await first.create({ id: 'old', organisation: 'bank', chunkSize: 1 });
  await first.seal('old'); // no items: completes at once
  await first.close();
  appendFileSync(file, '{"op":"create","at":1,"job":{"id":"torn"');
  const logs: string[] = [];
  const second = await JournaledJobStore.open(file, { retentionMs: 0, log: (m) => logs.push(m) }); // ended jobs expire at once
  expect(await second.get('old')).toBeUndefined();
  expect(logs.join('\n')).toMatch(/is not JSON \(a write cut short\) and is skipped/);
  expect(readFileSync(file, 'utf8')).toBe('');
  await second.close();
});
