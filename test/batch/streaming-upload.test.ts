/**
 * CSV and NDJSON uploads to POST /api/batch stream into the job: read row by row as they arrive and
 * sent on in parts (openBatch, then appendBatchItems), through the real gateway on the run's Redis
 * (in process without one). The job fills while the file uploads; results come back one line per
 * row, in order; a bad row part-way, the plan's limit or a client that goes away each leave the job
 * ended, never running on with part of a file.
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { plansFileWith } from '../support/plans';
import { UploadBody, uploadPartSize } from '../../gateway/rest/batch';
import { HAS_REDIS, REDIS_URL } from '../support/redis';
import { deleteKeysUnder } from '../support/redis-keys';
import { expectError, json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

const ADDRESSES = ['Chilonzor tumani, 13-kvartal', 'Юнусабад 8-й квартал', 'Куйлюк-5', 'массив Карасу-3', 'Сергели-IV', "Toshkent sh., Mirzo Ulug'bek tumani, Buyuk Ipak Yo'li ko'chasi"];
const ROWS = 25_000;
// Long enough for a part's append on a loaded CI machine plus the pause bulk pacing may add before the
// next one (gateway/http/bulk-pacing.ts, at most 250 ms): at 2 s a CI run failed a job mid-upload as stalled.
const SUBMISSION_TIMEOUT_MS = 6_000;

/** The repository's plans plus one allowing 10 items per job. */
const TINY_PLAN = 'upload-tiny';
const plansFile = plansFileWith({ [TINY_PLAN]: { quota: { perMinute: 1000, perDay: 1000 }, valuations: { perMinute: 1000, perDay: 1000 }, maxBatchItems: 10, batchItemsPerDay: 1000 } });

const keyPrefix = `test-upload-${process.pid}-${Date.now()}:`;
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({
    redisUrl: HAS_REDIS ? REDIS_URL : undefined,
    env: { BATCH_KEY_PREFIX: keyPrefix, PLANS_FILE: plansFile, BATCH_SUBMISSION_TIMEOUT_MS: String(SUBMISSION_TIMEOUT_MS) },
  });
});
afterAll(async () => {
  await stack?.stop();
  if (HAS_REDIS) await deleteKeysUnder(keyPrefix, REDIS_URL);
});

/** Row i of the CSV files: an address (its position in it, so each row is told apart), a home on every 1000th. */
const addressOf = (i: number) => `${ADDRESSES[i % ADDRESSES.length]}, ${i}-uy`;
const csvRow = (i: number) => (i % 1000 === 7 ? `"${addressOf(i)}",65,3,4,9` : `"${addressOf(i)}",,,,`);
const CSV_HEADER = 'address,area,rooms,floor,total_floors';
const ndjsonLine = (i: number) => JSON.stringify(i % 1000 === 7 ? { address: addressOf(i), home: { area: 65, rooms: 3, floor: 4, total_floors: 9 } } : { address: addressOf(i) });

/** A body that streams its lines in slices, waiting at line `pauseAt` (if given) until `resume` settles. */
function streamOf(lines: readonly string[], pause?: { at: number; until: Promise<void> }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next >= lines.length) return controller.close();
      if (pause && next === pause.at) await pause.until;
      const end = Math.min(lines.length, next + 500, pause && next < pause.at ? pause.at : Infinity);
      controller.enqueue(encoder.encode(lines.slice(next, end).map((line) => `${line}\n`).join('')));
      next = end;
    },
  });
}

function upload(apiKey: string, contentType: string, body: string | ReadableStream<Uint8Array>, query = '?chunk_size=1000'): Promise<Response> {
  return stack.fetch(`/api/batch${query}`, { method: 'POST', headers: { 'content-type': contentType, 'x-api-key': apiKey }, body, duplex: 'half' } as RequestInit);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function jobOf(apiKey: string, id: string): Promise<any> {
  const response = await stack.fetch(`/api/batch/${id}`, { headers: { 'x-api-key': apiKey } });
  expect(response.status).toBe(200);
  return json(response);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const untilEnded = (apiKey: string, id: string, timeoutMs = 90_000): Promise<any> => until(() => jobOf(apiKey, id), (job) => ['completed', 'failed', 'cancelled'].includes(job.status), timeoutMs, 250);

/** The organisation's jobs, newest first, through GraphQL (REST has no list). */
async function jobsOf(apiKey: string): Promise<{ id: string; status: string; total: number }[]> {
  const body = await json(await stack.post('/graphql', { query: '{ batchJobs(limit: 100) { jobs { id status total } } }' }, { 'x-api-key': apiKey }));
  return body.data.batchJobs.jobs;
}

/** Every result line of the job, in the order streamed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function resultLines(apiKey: string, id: string): Promise<any[]> {
  const response = await stack.fetch(`/api/batch/${id}/results`, { headers: { 'x-api-key': apiKey } });
  expect(response.status).toBe(200);
  return (await response.text()).trimEnd().split('\n').map((line) => JSON.parse(line));
}

const jobIdIn = (message: string) => /batch job ([0-9a-f-]{36})/.exec(message)?.[1];

describe.each([
  ['CSV', 'text/csv', [CSV_HEADER, ...Array.from({ length: ROWS }, (_, i) => csvRow(i))]],
  ['NDJSON', 'application/x-ndjson', Array.from({ length: ROWS }, (_, i) => ndjsonLine(i))],
] as const)('a %s upload of 25,000 rows in chunks of 1000', (_format, contentType, lines) => {
  it('fills its job while it uploads, answers 202 as before, and every row has its result line, in order', async () => {
    const key = stack.newKey('enterprise');
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    const answer = upload(key, contentType, streamOf(lines, { at: 12_000, until: paused }));
    // Half the file is in: the job exists and holds its first parts (parts of 5000, each held until the next row comes).
    const [early] = await until(() => jobsOf(key), (jobs) => jobs.length === 1 && jobs[0].total === 10_000, 30_000);
    expect(['queued', 'running']).toContain(early.status);
    resume();

    const response = await answer;
    expect(response.status).toBe(202);
    const body = await json(response);
    expect(body).toEqual({ id: early.id, status: 'queued', total: ROWS, created_at: expect.any(String), results_url: `/api/batch/${early.id}/results`, idempotent_replay: false });
    expect(response.headers.get('location')).toBe(`/api/batch/${early.id}`);

    const job = await untilEnded(key, body.id);
    expect(job).toMatchObject({ status: 'completed', total: ROWS, processed: ROWS, chunk_size: 1000 });
    const results = await resultLines(key, body.id);
    expect(results).toHaveLength(ROWS);
    expect(results.map((line) => line.index)).toEqual(Array.from({ length: ROWS }, (_, i) => i));
    const misplaced = results.filter((line) => line.ok && line.result.address !== addressOf(line.index));
    expect(misplaced).toEqual([]);
    expect(results[12_007].result.home.estimate).toBeGreaterThan(10_000);
  }, 180_000);

  it('a bad row in the middle: 400 naming the row and the job, which is cancelled', async () => {
    const key = stack.newKey('enterprise');
    const bad = [...lines];
    const row = 12_345; // items[12345]
    const at = contentType === 'text/csv' ? row + 1 : row;
    bad[at] = contentType === 'text/csv' ? `"${addressOf(row)}",big,3,4,9` : '{"address": "Куйлюк-5", "home": {"area": "big"}';
    const error = await expectError(await upload(key, contentType, bad.join('\n')), 400, contentType === 'text/csv' ? 'INVALID_PARAMETER' : 'INVALID_JSON', contentType === 'text/csv' ? `items[${row}].home.area` : `items[${row}]`);
    const id = jobIdIn(error.message);
    expect(id).toBeDefined();
    expect(error.message).toMatch(/cancelled/);
    const job = await jobOf(key, id!);
    expect(job.status).toBe('cancelled');
    expect(job.total).toBeLessThan(row);
    expect(await jobsOf(key)).toEqual([expect.objectContaining({ id, status: 'cancelled' })]);
  }, 60_000);

  it('a bad row in the first part: 400 as before, and no job at all', async () => {
    const key = stack.newKey('enterprise');
    const bad = [...lines];
    bad[contentType === 'text/csv' ? 4001 : 4000] = contentType === 'text/csv' ? `"${addressOf(4000)}",65,99,4,9` : '{"home": {}}';
    const error = await expectError(await upload(key, contentType, bad.join('\n')), 400, contentType === 'text/csv' ? 'INVALID_PARAMETER' : 'MISSING_PARAMETER', contentType === 'text/csv' ? 'items[4000].home.rooms' : 'items[4000].address');
    expect(jobIdIn(error.message)).toBeUndefined();
    expect(await jobsOf(key)).toEqual([]);
  });
});

it("more rows than the plan's maxBatchItems: 400 on items naming the limit, and the job failed", async () => {
  const key = stack.newKey(TINY_PLAN);
  const csv = [CSV_HEADER, ...Array.from({ length: 25 }, (_, i) => csvRow(i))].join('\n');
  const error = await expectError(await upload(key, 'text/csv', csv, '?chunk_size=5'), 400, 'INVALID_PARAMETER', 'items');
  expect(error.message).toMatch(/at most 10 items per batch/);
  const id = jobIdIn(error.message);
  expect(id).toBeDefined();
  expect(await jobOf(key, id!)).toMatchObject({ status: 'failed', total: 0, error: expect.stringMatching(/limit of 10 items/) });
});

it('an empty file or a header alone creates no job: 400 as before', async () => {
  const key = stack.newKey('enterprise');
  await expectError(await upload(key, 'text/csv', ''), 400, 'MISSING_PARAMETER', 'address');
  await expectError(await upload(key, 'text/csv', `${CSV_HEADER}\n`), 400, 'MISSING_PARAMETER', 'items');
  await expectError(await upload(key, 'application/x-ndjson', '\n\n'), 400, 'MISSING_PARAMETER', 'items');
  await expectError(await upload(key, 'text/csv', `${CSV_HEADER},phone\n"${addressOf(0)}",,,,,1`), 400, 'PERSONAL_DATA_NOT_ACCEPTED', 'phone');
  await expectError(await upload(key, 'text/csv', `${CSV_HEADER}\n"${addressOf(0)}",,,,`, '?chunk_size=0'), 400, 'INVALID_PARAMETER', 'chunk_size');
  await expectError(await upload(key, 'text/csv', `${CSV_HEADER}\n"${addressOf(0)}",,,,`, '?callback_url=ftp://example.com/hook'), 400, 'INVALID_PARAMETER', 'callback_url');
  expect(await jobsOf(key)).toEqual([]);
});

it('a client that disconnects mid-upload leaves its job to the stalled-submission sweep, which fails it', async () => {
  const key = stack.newKey('enterprise');
  const { hostname, port } = new URL(stack.url);
  const request = httpRequest({ hostname, port, path: '/api/batch?chunk_size=1000', method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': key, 'transfer-encoding': 'chunked' } });
  request.on('error', () => undefined); // the socket is destroyed below
  request.write(`${CSV_HEADER}\n${Array.from({ length: 7_000 }, (_, i) => csvRow(i)).join('\n')}\n`);
  const [job] = await until(() => jobsOf(key), (jobs) => jobs.length === 1 && jobs[0].total === 5_000, 30_000);
  request.destroy();
  const failed = await until(() => jobOf(key, job.id), (read) => read.status === 'failed', SUBMISSION_TIMEOUT_MS * 10, 200);
  expect(failed).toMatchObject({ total: 5_000, error: expect.stringMatching(/cut off after 5000 items/) });
}, 60_000);

it('a file declared larger than the upload limit (1 GB): 413 before a byte of it is read', async () => {
  const key = stack.newKey('enterprise');
  const { hostname, port } = new URL(stack.url);
  const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest({ hostname, port, path: '/api/batch', method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': key, 'content-length': String(2 * 1024 ** 3) } }, (reply) => {
      let text = '';
      reply.on('data', (chunk: Buffer) => (text += chunk));
      reply.on('end', () => resolve({ status: reply.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.write(`${CSV_HEADER}\n`);
  });
  expect(response.status).toBe(413);
  expect(JSON.parse(response.body).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringMatching(/1024 MB/) });
  expect(await jobsOf(key)).toEqual([]);
});

describe('UploadBody', () => {
  /** A request stand-in: a stream of bytes with `complete` set once it has ended. */
  function fakeRequest(): PassThrough & { complete: boolean } {
    const stream = Object.assign(new PassThrough(), { complete: false, headers: {} });
    stream.on('end', () => (stream.complete = true));
    return stream;
  }

  it('passes the bytes through, counted, and fails with 413 once past the limit', async () => {
    const raw = fakeRequest();
    const body = new UploadBody(raw as unknown as IncomingMessage, 10);
    const read = (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of body.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString();
    })();
    raw.write('12345');
    raw.write('67890');
    raw.write('x');
    await expect(read).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(body.discardRest()).toBe('close');
  });

  it('after a refusal, reads the rest of the body and drops it', async () => {
    const raw = fakeRequest();
    const body = new UploadBody(raw as unknown as IncomingMessage, 100);
    expect(body.discardRest()).toBe('keep');
    raw.end('a'.repeat(50));
    await new Promise((resolve) => raw.once('end', resolve));
    expect(raw.complete).toBe(true);
  });

  it('tells a client that went away from a body that ended', async () => {
    const raw = fakeRequest();
    const body = new UploadBody(raw as unknown as IncomingMessage, 100);
    const read = (async () => {
      for await (const chunk of body.stream) void chunk;
    })();
    raw.write('abc');
    raw.destroy();
    await expect(read).rejects.toThrow(/closed before the upload ended/);
    expect(body.clientGone).toBe(true);
  });
});

it('parts are whole chunks of about 5000 items', () => {
  expect([1, 3, 1000, 3000, 7000, 10_000].map(uploadPartSize)).toEqual([5000, 4998, 5000, 3000, 7000, 10_000]);
});
