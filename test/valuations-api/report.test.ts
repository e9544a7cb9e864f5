/**
 * The credit committee's report of a recorded valuation (issue 19), through a real stack: a PDF whose
 * text holds the estimate, the id and the disclaimer in each language, the HTML form, another
 * organisation's 404.
 */
import { formatNumber } from '../../gateway/reports/format';
import { pdfTexts } from '../support/pdf-text';
import { json } from '../support/stack-client';
import { sharedTestStack, type SharedTestStack } from '../support/shared-stack';

let stack: SharedTestStack;
beforeAll(async () => {
  stack = await sharedTestStack();
});

const FLAT = { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale', renovation: 'Evro' };
const get = (path: string, key: string) => stack.fetch(path, { headers: { 'x-api-key': key } });

it('a flat\'s report is a PDF in each language holding its estimate, id and disclaimer; HTML too; no one else gets it', async () => {
  const bank = stack.newKey();
  const valued = await json(await stack.post('/api/predict/home', FLAT, { 'x-api-key': bank }));
  const pdfs: Buffer[] = [];
  for (const lang of ['en', 'ru', 'uz']) {
    const response = await get(`/api/valuations/${valued.valuation_id}/report?lang=${lang}`, bank);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    pdfs.push(pdf);
  }
  const [en, ru, uz] = await pdfTexts(pdfs);
  const flat = (text: string) => text.replace(/\s+/g, ' ');
  expect(flat(en.text)).toContain(formatNumber(valued.estimate, 'en'));
  expect(flat(en.text)).toContain(valued.valuation_id);
  expect(flat(en.text)).toMatch(/asking price/i);
  expect(flat(en.text)).toMatch(/Chilanzar/);
  expect(flat(ru.text)).toContain(formatNumber(valued.estimate, 'ru').replace(/\s/g, ' '));
  expect(ru.text).toMatch(/[А-Яа-я]{5}/);
  expect(uz.text).toMatch(/[oOgG]ʻ/);
  for (const t of [en, ru, uz]) expect(t.pages).toBeLessThanOrEqual(3);

  const html = await get(`/api/valuations/${valued.valuation_id}/report?format=html&lang=ru`, bank);
  expect(html.status).toBe(200);
  expect(html.headers.get('content-type')).toMatch(/^text\/html/);
  // The page loads and runs nothing, by a header and not only a <meta> (issue 33, finding 12).
  expect(html.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
  const page = await html.text();
  expect(page).toContain(valued.valuation_id);
  expect(page).toContain('<svg');
  expect(page).toMatch(/<html[^>]*lang="ru"/);

  expect((await get(`/api/valuations/${valued.valuation_id}/report`, stack.newKey())).status).toBe(404);
  const badLang = await get(`/api/valuations/${valued.valuation_id}/report?lang=fr`, bank);
  expect(badLang.status).toBe(400);
  expect((await json(badLang)).error).toMatchObject({ field: 'lang' });
});

it('a car\'s report and a soʻm valuation\'s report render too', async () => {
  const bank = stack.newKey();
  const car = await json(await stack.post('/api/predict/vehicle', { make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000 }, { 'x-api-key': bank }));
  const inSom = await json(await stack.post('/api/predict/home', { ...FLAT, currency: 'UZS' }, { 'x-api-key': bank }));
  const carPdf = Buffer.from(await (await get(`/api/valuations/${car.valuation_id}/report`, bank)).arrayBuffer());
  const somPdf = Buffer.from(await (await get(`/api/valuations/${inSom.valuation_id}/report`, bank)).arrayBuffer());
  const [carText, somText] = await pdfTexts([carPdf, somPdf]);
  expect(carText.text.replace(/\s+/g, ' ')).toContain(formatNumber(car.estimate, 'en'));
  expect(carText.text).toMatch(/Cobalt/);
  // Every label in the report's language (issue 33, finding 12: "engine" was printed as the key).
  const carHtml = await (await get(`/api/valuations/${car.valuation_id}/report?format=html&lang=ru`, bank)).text();
  expect(carHtml).toContain('Объём двигателя, л');
  expect(carHtml).not.toMatch(/>engine</);
  expect(somText.text.replace(/\s+/g, ' ')).toContain(formatNumber(inSom.estimate, 'en'));
});

it("comparables in the flat's own mahalla, both placed at its centre, read \"same mahalla\" rather than 0.0 km (issue 35, item 6)", async () => {
  const bank = stack.newKey();
  // No coordinates: the flat is at Qatortol's centre, as are the listings of Qatortol that gave none.
  const valued = await json(await stack.post('/api/predict/home', FLAT, { 'x-api-key': bank }));
  const asked = await json(
    await stack.post(
      '/graphql',
      { query: 'query($i: HomeValuationInput!) { comparableListings(input: $i, n: 5) { mahallaId distanceKm } }', variables: { i: { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, totalFloors: 9, market: 'resale', renovation: 'Evro' } } },
      { 'x-api-key': bank },
    ),
  );
  const listings = asked.data.comparableListings as { mahallaId: string | null; distanceKm: number | null }[];
  const atCentre = listings.filter((c) => c.mahallaId === 'chilanzar/katartal' && c.distanceKm !== null && c.distanceKm < 0.05).length;
  expect(atCentre).toBeGreaterThan(0);
  for (const [lang, words] of [['en', 'same mahalla'], ['ru', 'та же махалля'], ['uz', 'shu mahalla']] as const) {
    const page = await (await get(`/api/valuations/${valued.valuation_id}/report?format=html&lang=${lang}`, bank)).text();
    const comparables = page.slice(page.indexOf('<section id="comparables">'), page.indexOf('</section>', page.indexOf('<section id="comparables">')));
    expect(comparables.split(`<td class="num">${words}</td>`).length - 1).toBe(atCentre);
    expect(comparables).not.toMatch(/<td class="num">0[.,]0<\/td>/);
  }
});
