/**
 * Batch jobs over GraphQL, through the real gateway: submit, poll, page the results, the
 * organisation boundary, cancel, the plan's limit and the signed completion webhook, and a job
 * filled in several calls (openBatch, appendBatchItems). Runs on the in-process engine and on Redis.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { plansFileWith } from '../support/plans';
import { describeInProcessAndOnRedis } from '../support/redis';
import { json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

/** Addresses the geocoder places inside the city (test/models/geocode.test.ts has most of them). */
const ADDRESSES = [
  'город Ташкент, Мирабадский район, махаллинский сход граждан Инокобод, улица Хамал',
  'Chilonzor tumani, 13-kvartal',
  'Юнусабад 8-й квартал',
  'Yunusobod 8 kvartal',
  "Toshkent sh., Mirzo Ulug'bek tumani, Buyuk Ipak Yo'li ko'chasi",
  "Toshkent sh., Mirzo Ulug'bek tumani, ...",
  'Тошкент шаҳри, Юнусобод тумани, 8-мавзе',
  'город Ташкент, Yunusobod район, Юнусабад 8-й квартал',
  'город Ташкент, Yakkasaroy район, 1-й тупик Шота Руставели',
  'Tashkent, Yakkasarai district, Street Shota Rustaveli',
  'Chilonzor 13-kvartal',
  'Куйлюк-5',
  'массив Карасу-3',
  'ТТЗ',
  'Сергели-IV',
  'город Ташкент, Юнусабадский район, махаллинский сход граждан Отчопар-1, Шахристанская улица',
];
const GARBAGE = ['qwzx blorf', 'Самарканд, улица Навои'];
const HOME = { area: 65, rooms: 3, floor: 4, totalFloors: 9, renovation: 'Evro', buildingType: "G'ishtli", furniture: true, bathroom: 'alohida' };
const HOME_POSITIONS = new Set([0, 7, 21, 33]);
const GARBAGE_POSITIONS = new Map([
  [10, GARBAGE[0]],
  [40, GARBAGE[1]],
]);

/** 50 items: 48 real addresses (4 with a home), 2 garbage ones. */
function portfolio(): { address: string; home?: Record<string, unknown> }[] {
  let next = 0;
  return Array.from({ length: 50 }, (_, i) => {
    const garbage = GARBAGE_POSITIONS.get(i);
    if (garbage) return { address: garbage };
    const address = ADDRESSES[next++ % ADDRESSES.length];
    return HOME_POSITIONS.has(i) ? { address, home: HOME } : { address };
  });
}

const JOB_FIELDS = 'id status total processed succeeded failed createdAt startedAt completedAt callbackUrl resultsUrl deliveries { number at statusCode error durationMs }';

/** The repository's plans plus a tiny one: 10 items per job, 15 batch items a day. */
const TINY_PLAN = 'batch-tiny';
const plansFile = plansFileWith({ [TINY_PLAN]: { quota: { perMinute: 1000, perDay: 1000 }, valuations: { perMinute: 1000, perDay: 1000 }, maxBatchItems: 10, batchItemsPerDay: 15 } });

describeInProcessAndOnRedis('batch jobs over GraphQL, engine %s', ['in process', 'on Redis'], (redisUrl) => {
  let stack: TestStack;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    stack = await startTestStack({
      redisUrl,
      env: { BATCH_CALLBACK_ALLOW_PRIVATE: '1', BATCH_WEBHOOK_BASE_DELAY_MS: '200', BATCH_KEY_PREFIX: `test-batch-${process.pid}-${Date.now()}:`, PLANS_FILE: plansFile },
    });
    key = stack.newKey('enterprise');
    otherKey = stack.newKey('standard');
  });
  afterAll(() => stack?.stop());

  const gql = async (query: string, variables: Record<string, unknown> = {}, apiKey = key) => json(await stack.post('/graphql', { query, variables }, { 'x-api-key': apiKey }));

  async function submit(input: Record<string, unknown>, apiKey = key) {
    return gql(`mutation($input: SubmitBatchInput!) { submitBatch(input: $input) { ${JOB_FIELDS} } }`, { input }, apiKey);
  }

  async function job(id: string, apiKey = key) {
    const body = await gql(`query($id: ID!) { batchJob(id: $id) { ${JOB_FIELDS} } }`, { id }, apiKey);
    expect(body.errors).toBeUndefined();
    return body.data.batchJob;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const ended = (j: any) => ['completed', 'failed', 'cancelled'].includes(j.status);

  it('values 50 addresses: 48 results, 2 failures, paged in order', async () => {
    const submitted = await submit({ items: portfolio(), chunkSize: 16 });
    expect(submitted.errors).toBeUndefined();
    const { id } = submitted.data.submitBatch;
    expect(submitted.data.submitBatch).toMatchObject({ total: 50, resultsUrl: `/api/batch/${id}/results`, callbackUrl: null });
    expect(['queued', 'running', 'completed']).toContain(submitted.data.submitBatch.status);

    const done = await until(() => job(id), ended);
    expect(done).toMatchObject({ status: 'completed', total: 50, processed: 50, succeeded: 48, failed: 2, deliveries: [] });
    expect(done.startedAt).toBeTruthy();
    expect(done.completedAt).toBeTruthy();

    const items = [];
    const offsets = [];
    for (let offset: number | null = 0; offset !== null; ) {
      offsets.push(offset);
      const body = await gql('query($id: ID!, $o: Int) { batchResults(id: $id, offset: $o, limit: 20) { items { index ok result error { code message } } nextOffset } }', { id, o: offset });
      expect(body.errors).toBeUndefined();
      items.push(...body.data.batchResults.items);
      offset = body.data.batchResults.nextOffset;
    }
    expect(offsets).toEqual([0, 20, 40]);
    expect(items.map((item) => item.index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const inputs = portfolio();
    for (const item of items) {
      if (GARBAGE_POSITIONS.has(item.index)) {
        expect(item.ok).toBe(false);
        expect(item.result).toBeNull();
        expect(['UNRESOLVABLE_ADDRESS', 'OUTSIDE_TASHKENT']).toContain(item.error.code);
        expect(item.error.message).toBeTruthy();
        continue;
      }
      expect(item).toMatchObject({ ok: true, error: null });
      const { result } = item;
      expect(result.address).toBe(inputs[item.index].address);
      expect(result.geocode).toMatchObject({ lat: expect.any(Number), lon: expect.any(Number), precision: expect.any(String), district: expect.any(String) });
      expect(result.locationIndex.composite).toBeGreaterThanOrEqual(0);
      expect(result.locationIndex.composite).toBeLessThanOrEqual(100);
      if (HOME_POSITIONS.has(item.index)) {
        expect(result.home.estimate).toBeGreaterThan(10_000);
        expect(result.home.currency).toBe('USD');
        expect(result.home.interval.low).toBeLessThanOrEqual(result.home.estimate);
      } else {
        expect(result.home).toBeUndefined();
      }
    }
    // The mahalla of the geocode reaches the valuation (position 0 names Inokobod).
    expect(items[0].result.geocode.mahalla).toBeTruthy();

    const listed = await gql('{ batchJobs(limit: 100) { jobs { id status deliveries { number } } nextOffset } }');
    expect(listed.data.batchJobs.jobs.map((j: { id: string }) => j.id)).toContain(id);
  });

  it("another organisation sees nothing of the job and cannot cancel it", async () => {
    const { data } = await submit({ items: [{ address: ADDRESSES[0] }] });
    const { id } = data.submitBatch;
    expect(await job(id, otherKey)).toBeNull();
    const results = await gql('query($id: ID!) { batchResults(id: $id) { items { index } } }', { id }, otherKey);
    expect(results.data).toBeNull();
    expect(results.errors[0].extensions.code).toBe('NOT_FOUND');
    const cancel = await gql('mutation($id: ID!) { cancelBatch(id: $id) { status } }', { id }, otherKey);
    expect(cancel.errors[0].extensions.code).toBe('NOT_FOUND');
    const listed = await gql('{ batchJobs { jobs { id } } }', {}, otherKey);
    expect(listed.data.batchJobs.jobs.map((j: { id: string }) => j.id)).not.toContain(id);
    expect((await until(() => job(id), ended)).status).toBe('completed');
  });

  it('the batch subgraph refuses batch operations without an organisation', async () => {
    const response = await fetch(stack.batch.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': stack.internalToken },
      body: JSON.stringify({ query: '{ batchJobs { jobs { id } } }' }),
    });
    const body = await json(response);
    expect(body.errors[0].extensions.code).toBe('INVALID_API_KEY');
  });

  it('cancelling a running job ends it cancelled, with items left unprocessed', async () => {
    // The plan's largest job, cancelled as soon as it is accepted (the workers take it at once): with
    // their geocodes cached, 2,000 items could all be done while the test waited to see it running.
    const items = Array.from({ length: 10_000 }, (_, i) => ({ address: ADDRESSES[i % ADDRESSES.length], home: HOME }));
    const { data, errors } = await submit({ items, chunkSize: 20 });
    expect(errors).toBeUndefined();
    const { id } = data.submitBatch;
    const cancelled = await gql('mutation($id: ID!) { cancelBatch(id: $id) { status } }', { id });
    expect(cancelled.data.cancelBatch.status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await job(id);
    expect(after.status).toBe('cancelled');
    expect(after.completedAt).toBeTruthy();
    expect(after.processed).toBeLessThan(items.length);
  });

  it("over the plan's maxBatchItems: INVALID_PARAMETER on items; a bad callback URL: INVALID_PARAMETER on callback_url", async () => {
    const pilot = stack.newKey('pilot');
    const tooMany = await submit({ items: Array.from({ length: 10_001 }, () => ({ address: 'x' })) }, pilot);
    expect(tooMany.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'items' });
    expect(tooMany.errors[0].message).toMatch(/10000/);
    const badUrl = await submit({ items: [{ address: ADDRESSES[0] }], callbackUrl: 'ftp://example.com/hook' });
    expect(badUrl.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'callback_url' });
  });

  it('checks every item at submission as REST does: one bad item next to a good one refuses the submission whole, and no job is made', async () => {
    const fresh = stack.newKey('enterprise'); // an organisation without jobs
    const good = { address: ADDRESSES[0], reference: 'LOAN-1', home: HOME };
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['no address', { address: '' }, 'MISSING_PARAMETER', 'items[1].address'],
      ['an area out of range', { address: ADDRESSES[1], home: { ...HOME, area: 5 } }, 'INVALID_PARAMETER', 'items[1].home.area'],
      // A field of two words is named in REST's words, as every subgraph names fields.
      ['storeys out of range', { address: ADDRESSES[1], home: { ...HOME, totalFloors: 100 } }, 'INVALID_PARAMETER', 'items[1].home.total_floors'],
      ['rooms not a whole number', { address: ADDRESSES[1], home: { ...HOME, rooms: 2.5 } }, 'INVALID_PARAMETER', 'items[1].home.rooms'],
      ['a district, which the geocode gives', { address: ADDRESSES[1], home: { ...HOME, district: 'Chilanzar' } }, 'INVALID_PARAMETER', 'items[1].home.district'],
      ["REST's name for a field", { address: ADDRESSES[1], home: { area: 65, rooms: 3, floor: 4, total_floors: 9 } }, 'INVALID_PARAMETER', 'items[1].home.total_floors'],
      ['a currency that is none', { address: ADDRESSES[1], home: { ...HOME, currency: 'EUR' } }, 'INVALID_PARAMETER', 'items[1].home.currency'],
      ['a personal data field', { address: ADDRESSES[1], home: { ...HOME, phone: '+998901234567' } }, 'PERSONAL_DATA_NOT_ACCEPTED', 'items[1].home.phone'],
      ['a phone number for a reference', { address: ADDRESSES[1], reference: '+998 90 123 45 67' }, 'PERSONAL_DATA_NOT_ACCEPTED', 'items[1].reference'],
    ];
    const refusals = [];
    for (const [what, bad] of cases) {
      const body = await submit({ items: [good, bad] }, fresh);
      const error = body.errors?.[0]?.extensions;
      refusals.push([what, body.data?.submitBatch ?? null, error && { code: error.code, field: error.field }]);
    }
    expect(refusals).toEqual(cases.map(([what, , code, field]) => [what, null, { code, field }]));
    expect((await gql('{ batchJobs { jobs { id } } }', {}, fresh)).data.batchJobs.jobs).toEqual([]);
    // The good item alone is taken.
    expect((await submit({ items: [good] }, fresh)).data.submitBatch.total).toBe(1);
  });

  it('a word the service does not know is no refusal: the home is valued without it, with the warning in its result (issue 35)', async () => {
    const home = { ...HOME, renovation: 'xyzzy', buildingType: 'kartonniy', furniture: 'qisman', bathroom: 'uchta' };
    const { data, errors } = await submit({ items: [{ address: ADDRESSES[3], home }] });
    expect(errors).toBeUndefined();
    const { id } = data.submitBatch;
    expect(await until(() => job(id), ended)).toMatchObject({ status: 'completed', succeeded: 1 });
    const results = await gql('query($id: ID!) { batchResults(id: $id) { items { ok result error { code message } } } }', { id });
    const [item] = results.data.batchResults.items;
    expect(item).toMatchObject({ ok: true, error: null });
    expect(item.result.home.warnings).toEqual(expect.arrayContaining([
      expect.stringMatching(/^home\.furniture "qisman" is not recognised and was ignored; accepted: yes\/no/),
      expect.stringMatching(/^renovation "xyzzy" is not recognised and was ignored/),
      expect.stringMatching(/"kartonniy" is not recognised and was ignored/),
      expect.stringMatching(/"uchta" is not recognised and was ignored/),
    ]));
  });

  describe('a job filled in several calls: openBatch, then appendBatchItems', () => {
    const open = (input: Record<string, unknown>, apiKey = key) => gql(`mutation($input: OpenBatchInput!) { openBatch(input: $input) { ${JOB_FIELDS} chunkSize } }`, { input }, apiKey);
    const append = (id: string, items: unknown[], last: boolean, apiKey = key) =>
      gql(`mutation($id: ID!, $items: [BatchItemInput!]!, $last: Boolean!) { appendBatchItems(id: $id, items: $items, last: $last) { ${JOB_FIELDS} error } }`, { id, items, last }, apiKey);

    it('values the parts as one job, in order, once the last one has come', async () => {
      const opened = await open({ chunkSize: 10 });
      expect(opened.errors).toBeUndefined();
      const { id } = opened.data.openBatch;
      expect(opened.data.openBatch).toMatchObject({ status: 'queued', total: 0, chunkSize: 10, callbackUrl: null, resultsUrl: `/api/batch/${id}/results` });
      const items = portfolio();
      const first = await append(id, items.slice(0, 20), false);
      expect(first.errors).toBeUndefined();
      expect(first.data.appendBatchItems.total).toBe(20);
      expect((await append(id, items.slice(20, 40), false)).data.appendBatchItems.total).toBe(40);
      expect((await append(id, items.slice(40), true)).data.appendBatchItems.total).toBe(50);

      const done = await until(() => job(id), ended);
      expect(done).toMatchObject({ status: 'completed', total: 50, processed: 50, succeeded: 48, failed: 2 });
      const results = await gql('query($id: ID!) { batchResults(id: $id, limit: 100) { items { index ok result } } }', { id });
      expect(results.data.batchResults.items.map((item: { index: number }) => item.index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(results.data.batchResults.items[33].result.address).toBe(items[33].address);
      expect(results.data.batchResults.items[33].result.home.estimate).toBeGreaterThan(10_000);
    });

    it('refuses parts that are not whole chunks, for a sealed job, and for another organisation', async () => {
      const { id } = (await open({ chunkSize: 10 })).data.openBatch;
      const ragged = await append(id, portfolio().slice(0, 15), false);
      expect(ragged.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'items' });
      expect(ragged.errors[0].message).toMatch(/multiple of the job's chunk size \(10\)/);
      const foreign = await append(id, portfolio().slice(0, 10), false, otherKey);
      expect(foreign.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
      expect((await append('no-such-job', [{ address: ADDRESSES[0] }], true)).errors[0].extensions.code).toBe('NOT_FOUND');
      expect((await append(id, portfolio().slice(0, 3), true)).data.appendBatchItems.total).toBe(3);
      const late = await append(id, portfolio().slice(0, 1), true);
      expect(late.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'id' });
      expect(late.errors[0].message).toMatch(/takes no more items/);
      expect((await until(() => job(id), ended)).total).toBe(3);

      expect((await open({ callbackUrl: 'ftp://example.com/hook' })).errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'callback_url' });
      expect((await open({ chunkSize: 0 })).errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'chunkSize' });
      // Cancelled while open: later parts are refused.
      const cancelled = (await open({})).data.openBatch.id;
      await gql('mutation($id: ID!) { cancelBatch(id: $id) { status } }', { id: cancelled });
      expect((await append(cancelled, [{ address: ADDRESSES[0] }], true)).errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'id' });
    });

    it('refuses a part with a bad item whole, naming it by its place in the call: nothing of it is stored, and the job takes it corrected', async () => {
      const { id } = (await open({ chunkSize: 2 })).data.openBatch;
      expect((await append(id, [{ address: ADDRESSES[0] }, { address: ADDRESSES[1] }], false)).data.appendBatchItems.total).toBe(2);
      const part = [{ address: ADDRESSES[2] }, { address: ADDRESSES[3], home: { ...HOME, area: 5 } }];
      const refused = await append(id, part, true);
      expect(refused.data).toBeNull();
      expect(refused.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'items[1].home.area' });
      const after = await job(id);
      expect([after.total, ['queued', 'running'].includes(after.status)]).toEqual([2, true]);
      expect((await append(id, [part[0], { ...part[1], home: HOME }], true)).data.appendBatchItems.total).toBe(4);
      expect(await until(() => job(id), ended)).toMatchObject({ status: 'completed', total: 4, succeeded: 4 });
    });

    it("past the plan's maxBatchItems in all, the job is failed and the part refused on items", async () => {
      const tiny = stack.newKey(TINY_PLAN);
      const { id } = (await open({ chunkSize: 5 }, tiny)).data.openBatch;
      expect((await append(id, portfolio().slice(0, 10), false, tiny)).data.appendBatchItems.total).toBe(10);
      const over = await append(id, portfolio().slice(10, 15), true, tiny);
      expect(over.errors[0].extensions).toMatchObject({ code: 'INVALID_PARAMETER', field: 'items' });
      expect(over.errors[0].message).toMatch(new RegExp(`${TINY_PLAN} plan allows at most 10 items per batch .*${id}.*failed`));
      expect(await job(id, tiny)).toMatchObject({ status: 'failed', total: 10 });
      expect((await gql('query($id: ID!) { batchJob(id: $id) { error } }', { id }, tiny)).data.batchJob.error).toMatch(/limit of 10 items/);
    });

    it("each part's items are charged to the plan's batch items per day", async () => {
      const tiny = stack.newKey(TINY_PLAN);
      const first = (await open({ chunkSize: 5 }, tiny)).data.openBatch.id;
      expect((await append(first, portfolio().slice(0, 10), true, tiny)).errors).toBeUndefined();
      const second = (await open({ chunkSize: 5 }, tiny)).data.openBatch.id;
      // 10 + 10 > the 15 a day: refused before anything is stored.
      const refused = await append(second, portfolio().slice(0, 10), true, tiny);
      expect(refused.errors[0].extensions.code).toBe('RATE_LIMITED');
      expect(refused.errors[0].message).toMatch(/15 batch items per day/);
      expect(await job(second, tiny)).toMatchObject({ total: 0 });
      await gql('mutation($id: ID!) { cancelBatch(id: $id) { status } }', { id: second }, tiny);
    });
  });

  describe('completion webhook', () => {
    let server: Server;
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    let url = '';

    beforeAll(async () => {
      server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
          response.statusCode = received.length === 1 ? 500 : 204;
          response.end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/batch`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('is signed with the organisation secret, retried after a 500, and both attempts show on the job', async () => {
      const { data, errors } = await submit({ items: portfolio().slice(0, 12), callbackUrl: url });
      expect(errors).toBeUndefined();
      const { id } = data.submitBatch;
      const done = await until(() => job(id), (j) => ended(j) && j.deliveries.length >= 2);
      expect(done.deliveries.map((d: { number: number; statusCode: number | null }) => [d.number, d.statusCode])).toEqual([
        [1, 500],
        [2, 204],
      ]);
      expect(done.deliveries[1]).toMatchObject({ error: null, durationMs: expect.any(Number), at: expect.any(String) });

      expect(received).toHaveLength(2);
      // The receiver's secret, as the organisation reads it.
      const secretOf = async (apiKey: string) => (await gql('{ batchWebhookSecret }', {}, apiKey)).data.batchWebhookSecret as string;
      const secret = await secretOf(key);
      expect(secret).toMatch(/^whsec_/);
      const verifier = new Webhook(secret);
      for (const delivery of received) {
        const payload = verifier.verify(delivery.body, delivery.headers as Record<string, string>);
        expect(payload).toEqual({
          type: 'batch.completed',
          id,
          status: 'completed',
          total: 12,
          succeeded: 11,
          failed: 1,
          results_url: `/api/batch/${id}/results`,
          completed_at: done.completedAt,
        });
      }
      expect(received[0].headers['webhook-id']).toBe(received[1].headers['webhook-id']);
      // Another organisation's secret does not verify it.
      const other = new Webhook(await secretOf(otherKey));
      expect(() => other.verify(received[1].body, received[1].headers as Record<string, string>)).toThrow();
    });
  });
});
