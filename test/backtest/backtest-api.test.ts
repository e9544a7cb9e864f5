/**
 * A bank's backtest on its doors (issue 31): POST /api/backtest with a CSV file (a bad row refused
 * in its place, its line named), progress over batchProgress (graphql-ws), the report as JSON, CSV
 * and PDF from GET /api/backtest/{id}, the GraphQL operations, and another organisation kept out.
 */
import { createClient, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { pdfTexts } from '../support/pdf-text';
import { expectError, json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

let stack: SharedTestStack;
beforeAll(async () => {
  stack = await sharedTestStack();
});

const FLAT = { district: 'Chilanzar', rooms: 3, floor: 4, total_floors: 9, market: 'resale' };
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** Forty flats observed over four months, each at 1.2 × the model's valuation at its date (as another organisation is told it). */
async function observedFlats(valuer: string) {
  return Promise.all(Array.from({ length: 40 }, async (_, i) => {
    const observedAt = daysAgo(130 - 3 * i);
    const base = await json(await stack.post('/api/predict/home', { ...FLAT, area: 50 + i, valuation_date: observedAt }, { 'x-api-key': valuer }));
    return { ...FLAT, area: 50 + i, price_usd: Math.round(base.estimate * 1.2), observed_at: observedAt, price_type: 'sale', reference: `deal-${i}` };
  }));
}

const csvOf = (rows: Record<string, unknown>[]) => {
  const columns = Object.keys(rows[0]);
  return [columns.join(','), ...rows.map((r) => columns.map((c) => r[c] ?? '').join(','))].join('\n') + '\n';
};

async function progressUntilFinal(key: string, id: string): Promise<{ status: string; processed: number; final: boolean }[]> {
  const client = createClient({ url: `${stack.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'X-API-Key': key }, retryAttempts: 0, lazy: true });
  try {
    return await new Promise((resolve, reject) => {
      const events: { status: string; processed: number; final: boolean }[] = [];
      client.subscribe<{ batchProgress: { status: string; processed: number; final: boolean } }>(
        { query: 'subscription($id: ID!) { batchProgress(id: $id) { status processed final } }', variables: { id } },
        {
          next: (result: ExecutionResult<{ batchProgress: { status: string; processed: number; final: boolean } }>) => (result.errors ? reject(new Error(result.errors[0].message)) : events.push(result.data!.batchProgress)),
          error: reject,
          complete: () => resolve(events),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

it('replays a CSV of observed prices: model alone 20% low, re-anchored on earlier prices closer, as JSON, CSV and PDF, for its organisation only', async () => {
  const bank = stack.newKey('enterprise');
  const other = stack.newKey('enterprise');
  const flats = await observedFlats(other);
  // Line 6 of the file (the header is line 1) has no price: refused in its place.
  const rows: Record<string, unknown>[] = [...flats.slice(0, 4), { ...flats[4], price_usd: undefined, reference: 'no-price' }, ...flats.slice(4)];
  const submitted = await stack.fetch('/api/backtest?kind=home', { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': bank }, body: csvOf(rows) });
  expect(submitted.status).toBe(202);
  const accepted = await json(submitted);
  expect(accepted).toMatchObject({ kind: 'home', status: 'queued', total: 41 });
  expect(submitted.headers.get('location')).toBe(`/api/backtest/${accepted.id}`);

  const events = await progressUntilFinal(bank, accepted.id);
  expect(events.filter((e) => e.final)).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ status: 'completed', processed: 41 });

  const read = await json(await stack.fetch(`/api/backtest/${accepted.id}`, { headers: { 'x-api-key': bank } }));
  expect(read).toMatchObject({ id: accepted.id, kind: 'home', status: 'completed', job: { total: 41, succeeded: 40, failed: 1 } });
  const { report } = read;
  expect(report).toMatchObject({ kind: 'home', observations: 40, submitted: 41, from: flats[0].observed_at, to: flats[39].observed_at });
  expect(report.refused.count).toBe(1);
  expect(report.refused.items[0]).toMatchObject({ index: 4, code: 'MISSING_PARAMETER' });
  expect(report.refused.items[0].message).toContain('line 6');
  expect(report.modelVersions).toHaveLength(1);
  expect(report.fits).toBeGreaterThan(10);
  // Every price is 1.2 × the model's valuation (to the dollar): the model alone is 18.2% low in log terms, on every observation.
  expect(report.overall.modelAlone.n).toBe(40);
  expect(report.overall.modelAlone.bias.median).toBeCloseTo(Math.log(1.2), 2);
  expect(report.overall.modelAlone.medianApe).toBeCloseTo(1 / 6, 2);
  // Re-anchored on the earlier ones, the later valuations move toward the prices; the first block has nothing before it.
  expect(report.rows[0].observationsUsed).toBe(0);
  expect(report.rows[0].reanchored.estimate).toBe(report.rows[0].modelAlone.estimate);
  expect(report.rows[39].observationsUsed).toBeGreaterThan(30);
  expect(report.rows[39].factor).toBeGreaterThan(1.1);
  expect(report.overall.reanchored.medianApe).toBeLessThan(report.overall.modelAlone.medianApe / 2);
  expect(report.byMonth.map((m: { month: string }) => m.month)).toEqual([...new Set(flats.map((f) => f.observed_at.slice(0, 7)))]);
  expect(report.byGroup.map((g: { level: string; group: string }) => `${g.level}:${g.group}`)).toEqual(['district:Tashkent › Chilanzar', 'segment:Tashkent › Chilanzar › resale']);
  // By the confidence level each valuation was told: every observation in one level or another.
  expect(report.byConfidence.map((c: { confidence: string }) => c.confidence).every((c: string) => ['high', 'medium', 'low'].includes(c))).toBe(true);
  expect(report.byConfidence.reduce((n: number, c: { modelAlone: { n: number } }) => n + c.modelAlone.n, 0)).toBe(40);

  const csv = await stack.fetch(`/api/backtest/${accepted.id}?format=csv`, { headers: { 'x-api-key': bank } });
  expect(csv.headers.get('content-type')).toContain('text/csv');
  const lines = (await csv.text()).trim().split('\r\n');
  expect(lines).toHaveLength(41);
  expect(lines[0]).toMatch(/^observed_at,reference,groups,price_usd/);
  expect(lines[1]).toContain('deal-0');
  const summary = (await (await stack.fetch(`/api/backtest/${accepted.id}?format=summary-csv`, { headers: { 'x-api-key': bank } })).text()).trim().split('\r\n');
  expect(summary[1]).toMatch(/^overall,,all,40,/);

  const pdf = await stack.fetch(`/api/backtest/${accepted.id}?format=pdf`, { headers: { 'x-api-key': bank } });
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  const [{ text }] = await pdfTexts([Buffer.from(await pdf.arrayBuffer())]);
  expect(text).toContain('What was replayed');
  expect(text).toContain('41 home prices were submitted; 1 could not be scored');
  expect(text).toContain('By month');
  expect(text).toContain('By district');
  expect(text).toContain('re-anchored');
  expect(text).toContain('+20.0%'); // the model alone's median bias: prices 20% above the valuations

  // In the reader's language: every heading and label from its dictionary, numbers as it writes them.
  const [ru, uz] = (await pdfTexts(await Promise.all(['ru', 'uz'].map(async (lang) => {
    const localised = await stack.fetch(`/api/backtest/${accepted.id}?format=pdf&lang=${lang}`, { headers: { 'x-api-key': bank } });
    expect(localised.status).toBe(200);
    expect(localised.headers.get('content-disposition')).toContain(`-${lang}.pdf`);
    return Buffer.from(await localised.arrayBuffer());
  })))).map(({ text }) => ({ text: text.replace(/\s+/g, ' ') })); // a label may wrap in its table cell

  for (const heading of ['Бэктест оценок жилья по наблюдаемым ценам', 'Что было воспроизведено', 'В целом', 'По месяцам', 'По группам', 'По уровню «район»', 'только модель', 'с перепривязкой', 'Как читать таблицы', 'Передано цен жилья: 41']) {
    expect(ru.text).toContain(heading);
  }
  for (const heading of ['Uy-joy baholarining kuzatilgan narxlar boʻyicha bektesti', 'Nima qayta hisoblandi', 'Umumiy', 'Oylar boʻyicha', 'Guruhlar boʻyicha', 'Daraja boʻyicha: tuman', 'faqat model', 'qayta bogʻlangan', 'Jadvallarni qanday oʻqish kerak']) {
    expect(uz.text).toContain(heading);
  }
  for (const english of ['What was replayed', 'model alone', 'By month']) {
    expect(ru.text).not.toContain(english);
    expect(uz.text).not.toContain(english);
  }
  // Issue 35, item 6: the labels' own figures through the language's formatter too, as Russian writes
  // them (10 %, 3,29), so no number in the Russian report is written the English way.
  for (const figure of ['Доля в ±10 %', 'Медиана смещения [95 % ДИ]', 'Покрытие 90 % [Уилсон 95 %]', 'ln(верх / низ) / 3,29', 'около 68 % его цен']) {
    expect(ru.text).toContain(figure);
  }
  // The fits counted by Russian's plural rules: за 21 подгонку, за 22 подгонки, за 25 подгонок.
  const fitsForm = { one: 'подгонку', few: 'подгонки', many: 'подгонок', other: 'подгонки' }[new Intl.PluralRules('ru').select(report.fits) as 'one' | 'few' | 'many' | 'other'];
  expect(ru.text).toContain(`за ${report.fits} ${fitsForm}:`);
  const ruNumbers = report.modelVersions.reduce((text: string, version: string) => text.replaceAll(version, ''), ru.text);
  expect(ruNumbers.match(/\d%|\d\.\d|\d,\d{3}/g)).toBeNull();
  expect(uz.text).toContain('±10% ichida');
  await expectError(await stack.fetch(`/api/backtest/${accepted.id}?format=pdf&lang=de`, { headers: { 'x-api-key': bank } }), 400, 'INVALID_PARAMETER', 'lang');

  // Another organisation cannot see it, read it, follow it or fill it.
  await expectError(await stack.fetch(`/api/backtest/${accepted.id}`, { headers: { 'x-api-key': other } }), 404, 'NOT_FOUND', 'id');
  await expectError(await stack.fetch(`/api/backtest/${accepted.id}?format=pdf`, { headers: { 'x-api-key': other } }), 404, 'NOT_FOUND', 'id');
  await expect(progressUntilFinal(other, accepted.id)).rejects.toThrow();
  const foreign = await json(await stack.post('/graphql', { query: 'query($id: ID!) { backtest(id: $id) { id report } batchJob(id: $id) { id } }', variables: { id: accepted.id } }, { 'x-api-key': other }));
  expect(foreign.data).toEqual({ backtest: null, batchJob: null });
});

it('GraphQL: submitBacktest of vehicles, its report once completed; a portfolio job is not a backtest; an unfinished one has no PDF', async () => {
  const bank = stack.newKey('enterprise');
  const observations = Array.from({ length: 8 }, (_, i) => ({ kind: 'VEHICLE', vehicle: { make: 'Chevrolet', model: 'Cobalt', year: 2019 + (i % 4), mileage: 40_000 + 5_000 * i }, priceUsd: 9_000 + 300 * i, observedAt: daysAgo(60 - 5 * i), priceType: 'SALE', reference: `car-${i}` }));
  observations.push({ kind: 'VEHICLE', vehicle: { make: 'Chevrolet', model: 'Cobalt', year: 2020, mileage: 1 }, priceUsd: -5, observedAt: daysAgo(3), priceType: 'SALE', reference: 'bad-price' });
  const graphql = async (query: string, variables: Record<string, unknown>) => json(await stack.post('/graphql', { query, variables }, { 'x-api-key': bank }));
  const submitted = await graphql('mutation($input: SubmitBacktestInput!) { submitBacktest(input: $input) { id kind job { total } report } }', { input: { kind: 'VEHICLE', observations } });
  expect(submitted.errors).toBeUndefined();
  expect(submitted.data.submitBacktest).toMatchObject({ kind: 'VEHICLE', job: { total: 9 }, report: null });
  const { id } = submitted.data.submitBacktest;
  let backtest: { job: { status: string }; report: Record<string, any> | null } | null = null;
  for (let i = 0; i < 100 && backtest?.job.status !== 'completed'; i++) {
    backtest = (await graphql('query($id: ID!) { backtest(id: $id) { job { status } report } }', { id })).data.backtest;
    if (backtest?.job.status !== 'completed') await new Promise((r) => setTimeout(r, 100));
  }
  expect(backtest!.report).toMatchObject({ kind: 'vehicle', observations: 8, submitted: 9, refused: { count: 1 } });
  expect(backtest!.report!.refused.items[0]).toMatchObject({ index: 8, code: 'INVALID_PARAMETER' });
  expect(backtest!.report!.byGroup.map((g: { level: string; group: string }) => `${g.level}:${g.group}`)).toEqual(['make:all › Chevrolet', 'model:all › Chevrolet › Cobalt']);

  // A portfolio job is no backtest; a backtest opened and never filled has no PDF yet.
  const portfolio = await graphql('mutation { submitBatch(input: { items: [{ address: "Chilonzor tumani, Qatortol MFY" }] }) { id } }', {});
  expect((await graphql('query($id: ID!) { backtest(id: $id) { id } }', { id: portfolio.data.submitBatch.id })).data.backtest).toBeNull();
  const opened = await graphql('mutation { openBacktest(input: { kind: HOME }) { id job { status } } }', {});
  await expectError(await stack.fetch(`/api/backtest/${opened.data.openBacktest.id}?format=pdf`, { headers: { 'x-api-key': bank } }), 409, 'JOB_NOT_FINISHED', 'id');
  await expectError(await stack.fetch('/api/backtest?kind=boat', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': bank }, body: '{"observations":[]}' }), 400, 'INVALID_PARAMETER', 'kind');
});
