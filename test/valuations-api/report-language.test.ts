/**
 * Issue 35, item 6: reports in the reader's language and numbers, over HTTP to the real stack.
 * One number format per language, district and mahalla names in the language, and "what drives the
 * estimate" as the flat's own field groups against its district's typical flat, valued at report
 * time by the model in service (internal, not charged as a valuation).
 */
import { join } from 'node:path';
import { formatNumber } from '../../gateway/reports/format';
import { comparablesTable, typicalFlat } from '../../models/residential';
import { plansFileWith } from '../support/plans';
import { json, startTestStack, type TestStack } from '../support/stack';

/** A plan of four valuations a day: the flat's, and the location index each of its three reports reads. */
const FOUR_VALUATIONS = 'four-valuations';
/** A plan of one valuation a day: the car's (a car's report reads no location index). */
const ONE_VALUATION = 'one-valuation';
const plansFile = plansFileWith({
  [FOUR_VALUATIONS]: { quota: { perMinute: 1000, perDay: 1000 }, valuations: { perMinute: 1000, perDay: 4 }, reports: { perMinute: 100, perDay: 100 }, maxBatchItems: 100, batchItemsPerDay: 100 },
  [ONE_VALUATION]: { quota: { perMinute: 1000, perDay: 1000 }, valuations: { perMinute: 1000, perDay: 1 }, reports: { perMinute: 100, perDay: 100 }, maxBatchItems: 100, batchItemsPerDay: 100 },
});

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { PLANS_FILE: plansFile } });
});
afterAll(() => stack?.stop());

const FLAT = { district: 'Chilanzar', mahalla: 'Qatortol', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale', renovation: 'Evro' };
const get = (path: string, key: string) => stack.fetch(path, { headers: { 'x-api-key': key } });

/** The words a reader sees: no style sheet, no drawing, no tags; entities of the escaper undone. */
function visibleText(page: string): string {
  return page
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

function section(page: string, id: string): string {
  const start = page.indexOf(`<section id="${id}">`);
  expect(start).toBeGreaterThanOrEqual(0);
  return page.slice(start, page.indexOf('</section>', start));
}

async function reportHtml(id: string, lang: string, key: string): Promise<string> {
  const response = await get(`/api/valuations/${id}/report?format=html&lang=${lang}`, key);
  if (response.status !== 200) throw new Error(`report: ${response.status} ${await response.text()}`);
  return response.text();
}

it('every number in a report is written the one way of its language: ru and uz 98 600 and 1,039; en 98,600 and 1.039', async () => {
  const bank = stack.newKey();
  const valued = await json(await stack.post('/api/predict/home', FLAT, { 'x-api-key': bank }));
  const car = await json(await stack.post('/api/predict/vehicle', { make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000 }, { 'x-api-key': bank }));
  for (const { id, version } of [{ id: valued.valuation_id, version: valued.model_version }, { id: car.valuation_id, version: car.model_version }]) {
    for (const lang of ['ru', 'uz']) {
      // The model version (2026.11.25) is an identifier, not a number.
      const text = visibleText(await reportHtml(id, lang, bank)).split(version).join(' ');
      expect(text).not.toMatch(/\d,\d{3}(?:,\d{3})*(?:[\u00a0 ](?:USD|сум|soʻm)|,\d{3})/); // no English thousands separator
      expect(text).not.toMatch(/\d\.\d/); // no decimal point
      expect(text).not.toMatch(/\d \d{3}(?!\d)/); // groups joined by a no-break space, never a breaking one
      expect(text).toMatch(/\d,\d/); // decimals with a comma
      expect(text).toMatch(/\d\u00a0\d{3}/);
      // Russian puts a no-break space before %, Uzbek none.
      if (lang === 'ru') expect(text).not.toMatch(/\d%/);
      else expect(text).not.toMatch(/\d\s%/);
    }
    const en = visibleText(await reportHtml(id, 'en', bank)).split(version).join(' ');
    expect(en).not.toMatch(/\d\u00a0\d{3}/);
    expect(en).not.toMatch(/\d,\d{1,2}(?!\d)/); // no decimal comma
    expect(en).toMatch(/\d,\d{3}/);
    expect(en).toMatch(/\d\.\d/);
  }
  const ru = visibleText(await reportHtml(valued.valuation_id, 'ru', bank));
  expect(ru).toContain(`${formatNumber(valued.estimate, 'ru')}\u00a0USD`);
});

it('district and mahalla are named in the report\'s language: Chilanzar/Katartal, Чиланзар/Катартал, Chilonzor', async () => {
  const bank = stack.newKey();
  const valued = await json(await stack.post('/api/predict/home', FLAT, { 'x-api-key': bank }));
  const names = { en: ['Chilanzar', 'Katartal'], ru: ['Чиланзар', 'Катартал'], uz: ['Chilonzor', 'Katartal'] } as const;
  for (const [lang, [district, mahalla]] of Object.entries(names)) {
    const page = await reportHtml(valued.valuation_id, lang, bank);
    for (const id of ['object', 'market']) {
      const text = visibleText(section(page, id));
      expect(text).toContain(district);
      expect(text).toContain(mahalla);
      if (lang !== 'en') expect(text).not.toContain('Chilanzar');
    }
    if (lang === 'ru') expect(visibleText(section(page, 'comparables'))).toContain('Катартал');
  }
});

it('"what drives the estimate" is the flat\'s own area, place, floor … against its district\'s typical flat, valued at report time, and charges no valuation', async () => {
  const bank = stack.newKey(FOUR_VALUATIONS);
  const valued = await json(await stack.post('/api/predict/home', FLAT, { 'x-api-key': bank }));
  // A report's one charged valuation is the location index it reads, as before: the attribution takes none.
  const page = await reportHtml(valued.valuation_id, 'en', bank);
  const ru = await reportHtml(valued.valuation_id, 'ru', bank);
  const uz = await reportHtml(valued.valuation_id, 'uz', bank);
  expect((await stack.post('/api/predict/home', FLAT, { 'x-api-key': bank })).status).toBe(429);

  const confidence = section(page, 'confidence');
  expect(confidence).not.toMatch(/Ensemble member/);
  expect(visibleText(confidence)).toContain('What changes if this were the district’s typical flat');
  expect(visibleText(confidence)).toContain(`model version ${valued.model_version}`);
  const rows = [...confidence.matchAll(/<tr><td>([^<]+)<\/td><td>([^<]+)<\/td><td class="num">([^<]+)<\/td><td class="num">([^<]+)<\/td><\/tr>/g)].map((m) => m.slice(1));
  expect(rows.length).toBeGreaterThanOrEqual(2);
  expect(rows.length).toBeLessThanOrEqual(5);
  const usd = (cell: string) => Number(cell.replace(/\u2212/g, '-').replace(/[^\d-]/g, ''));
  // Largest first.
  const sizes = rows.map((r) => Math.abs(usd(r[2])));
  expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);

  // The size line is the change to the same flat with the district's median area and rooms, as the model values it.
  const typical = typicalFlat('chilanzar', comparablesTable().inDistrict('chilanzar'))!;
  const size = rows.find((r) => r[0] === 'Area and rooms');
  expect(size).toBeDefined();
  expect(size![1]).toContain(`${formatNumber(typical.area, 'en', Number.isInteger(typical.area) ? 0 : 1)}\u00a0m²`);
  const other = stack.newKey();
  const base = await json(await stack.post('/api/predict/home', FLAT, { 'x-api-key': other }));
  const asTypical = await json(await stack.post('/api/predict/home', { ...FLAT, area: typical.area, rooms: typical.rooms }, { 'x-api-key': other }));
  expect(base.estimate).toBe(valued.estimate);
  expect(usd(size![2])).toBe(Math.round((asTypical.estimate - base.estimate) / 100) * 100);

  // In Russian and Uzbek too, with the statement of what the lines are.
  expect(visibleText(section(ru, 'confidence'))).toContain('Что изменится, если бы это была типичная квартира района');
  expect(visibleText(section(ru, 'confidence'))).toContain('Площадь и комнаты');
  expect(visibleText(section(uz, 'confidence'))).toContain('Bu tumanning odatiy kvartirasi boʻlsa nima oʻzgaradi');

  // Internal: no client can ask for it through /graphql.
  const asked = await stack.post('/graphql', { query: `{ homeEstimateAttribution(id: "${valued.valuation_id}") }` }, { 'x-api-key': other });
  expect((await json(asked)).errors?.[0]?.message).toMatch(/Cannot query field/);
});

it('a car\'s "what drives the estimate" lists no ensemble member: the members stand under their own label with their weights', async () => {
  const bank = stack.newKey();
  const car = await json(await stack.post('/api/predict/vehicle', { make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000 }, { 'x-api-key': bank }));
  const label = { en: ['What drives the estimate', 'Ensemble members', 'Weight'], ru: ['Что определяет оценку', 'Модели ансамбля', 'Вес'], uz: ['Bahoni belgilovchi omillar', 'Ansambl modellari', 'Vazn'] } as const;
  for (const valued of [car]) {
    expect(valued.models.length).toBeGreaterThanOrEqual(1);
    for (const lang of ['en', 'ru', 'uz'] as const) {
      const confidence = section(await reportHtml(valued.valuation_id, lang, bank), 'confidence');
      const [drives, heading, weight] = label[lang];
      const driversStart = confidence.indexOf(drives);
      const membersStart = confidence.indexOf(`>${heading}<`);
      expect(driversStart).toBeGreaterThanOrEqual(0);
      expect(membersStart).toBeGreaterThan(driversStart);
      // Under "what drives the estimate", up to the members' own label: no member named.
      const drivers = confidence.slice(driversStart, membersStart);
      for (const m of valued.models) expect(drivers).not.toContain(m.name);
      const members = confidence.slice(membersStart);
      expect(members).toContain(weight);
      // Each member's row: its name, its estimate and its weight, in the language's numbers.
      for (const m of valued.models as { name: string; estimate: number; weight: number }[]) {
        expect(members).toContain(`<tr><td>${m.name}</td><td class="num">${formatNumber(m.estimate, lang)}</td><td class="num">${formatNumber(m.weight, lang, 3)}</td></tr>`);
      }
    }
  }
});

it('a car\'s "what drives the estimate" is its own model year and mileage against its make and model\'s typical car, valued at report time, beside the members, and charges no valuation (issue 35, item 6)', async () => {
  const bank = stack.newKey(ONE_VALUATION);
  // Only year and mileage said: the only groups it can differ from the typical car in.
  const CAR = { make: 'Chevrolet', model: 'Cobalt', year: 2015, mileage: 190000 };
  const valued = await json(await stack.post('/api/predict/vehicle', CAR, { 'x-api-key': bank }));
  const label = {
    en: ['What drives the estimate', 'The make and model’s typical car', 'What changes if this were the make and model’s typical car', 'Ensemble members', 'Model year', 'Mileage'],
    ru: ['Что определяет оценку', 'Типичный автомобиль этой марки и модели', 'Что изменится, если бы это был типичный автомобиль этой марки и модели', 'Модели ансамбля', 'Год выпуска', 'Пробег'],
    uz: ['Bahoni belgilovchi omillar', 'Shu marka va modelning odatiy avtomobili', 'Bu shu marka va modelning odatiy avtomobili boʻlsa nima oʻzgaradi', 'Ansambl modellari', 'Ishlab chiqarilgan yili', 'Yurgan masofasi'],
  } as const;
  const pages: Record<string, string> = {};
  for (const lang of ['en', 'ru', 'uz'] as const) {
    const confidence = section(await reportHtml(valued.valuation_id, lang, bank), 'confidence');
    pages[lang] = confidence;
    const [drives, typical, note, members, year, mileage] = label[lang];
    const text = visibleText(confidence);
    for (const words of [drives, typical, note, year, mileage]) expect(text).toContain(words);
    expect(text).toContain(valued.model_version);
    // The attribution first, the members after it under their own label, with their weights.
    expect(confidence.indexOf(`>${members}<`)).toBeGreaterThan(confidence.indexOf(typical));
    for (const m of valued.models as { name: string }[]) expect(confidence.slice(confidence.indexOf(`>${members}<`))).toContain(`<tr><td>${m.name}</td>`);
  }
  // The plan's one valuation was the car's: three reports later there is none left, the attribution took none.
  expect((await stack.post('/api/predict/vehicle', CAR, { 'x-api-key': bank })).status).toBe(429);

  const rows = [...pages.en.matchAll(/<tr><td>([^<]+)<\/td><td>([^<]+)<\/td><td class="num">([^<]+)<\/td><td class="num">([^<]+)<\/td><\/tr>/g)].map((m) => m.slice(1));
  expect(rows.map((r) => r[0]).sort()).toEqual(['Mileage', 'Model year']);
  const usd = (cell: string) => Number(cell.replace(/\u2212/g, '-').replace(/[^\d-]/g, ''));
  const sizes = rows.map((r) => Math.abs(usd(r[2])));
  expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
  // Each line is the change to the same car with its make and model's typical year (mileage), as the model values it.
  const other = stack.newKey();
  const base = await json(await stack.post('/api/predict/vehicle', CAR, { 'x-api-key': other }));
  expect(base.estimate).toBe(valued.estimate);
  const year = rows.find((r) => r[0] === 'Model year')!;
  const mileage = rows.find((r) => r[0] === 'Mileage')!;
  expect(year[1]).toMatch(/^\d{4}$/);
  const typicalKm = Number(/^([\d,]+)\u00a0km$/.exec(mileage[1])![1].replace(/,/g, ''));
  const atTypicalYear = await json(await stack.post('/api/predict/vehicle', { ...CAR, year: Number(year[1]) }, { 'x-api-key': other }));
  const atTypicalMileage = await json(await stack.post('/api/predict/vehicle', { ...CAR, mileage: typicalKm }, { 'x-api-key': other }));
  expect(usd(year[2])).toBe(Math.round((atTypicalYear.estimate - base.estimate) / 100) * 100);
  expect(usd(mileage[2])).toBe(Math.round((atTypicalMileage.estimate - base.estimate) / 100) * 100);
  // An older, more driven car than the typical one: the typical year and mileage would each raise the estimate.
  expect(usd(year[2])).toBeGreaterThan(0);
  expect(usd(mileage[2])).toBeGreaterThan(0);

  // Internal: no client can ask for it through /graphql.
  const asked = await stack.post('/graphql', { query: `{ vehicleEstimateAttribution(id: "${valued.valuation_id}") }` }, { 'x-api-key': other });
  expect((await json(asked)).errors?.[0]?.message).toMatch(/Cannot query field/);
});

it('a house\'s "what drives the estimate" is its own floor area, plot, storeys … against its district\'s typical house, valued at report time (issue 35, item 6)', async () => {
  const bank = stack.newKey();
  const HOUSE = { district: 'Yunusabad', property_type: 'house', area: 200, land_area: 6, rooms: 5, total_floors: 2 };
  const valued = await json(await stack.post('/api/predict/home', HOUSE, { 'x-api-key': bank }));
  const typicalTitle = { en: 'The district’s typical house', ru: 'Типичный дом района', uz: 'Tumanning odatiy uyi' } as const;
  for (const lang of ['en', 'ru', 'uz'] as const) {
    const confidence = section(await reportHtml(valued.valuation_id, lang, bank), 'confidence');
    expect(visibleText(confidence)).toContain(typicalTitle[lang]);
    for (const m of valued.models) expect(confidence).not.toContain(`<td>${m.name}</td>`);
  }
  const confidence = section(await reportHtml(valued.valuation_id, 'en', bank), 'confidence');
  const rows = [...confidence.matchAll(/<tr><td>([^<]+)<\/td><td>([^<]+)<\/td><td class="num">([^<]+)<\/td><td class="num">([^<]+)<\/td><\/tr>/g)].map((m) => m.slice(1));
  expect(rows.length).toBeGreaterThanOrEqual(2);
  const usd = (cell: string) => Number(cell.replace(/\u2212/g, '-').replace(/[^\d-]/g, ''));
  const sizes = rows.map((r) => Math.abs(usd(r[2])));
  expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
  // The plot line is the change to the same house with the district's typical plot, as the model values it.
  const plot = rows.find((r) => r[0] === 'Plot');
  expect(plot).toBeDefined();
  const typicalSotka = Number(/([\d.]+)\u00a0?\s?sotka/.exec(plot![1])![1]);
  const other = stack.newKey();
  const base = await json(await stack.post('/api/predict/home', HOUSE, { 'x-api-key': other }));
  const asTypical = await json(await stack.post('/api/predict/home', { ...HOUSE, land_area: typicalSotka }, { 'x-api-key': other }));
  expect(base.estimate).toBe(valued.estimate);
  expect(usd(plot![2])).toBe(Math.round((asTypical.estimate - base.estimate) / 100) * 100);
});

it("a valuation converted at the client's own exchange_rate says so in the report's language, with the rate (issue 35, item 5)", async () => {
  const bank = stack.newKey();
  const valued = await json(await stack.post('/api/predict/home', { ...FLAT, currency: 'UZS', exchange_rate: 12_650.5 }, { 'x-api-key': bank }));
  expect(valued.exchange_rate.usd_to_uzs).toBe(12_650.5);
  const said = { en: "At your organisation's own rate, sent with the request: 12,650.50 soʻm", ru: 'По курсу вашей организации, переданному с запросом: 12\u00a0650,50 сум', uz: 'Tashkilotingiz soʻrov bilan yuborgan kurs boʻyicha: 1 AQSH dollari = 12\u00a0650,50 soʻm' };
  for (const [lang, text] of Object.entries(said)) {
    const page = visibleText(await reportHtml(valued.valuation_id, lang, bank));
    expect(page).toContain(text);
    expect(page).not.toMatch(/Central Bank|Центрального банка|Markaziy bank/);
  }
});

it('names the accuracy figure it quotes (median APE, not MAPE) and the class in the one vocabulary (issue 35, item 7)', async () => {
  const bank = stack.newKey();
  const valued = await json(await stack.post('/api/predict/home', FLAT, { 'x-api-key': bank }));
  const model = await json(await stack.post('/graphql', { query: '{ residentialModel { districts { district accuracyClass } } }' }, { 'x-api-key': bank }));
  const chilanzar = model.data.residentialModel.districts.find((d: { district: string }) => d.district.toLowerCase() === 'chilanzar');
  const words: Record<string, Record<string, string>> = {
    en: { high: 'High', good: 'Good', fair: 'Fair', low: 'Low', metric: 'median absolute percentage error (median APE)' },
    ru: { high: 'Высокий', good: 'Хороший', fair: 'Удовлетворительный', low: 'Низкий', metric: 'медианная абсолютная процентная ошибка (медианная APE)' },
    uz: { high: 'Yuqori', good: 'Yaxshi', fair: 'Qoniqarli', low: 'Past', metric: 'median mutlaq foiz xatosi (median APE)' },
  };
  for (const [lang, w] of Object.entries(words)) {
    const text = visibleText(await reportHtml(valued.valuation_id, lang, bank));
    expect(text).toContain(w.metric);
    expect(text).toContain(w[chilanzar.accuracyClass]);
    expect(text).not.toMatch(/\b(?:Medium|Moderate|Умеренный|Moʻtadil)\b/);
  }
});
