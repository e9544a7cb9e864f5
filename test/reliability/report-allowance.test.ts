/**
 * Issue 33, finding 4: reports render on worker threads and each organisation has its own allowance
 * of them (`reports` in the plan). Over HTTP to the real gateway: a key past its allowance gets 429
 * RATE_LIMITED with Retry-After naming it while another organisation's reports are still served;
 * the pool renders the very bytes the renderer gives in this thread, and refuses past its queue.
 */
import { RenderQueueFullError, renderPool } from '../../gateway/reports/render-pool';
import { renderPdf } from '../../gateway/reports/pdf-task';
import { plansFileWith } from '../support/plans';
import { pdfTexts } from '../support/pdf-text';
import { json, startTestStack, type TestStack } from '../support/stack';
import { chilanzarFlat, cobaltCar } from '../reports/fixtures';

/** Three reports a day (a day window: the test does not depend on the minute it runs in). */
const TIGHT = 'reports-tight';
const plansFile = plansFileWith({
  [TIGHT]: { quota: { perMinute: 1000, perDay: 1000 }, valuations: { perMinute: 1000, perDay: 1000 }, reports: { perMinute: 100, perDay: 3 }, maxBatchItems: 100, batchItemsPerDay: 100 },
});

const FLAT = { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale', renovation: 'Evro' };

describe('over HTTP', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ redisUrl: process.env.REDIS_URL || undefined, env: { PLANS_FILE: plansFile } });
  });
  afterAll(() => stack?.stop());

  const report = (id: string, key: string, query = '') => stack.fetch(`/api/valuations/${id}/report${query}`, { headers: { 'x-api-key': key } });

  it('a key past its report allowance gets 429 RATE_LIMITED naming it; another organisation still gets its reports', async () => {
    const bank = stack.newKey(TIGHT);
    const valued = await json(await stack.post('/api/predict/home', FLAT, { 'x-api-key': bank }));
    const pdfs: Buffer[] = [];
    for (const query of ['', '?lang=ru', '?format=html']) {
      const response = await report(valued.valuation_id, bank, query);
      expect(response.status).toBe(200);
      if (!query.includes('html')) pdfs.push(Buffer.from(await response.arrayBuffer()));
    }
    const refused = await report(valued.valuation_id, bank);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const { error } = await json(refused);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toMatch(/3 reports per day/);
    // Valuing is another allowance: the same key still values.
    expect((await stack.post('/api/predict/home', FLAT, { 'x-api-key': bank })).status).toBe(200);

    const other = stack.newKey(TIGHT);
    const its = await json(await stack.post('/api/predict/home', FLAT, { 'x-api-key': other }));
    expect((await report(its.valuation_id, other)).status).toBe(200);

    // What the render threads sent is the report: its estimate and id, in each language asked.
    const [en, ru] = await pdfTexts(pdfs);
    expect(en.text).toContain(valued.valuation_id);
    expect(ru.text).toMatch(/[А-Яа-я]{5}/);
  });
});

describe('the render pool', () => {
  const pool = renderPool({ threads: 1, queue: 2 });
  afterAll(() => pool.close());

  it('renders the same bytes as the renderer in this thread', async () => {
    const tasks = [{ report: 'valuation', data: chilanzarFlat(), lang: 'uz' }, { report: 'valuation', data: cobaltCar(), lang: 'en' }] as const;
    for (const task of tasks) expect((await pool.pdf(task)).equals(await renderPdf(task))).toBe(true);
  });

  it('refuses a render past its queue with 503 SERVICE_UNAVAILABLE, and renders the others', async () => {
    const renders = Array.from({ length: 6 }, () => pool.pdf({ report: 'valuation', data: chilanzarFlat(), lang: 'en' }).then(() => 'rendered', (error: unknown) => error));
    const outcomes = await Promise.all(renders);
    const refused = outcomes.filter((o) => o instanceof RenderQueueFullError) as RenderQueueFullError[];
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].status).toBe(503);
    expect(refused[0].code).toBe('SERVICE_UNAVAILABLE');
    expect(outcomes.filter((o) => o === 'rendered').length).toBeGreaterThanOrEqual(2);
  });
});
