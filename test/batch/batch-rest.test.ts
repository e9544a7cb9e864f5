/**
 * Batch jobs over REST, through the real gateway: JSON, CSV and NDJSON submissions, polling the
 * job, the results as NDJSON and CSV, the organisation boundary, and errors in the API's format.
 */
import Ajv2020 from 'ajv/dist/2020';
import { parse as parseCsv } from 'csv-parse/sync';
import { expectError, json, startTestStack, type TestStack } from '../support/stack';
import { until } from '../support/wait';

const ADDRESSES = [
  'Chilonzor tumani, 13-kvartal',
  'Юнусабад 8-й квартал',
  "Toshkent sh., Mirzo Ulug'bek tumani, Buyuk Ipak Yo'li ko'chasi",
  'Куйлюк-5',
  'массив Карасу-3',
  'Сергели-IV',
];
const GARBAGE = 'qwzx blorf';
/** The home in REST (snake_case) names, with the legacy aliases. */
const HOME = { area: 65, rooms: 3, floor: 4, total_floors: 9, renovation: 'Evro', qurilish_turi: "G'ishtli", mebel: 'ha', sanuzel: 'alohida' };

/** 8 items: positions 1 and 5 carry a home, position 3 cannot be placed. */
function portfolio(): { address: string; home?: Record<string, unknown> }[] {
  return [
    { address: ADDRESSES[0] },
    { address: ADDRESSES[1], home: HOME },
    { address: ADDRESSES[2] },
    { address: GARBAGE },
    { address: ADDRESSES[3] },
    { address: ADDRESSES[4], home: { ...HOME, area: 80, rooms: 4 } },
    { address: ADDRESSES[5] },
    { address: ADDRESSES[0] },
  ];
}

let stack: TestStack;
let key: string;
let otherKey: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { BATCH_KEY_PREFIX: `test-batch-rest-${process.pid}-${Date.now()}:` } });
  key = stack.newKey('enterprise');
  otherKey = stack.newKey('standard');
});
afterAll(() => stack?.stop());

// Through stack.fetch: every reply is also checked against the OpenAPI document (test/support/openapi-responses.ts).
const get = (path: string, apiKey = key, headers: Record<string, string> = {}) => stack.fetch(path, { headers: { 'x-api-key': apiKey, ...headers } });
const upload = (body: string, contentType: string, query = '') =>
  stack.fetch(`/api/batch${query}`, { method: 'POST', headers: { 'content-type': contentType, 'x-api-key': key }, body });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function untilEnded(id: string, timeoutMs = 45_000): Promise<any> {
  const read = async () => {
    const response = await get(`/api/batch/${id}`);
    expect(response.status).toBe(200);
    return json(response);
  };
  return until(read, (job) => ['completed', 'failed', 'cancelled'].includes(job.status), timeoutMs);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ndjsonResults(id: string): Promise<any[]> {
  const response = await get(`/api/batch/${id}/results`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  const text = await response.text();
  expect(text.endsWith('\n')).toBe(true);
  return text.trimEnd().split('\n').map((line) => JSON.parse(line));
}

describe('POST /api/batch with JSON, then GET the job and its results', () => {
  let id: string;

  beforeAll(async () => {
    const response = await stack.post('/api/batch', { items: portfolio(), chunk_size: 3 }, { 'x-api-key': key });
    expect(response.status).toBe(202);
    const body = await json(response);
    expect(body).toMatchObject({ id: expect.any(String), status: 'queued', total: 8, results_url: `/api/batch/${body.id}/results` });
    expect(response.headers.get('location')).toBe(`/api/batch/${body.id}`);
    expect(response.headers.get('ratelimit-limit')).toBeTruthy();
    id = body.id;
  });

  it('the job completes with its counters, timestamps and deliveries', async () => {
    const job = await untilEnded(id);
    expect(job).toMatchObject({ id, status: 'completed', total: 8, processed: 8, succeeded: 7, failed: 1, chunk_size: 3, callback_url: null, results_url: `/api/batch/${id}/results`, error: null, deliveries: [] });
    expect(Date.parse(job.created_at)).not.toBeNaN();
    expect(Date.parse(job.started_at)).not.toBeNaN();
    expect(Date.parse(job.completed_at)).toBeGreaterThanOrEqual(Date.parse(job.started_at));
  });

  it('streams every result as NDJSON, in order, with the values', async () => {
    await untilEnded(id);
    const lines = await ndjsonResults(id);
    expect(lines.map((l) => l.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // snake_case like every REST reply (issue 35, item 1): no key anywhere in a line has a capital letter.
    const keys = (value: unknown): string[] => (Array.isArray(value) ? value.flatMap(keys) : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...keys(v)]) : []);
    expect(keys(lines).filter((k) => /[A-Z]/.test(k))).toEqual([]);
    expect(Object.keys(lines[1].result.home)).toEqual(expect.arrayContaining(['price_per_m2', 'market_level', 'valuation_id', 'model_version', 'valued_at']));
    const inputs = portfolio();
    for (const line of lines) {
      if (line.index === 3) {
        expect(line).toMatchObject({ ok: false, result: null });
        expect(['UNRESOLVABLE_ADDRESS', 'OUTSIDE_TASHKENT']).toContain(line.error.code);
        continue;
      }
      expect(line).toMatchObject({ ok: true, error: null });
      expect(line.result.address).toBe(inputs[line.index].address);
      expect(line.result.geocode).toMatchObject({ lat: expect.any(Number), lon: expect.any(Number), district: expect.any(String) });
      expect(line.result.location_index.composite).toBeGreaterThanOrEqual(0);
      expect(line.result.location_index.composite).toBeLessThanOrEqual(100);
      if (inputs[line.index].home) {
        expect(line.result.home.estimate).toBeGreaterThan(10_000);
        expect(line.result.home.currency).toBe('USD');
        // How old the market data behind the value is, as on every other surface.
        expect(line.result.home.market_level).toMatchObject({ valuation_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), newest_data_period: '2026-07', data_age_months: expect.any(Number) });
        expect(line.result.home.market_level.data_age_months).toBeGreaterThanOrEqual(0);
      } else {
        expect(line.result.home).toBeUndefined();
      }
    }
    // The snake_case home reached the valuation: the bigger flat is worth more in the same kind of building.
    expect(lines[5].result.home.estimate).not.toBe(lines[1].result.home.estimate);
  });

  it('honours ?offset and ?limit, with the next page in Batch-Next-Offset (issue 35)', async () => {
    await untilEnded(id);
    const page = await get(`/api/batch/${id}/results?offset=2&limit=3`);
    expect(page.status).toBe(200);
    expect(page.headers.get('batch-next-offset')).toBe('5');
    const lines = (await page.text()).trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => l.index)).toEqual([2, 3, 4]);
    const last = await get(`/api/batch/${id}/results?offset=6&limit=5&format=csv`);
    expect(last.headers.get('batch-next-offset')).toBeNull();
    expect((await last.text()).trimEnd().split('\r\n').slice(1).map((row) => row.split(',')[0])).toEqual(['6', '7']);
    await expectError(await get(`/api/batch/${id}/results?limit=0`), 400, 'INVALID_PARAMETER', 'limit');
    await expectError(await get(`/api/batch/${id}/results?offset=-1`), 400, 'INVALID_PARAMETER', 'offset');
  });

  it('streams the same results as CSV with Accept: text/csv or ?format=csv', async () => {
    await untilEnded(id);
    const ndjson = await ndjsonResults(id);
    for (const response of [await get(`/api/batch/${id}/results`, key, { accept: 'text/csv' }), await get(`/api/batch/${id}/results?format=csv`)]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      const rows = parseCsv(await response.text(), { columns: true }) as Record<string, string>[];
      expect(rows.map((r) => Number(r.index))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(rows[3]).toMatchObject({ ok: 'false', address: '', error_code: ndjson[3].error.code });
      expect(rows[1]).toMatchObject({ ok: 'true', address: ADDRESSES[1], currency: 'USD', district: ndjson[1].result.geocode.district });
      expect(Number(rows[1].estimate)).toBe(ndjson[1].result.home.estimate);
      expect(rows[1].valuation_date).toBe(ndjson[1].result.home.market_level.valuation_date);
      expect(Number(rows[1].data_age_months)).toBe(ndjson[1].result.home.market_level.data_age_months);
      expect(Number(rows[0].lat)).toBe(ndjson[0].result.geocode.lat);
      expect(rows[0].estimate).toBe('');
    }
  });

  it("another organisation's key gets 404 NOT_FOUND on the job and its results; an unknown id too", async () => {
    await expectError(await get(`/api/batch/${id}`, otherKey), 404, 'NOT_FOUND');
    await expectError(await get(`/api/batch/${id}/results`, otherKey), 404, 'NOT_FOUND');
    await expectError(await get('/api/batch/no-such-job'), 404, 'NOT_FOUND');
    await expectError(await get('/api/batch/no-such-job/results?format=csv'), 404, 'NOT_FOUND');
  });

  it('without a key: 401', async () => {
    await expectError(await stack.fetch(`/api/batch/${id}`), 401, 'INVALID_API_KEY');
  });
});

it('streams more than one page (1000) of results, all of them in order', async () => {
  const response = await stack.post('/api/batch', { items: Array.from({ length: 1050 }, (_, i) => ({ address: ADDRESSES[i % ADDRESSES.length] })) }, { 'x-api-key': key });
  expect(response.status).toBe(202);
  const { id } = await json(response);
  expect((await untilEnded(id, 90_000)).processed).toBe(1050);
  const lines = await ndjsonResults(id);
  expect(lines.map((l) => l.index)).toEqual(Array.from({ length: 1050 }, (_, i) => i));
  expect(lines[1049].result.address).toBe(ADDRESSES[1049 % ADDRESSES.length]);
  const csv = await (await get(`/api/batch/${id}/results?format=csv`)).text();
  expect(csv.trimEnd().split('\r\n')).toHaveLength(1051);
}, 120_000);

it('results CSV: cells a spreadsheet would run as formulas come back prefixed with a quote (OWASP); numbers stay numbers', async () => {
  const formulas = ['=HYPERLINK("http://evil.example/x")', '+1+1', '@SUM(A1)', '-2+3', '\tcmd', '\rcmd'];
  // A real address after the formula, so that the item is placed and its address is in the CSV.
  const items = formulas.map((formula) => ({ address: `${formula} ${ADDRESSES[0]}` }));
  const response = await stack.post('/api/batch', { items }, { 'x-api-key': key });
  expect(response.status).toBe(202);
  const { id } = await json(response);
  await untilEnded(id);
  const ndjson = await ndjsonResults(id);
  const csv = await (await get(`/api/batch/${id}/results?format=csv`)).text();
  expect(csv.startsWith('index,ok,reference,address,lat,lon,')).toBe(true);
  expect(csv.endsWith('\r\n')).toBe(true);
  const rows = parseCsv(csv, { columns: true }) as Record<string, string>[];
  expect(rows).toHaveLength(items.length);
  for (const row of rows) {
    const line = ndjson[Number(row.index)];
    expect([row.index, line.ok, line.error]).toEqual([row.index, true, null]);
    expect(row.address).toBe(`'${items[Number(row.index)].address}`);
    expect(Number(row.lat)).toBe(line.result.geocode.lat);
  }
  // Quoted as a whole, so the quote is part of the text a spreadsheet shows.
  expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/x"")`);
});

it('GET /openapi.json documents the batch routes with the schemas the replies satisfy', async () => {
  const doc = await json(await fetch(`${stack.url}/openapi.json`));
  expect(doc.paths['/api/batch'].post.requestBody.content['application/json'].schema.required).toEqual(['items']);
  expect(doc.paths['/api/batch/{id}/results'].get).toBeDefined();
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const validateJob = ajv.compile(doc.paths['/api/batch/{id}'].get.responses['200'].content['application/json'].schema);
  const validateLine = ajv.compile(doc.paths['/api/batch/{id}/results'].get.responses['200'].content['application/x-ndjson'].schema);
  expect(ajv.validate(doc.paths['/api/batch'].post.requestBody.content['application/json'].schema, { items: portfolio(), callback_url: 'https://example.com/hook' })).toBe(true);
  const response = await stack.post('/api/batch', { items: portfolio().slice(0, 2) }, { 'x-api-key': key });
  expect(ajv.validate(doc.paths['/api/batch'].post.responses['202'].content['application/json'].schema, await json(response.clone()))).toBe(true);
  const { id } = await json(response);
  expect(validateJob(await untilEnded(id))).toBe(true);
  for (const line of await ndjsonResults(id)) expect(validateLine(line)).toBe(true);
});

describe('POST /api/batch with a file', () => {
  it('a CSV upload (address plus home columns in snake_case) is valued row by row', async () => {
    const csv = [
      'address,area,rooms,floor,total_floors,renovation,mebel',
      `"${ADDRESSES[0]}",65,3,4,9,Evro,ha`,
      `${ADDRESSES[1]},,,,,,`,
      `"${GARBAGE}",,,,,,`,
    ].join('\r\n');
    const response = await upload(csv, 'text/csv; charset=utf-8');
    expect(response.status).toBe(202);
    const { id, total } = await json(response);
    expect(total).toBe(3);
    const job = await untilEnded(id);
    expect(job).toMatchObject({ status: 'completed', processed: 3, succeeded: 2, failed: 1 });
    const lines = await ndjsonResults(id);
    expect(lines.map((l) => [l.index, l.ok])).toEqual([[0, true], [1, true], [2, false]]);
    expect(lines[0].result.address).toBe(ADDRESSES[0]);
    expect(lines[0].result.home.estimate).toBeGreaterThan(10_000);
    expect(lines[1].result.home).toBeUndefined();
  });

  it('an NDJSON upload (one item a line) is valued line by line', async () => {
    const ndjson = `${JSON.stringify({ address: ADDRESSES[2] })}\n\n${JSON.stringify({ address: ADDRESSES[3], home: HOME })}\n`;
    const response = await upload(ndjson, 'application/x-ndjson');
    expect(response.status).toBe(202);
    const { id, total } = await json(response);
    expect(total).toBe(2);
    expect((await untilEnded(id)).succeeded).toBe(2);
    const lines = await ndjsonResults(id);
    expect(lines.map((l) => l.result.address)).toEqual([ADDRESSES[2], ADDRESSES[3]]);
    expect(lines[1].result.home.estimate).toBeGreaterThan(10_000);
  });

  it('an item whose home has a word the service does not know is valued without it, with the warning in its result (issue 35)', async () => {
    const ndjson = [{ address: ADDRESSES[3], home: { ...HOME, renovation: "Ta'mirsiz" } }, { address: ADDRESSES[3], home: { ...HOME, renovation: 'xyzzy', mebel: 'qisman' } }, { address: ADDRESSES[3], home: { ...HOME, renovation: 'needs_repair' } }]
      .map((item) => JSON.stringify(item)).join('\n');
    const response = await upload(`${ndjson}\n`, 'application/x-ndjson');
    expect(response.status).toBe(202);
    const { id } = await json(response);
    expect((await untilEnded(id)).succeeded).toBe(3);
    const [spelled, unknown, coded] = (await ndjsonResults(id)).map((l) => l.result.home);
    expect(spelled.estimate).toBe(coded.estimate);
    expect(unknown.warnings).toEqual(expect.arrayContaining([
      expect.stringMatching(/^home\.furniture "qisman" is not recognised and was ignored; accepted: yes\/no/),
      expect.stringMatching(/^renovation "xyzzy" is not recognised and was ignored; accepted: euro/),
    ]));
  });

  it("echoes each item's reference (the bank's loan id) in its result line, NDJSON and CSV, failed items too (issue 35)", async () => {
    const items = [{ address: ADDRESSES[0], reference: 'LOAN-0001' }, { address: GARBAGE, reference: 'LOAN-0002' }, { address: ADDRESSES[3], reference: 42, home: HOME }, { address: ADDRESSES[1] }];
    const response = await stack.post('/api/batch', { items }, { 'x-api-key': key });
    expect(response.status).toBe(202);
    const { id } = await json(response);
    await untilEnded(id);
    const lines = await ndjsonResults(id);
    expect(lines.map((l) => [l.index, l.reference, l.ok])).toEqual([[0, 'LOAN-0001', true], [1, 'LOAN-0002', false], [2, '42', true], [3, null, true]]);
    const csv = await (await get(`/api/batch/${id}/results?format=csv`)).text();
    const rows = csv.trimEnd().split('\r\n').map((row) => row.split(','));
    expect(rows[0].slice(0, 4)).toEqual(['index', 'ok', 'reference', 'address']);
    expect(rows.slice(1).map((r) => r[2])).toEqual(['LOAN-0001', 'LOAN-0002', '42', '']);
    // A CSV upload takes a reference column.
    const uploaded = await upload(`address,reference,area,rooms,floor,total_floors\n"${ADDRESSES[3]}",K-77,65,3,4,9\n`, 'text/csv');
    expect(uploaded.status).toBe(202);
    const upId = (await json(uploaded)).id;
    await untilEnded(upId);
    expect((await ndjsonResults(upId))[0]).toMatchObject({ reference: 'K-77', ok: true });
  });

  it('keeps the file a job came from by its name, on an upload (?file_name) and a JSON body, in REST and GraphQL (issue 35, item 10)', async () => {
    const uploaded = await json(await upload(`${JSON.stringify({ address: ADDRESSES[2] })}\n`, 'application/x-ndjson', `?file_name=${encodeURIComponent('C:\\fakepath\\Q3 mortgages.ndjson')}`));
    expect((await json(await get(`/api/batch/${uploaded.id}`))).file_name).toBe('Q3 mortgages.ndjson'); // a browser's path cut to the name
    const sent = await json(await stack.post('/api/batch', { items: [{ address: ADDRESSES[0] }], file_name: 'car-loans.csv' }, { 'x-api-key': key }));
    const listed = await json(await stack.post('/graphql', { query: '{ batchJobs(limit: 5) { jobs { id fileName } } }' }, { 'x-api-key': key }));
    const names = new Map(listed.data.batchJobs.jobs.map((j: { id: string; fileName: string | null }) => [j.id, j.fileName]));
    expect(names.get(sent.id)).toBe('car-loans.csv');
    expect(names.get(uploaded.id)).toBe('Q3 mortgages.ndjson');
    const unnamed = await json(await stack.post('/api/batch', { items: [{ address: ADDRESSES[0] }] }, { 'x-api-key': key }));
    expect((await json(await get(`/api/batch/${unnamed.id}`))).file_name).toBeNull();
    // A name that is personal data or not a name is refused before any job is made.
    await expectError(await upload(`${JSON.stringify({ address: ADDRESSES[2] })}\n`, 'application/x-ndjson', '?file_name=borrower-901234567.csv'), 400, 'PERSONAL_DATA_NOT_ACCEPTED', 'file_name');
    await expectError(await stack.post('/api/batch', { items: [{ address: ADDRESSES[0] }], file_name: 'x'.repeat(256) }, { 'x-api-key': key }), 400, 'INVALID_PARAMETER', 'file_name');
    const graphql = await json(await stack.post('/graphql', { query: 'mutation { openBatch(input: { fileName: "a\\u0007b.csv" }) { id } }' }, { 'x-api-key': key }));
    expect(graphql.errors[0].extensions.code).toBe('INVALID_PARAMETER');
  });

  it('refuses a reference that is personal data or too long, and an item field it does not know', async () => {
    await expectError(await stack.post('/api/batch', { items: [{ address: ADDRESSES[0], reference: '+998 90 123 45 67' }] }, { 'x-api-key': key }), 400, 'PERSONAL_DATA_NOT_ACCEPTED', 'items[0].reference');
    await expectError(await stack.post('/api/batch', { items: [{ address: ADDRESSES[0], reference: 'x'.repeat(101) }] }, { 'x-api-key': key }), 400, 'INVALID_PARAMETER', 'items[0].reference');
    await expectError(await stack.post('/api/batch', { items: [{ address: ADDRESSES[0], loan_id: 'L1' }] }, { 'x-api-key': key }), 400, 'INVALID_PARAMETER', 'items[0].loan_id');
  });

  it('bad rows answer 400 naming the item and field', async () => {
    await expectError(await upload('street,area\nx,1', 'text/csv'), 400, 'MISSING_PARAMETER', 'address');
    await expectError(await upload('address,colour\nx,red', 'text/csv'), 400, 'INVALID_PARAMETER', 'colour');
    await expectError(await upload(`address,area\n"${ADDRESSES[0]}",big`, 'text/csv'), 400, 'INVALID_PARAMETER', 'items[0].home.area');
    await expectError(await upload(`${JSON.stringify({ address: ADDRESSES[0] })}\n{oops`, 'application/x-ndjson'), 400, 'INVALID_JSON', 'items[1]');
  });
});

describe('POST /api/batch errors', () => {
  const submit = (body: unknown, apiKey = key) => stack.post('/api/batch', body, { 'x-api-key': apiKey });

  it('answers 400 with the field in the API error format', async () => {
    await expectError(await submit({}), 400, 'MISSING_PARAMETER', 'items');
    await expectError(await submit({ items: 'all of them' }), 400, 'INVALID_PARAMETER', 'items');
    await expectError(await submit({ items: [] }), 400, 'MISSING_PARAMETER', 'items');
    await expectError(await submit({ items: [{ address: ADDRESSES[0] }, { home: HOME }] }), 400, 'MISSING_PARAMETER', 'items[1].address');
    await expectError(await submit({ items: [{ address: ADDRESSES[0], home: { ...HOME, area: 'big' } }] }), 400, 'INVALID_PARAMETER', 'items[0].home.area');
    await expectError(await submit({ items: [{ address: ADDRESSES[0], home: { ...HOME, rooms: 99 } }] }), 400, 'INVALID_PARAMETER', 'items[0].home.rooms');
    await expectError(await submit({ items: [{ address: ADDRESSES[0], home: { ...HOME, district: 'Chilanzar' } }] }), 400, 'INVALID_PARAMETER', 'items[0].home.district');
    await expectError(await submit({ items: [{ address: ADDRESSES[0] }], callback_url: 'ftp://example.com/hook' }), 400, 'INVALID_PARAMETER', 'callback_url');
    await expectError(await submit('{"items": ['), 400, 'INVALID_JSON');
  });

  it("over the plan's maxBatchItems: 400 INVALID_PARAMETER on items", async () => {
    const pilot = stack.newKey('pilot');
    const error = await expectError(await submit({ items: Array.from({ length: 10_001 }, () => ({ address: 'x' })) }, pilot), 400, 'INVALID_PARAMETER', 'items');
    expect(error.message).toMatch(/10000/);
  });

  it('a JSON body over the 20 MB limit: 413; a large one under it is accepted; a file row past 64 K characters: 400', async () => {
    const big = JSON.stringify({ items: Array.from({ length: 70_000 }, (_, i) => ({ address: `${ADDRESSES[i % ADDRESSES.length]} ${'x'.repeat(280)}` })) });
    expect(big.length).toBeGreaterThan(20 * 1024 * 1024);
    await expectError(await submit(big), 413, 'PAYLOAD_TOO_LARGE');
    // Files stream (up to 1 GB, test/batch/streaming-upload.test.ts); what a reader holds is one row, bounded.
    const longRow = await expectError(await upload('address\n' + 'y'.repeat(21 * 1024 * 1024), 'text/csv'), 400, 'INVALID_PARAMETER', 'items');
    expect(longRow.message).toMatch(/65536/);
    await expectError(await upload(`{"address": "${'y'.repeat(70_000)}"}`, 'application/x-ndjson'), 400, 'INVALID_PARAMETER', 'items[0]');
    // Above the 64 KB of the other routes, below the batch limit.
    const medium = await submit({ items: Array.from({ length: 400 }, (_, i) => ({ address: `${ADDRESSES[i % ADDRESSES.length]}${' '.repeat(200)}` })), chunk_size: 400 });
    expect(medium.status).toBe(202);
    await stack.batch.engine.cancel(stack.keys.verify(key)!.org, (await json(medium)).id);
  });

  it('other routes keep refusing CSV bodies', async () => {
    const response = await stack.fetch('/api/predict/home', { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': key }, body: 'district\nChilanzar' });
    expect(response.status).toBe(415);
  });
});

describe('Idempotency-Key on batch submissions (issue 35)', () => {
  const body = { items: [{ address: ADDRESSES[0], reference: 'LOAN-9' }], chunk_size: 5 };
  const submitWith = (idempotencyKey: string | undefined, payload: unknown, apiKey = key) =>
    stack.post('/api/batch', payload, { 'x-api-key': apiKey, ...(idempotencyKey && { 'idempotency-key': idempotencyKey }) });

  it('the same key and body get the first job; another body with the key is 409; keys are each organisation\'s own', async () => {
    const idempotencyKey = `k-${Date.now()}`;
    const first = await submitWith(idempotencyKey, body);
    expect(first.status).toBe(202);
    const { id } = await json(first);
    const again = await submitWith(idempotencyKey, { chunk_size: 5, items: [{ reference: 'LOAN-9', address: ADDRESSES[0] }] }); // same body, keys in another order
    expect(again.status).toBe(202);
    expect((await json(again)).id).toBe(id);
    expect(again.headers.get('location')).toBe(`/api/batch/${id}`);
    // One job, not two.
    const listed = await json(await stack.post('/graphql', { query: '{ batchJobs(limit: 100) { jobs { id } } }' }, { 'x-api-key': key }));
    expect(listed.data.batchJobs.jobs.filter((j: { id: string }) => j.id === id)).toHaveLength(1);
    await expectError(await submitWith(idempotencyKey, { ...body, items: [{ address: ADDRESSES[1] }] }), 409, 'IDEMPOTENCY_KEY_REUSED');
    // In the body too, for clients that cannot set headers (MCP's idempotency_key is this field).
    expect((await json(await submitWith(undefined, { ...body, idempotency_key: idempotencyKey }))).id).toBe(id);
    // Another organisation's key of the same text is its own.
    const other = await submitWith(idempotencyKey, body, otherKey);
    expect(other.status).toBe(202);
    expect((await json(other)).id).not.toBe(id);
    // Without a key, every submission is a job of its own.
    expect((await json(await submitWith(undefined, body))).id).not.toBe(id);
  });

  it('GraphQL submitBatch takes idempotencyKey the same way', async () => {
    const mutation = 'mutation($input: SubmitBatchInput!) { submitBatch(input: $input) { id total } }';
    const input = { items: [{ address: ADDRESSES[2], reference: 'G-1' }], idempotencyKey: `g-${Date.now()}` };
    const first = await json(await stack.post('/graphql', { query: mutation, variables: { input } }, { 'x-api-key': key }));
    const second = await json(await stack.post('/graphql', { query: mutation, variables: { input } }, { 'x-api-key': key }));
    expect(second.data.submitBatch.id).toBe(first.data.submitBatch.id);
    const changed = await json(await stack.post('/graphql', { query: mutation, variables: { input: { ...input, items: [{ address: ADDRESSES[3] }] } } }, { 'x-api-key': key }));
    expect(changed.errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a malformed key, a header and body that differ, and a key with a file upload are 400 naming it', async () => {
    await expectError(await submitWith(undefined, { ...body, idempotency_key: 'has spaces in it' }), 400, 'INVALID_PARAMETER', 'idempotencyKey');
    await expectError(await submitWith('a', { ...body, idempotency_key: 'b' }), 400, 'INVALID_PARAMETER', 'Idempotency-Key');
    const upload = await stack.fetch('/api/batch', { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': key, 'idempotency-key': 'u-1' }, body: `address\n"${ADDRESSES[0]}"\n` });
    await expectError(upload, 400, 'INVALID_PARAMETER', 'Idempotency-Key');
  });
});
