/**
 * The credit-committee report renderer (issue 19): PDF and HTML in English, Russian and Uzbek for
 * a Chilanzar flat and a Chevrolet Cobalt. PDF text is read back with pdf-parse (pdf.js), so the
 * checks see what a reader's viewer sees: the estimate as the language writes it, the ids, the
 * disclaimer, Cyrillic and the Uzbek oʻ/gʻ.
 */
import { renderReportHtml, renderReportPdf, REPORT_LANGUAGES, type ReportLanguage, type ValuationReportData } from '../../gateway/reports';
import { escapeHtml } from '../../gateway/reports/html';
import { DICTIONARIES } from '../../gateway/reports/i18n';
import { BACKTEST_CATALOGUES } from '../../gateway/reports/backtest-i18n';
import { FONT_FILES, fontPath, reportFonts } from '../../gateway/reports/fonts';
import { formatDate, formatNumber, formatPercent, formatUsd, formatUzs } from '../../gateway/reports/format';
import { pdfTexts, type PdfText } from '../support/pdf-text';
import { chilanzarFlat, cobaltCar } from './fixtures';

// fontkit ships no types; the one call the glyph check needs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fontkit = require('fontkit') as { openSync(path: string): { hasGlyphForCodePoint(codePoint: number): boolean } };

/** Any run of white space (the no-break spaces in 78 500 included) as one plain space. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** A phrase of the disclaimer that must reach the reader, and a phrase only that language has. */
const PHRASES: Record<ReportLanguage, { disclaimer: string; language: string }> = {
  en: { disclaimer: 'asking price', language: 'Collateral valuation report' },
  ru: { disclaimer: 'цены предложения', language: 'Отчёт об оценке залогового имущества' },
  uz: { disclaimer: 'soʻralgan narx', language: 'Kredit qoʻmitasi uchun' },
};

describe('formatting per language', () => {
  test('amounts group digits with a comma (en) or a no-break space (ru, uz)', () => {
    expect(formatUsd(78500, 'en')).toBe('78,500\u00a0USD');
    expect(formatUsd(78500, 'ru')).toBe('78\u00a0500\u00a0USD');
    expect(formatUsd(78500, 'uz')).toBe('78\u00a0500\u00a0USD');
    expect(formatUzs(993_060_000, 'uz')).toBe('993\u00a0060\u00a0000\u00a0soʻm');
    expect(formatUzs(993_060_000, 'ru')).toBe('993\u00a0060\u00a0000\u00a0сум');
    expect(formatNumber(12650.45, 'en', 2)).toBe('12,650.45');
    expect(formatNumber(12650.45, 'ru', 2)).toBe('12\u00a0650,45');
    expect(formatNumber(-0.021, 'ru', 3)).toBe('\u22120,021');
    expect(formatPercent(0.9, 'ru')).toBe('90\u00a0%');
    expect(formatPercent(0.094, 'en', 1)).toBe('9.4%');
  });

  test('dates in words, each language its own way', () => {
    expect(formatDate('2026-03-12', 'en')).toBe('12 March 2026');
    expect(formatDate('2026-03-12', 'ru')).toBe('12 марта 2026 г.');
    expect(formatDate('2026-03-12', 'uz')).toBe('2026-yil 12-mart');
    expect(formatDate('not a date', 'en')).toBe('not a date');
  });
});

/** Every string a dictionary can print: functions are called with sample arguments. */
function dictionaryStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function') return dictionaryStrings((value as (...args: number[]) => unknown)(1, 2, 3));
  if (Array.isArray(value)) return value.flatMap(dictionaryStrings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(dictionaryStrings);
  return [];
}

describe('dictionaries', () => {
  test('Uzbek writes oʻ and gʻ with U+02BB and the tutuq belgisi with U+02BC, never with a quote mark', () => {
    const uz = [...dictionaryStrings(DICTIONARIES.uz), ...dictionaryStrings(BACKTEST_CATALOGUES.uz)];
    const wrong = uz.filter((s) => /[OoGg]['‘’`´]|[a-z]['’][a-z]/.test(s));
    expect(wrong).toEqual([]);
    expect(uz.some((s) => s.includes('oʻ'))).toBe(true);
    expect(uz.some((s) => s.includes('gʻ'))).toBe(true);
  });

  test('Russian text is Cyrillic and the three dictionaries differ everywhere they should', () => {
    expect(DICTIONARIES.ru.title).toMatch(/^[\u0400-\u04ff\s]+$/);
    for (const key of ['object', 'estimate', 'flags', 'disclaimer'] as const) {
      expect(new Set(REPORT_LANGUAGES.map((l) => DICTIONARIES[l].sections[key])).size).toBe(3);
    }
  });

  test('every character the report can print has a glyph in every embedded DejaVu font (no missing-glyph boxes)', () => {
    const characters = new Set<number>();
    // The backtest report's catalogues too: the same fonts print them.
    for (const lang of REPORT_LANGUAGES) for (const s of [...dictionaryStrings(DICTIONARIES[lang]), ...dictionaryStrings(BACKTEST_CATALOGUES[lang])]) for (const c of s) characters.add(c.codePointAt(0)!);
    // Characters format.ts adds: no-break space, true minus, ×, en dash, the range dash, digits.
    for (const c of '\u00a0\u2212×–—0123456789,.%') characters.add(c.codePointAt(0)!);
    expect(characters.has(0x02bb)).toBe(true);
    for (const file of Object.values(FONT_FILES)) {
      const font = fontkit.openSync(fontPath(file));
      const missing = [...characters].filter((c) => !font.hasGlyphForCodePoint(c)).map((c) => `U+${c.toString(16).toUpperCase()}`);
      expect({ file, missing }).toEqual({ file, missing: [] });
    }
  });
});

describe('PDF', () => {
  const flatData = chilanzarFlat();
  const carData = cobaltCar();
  const rendered = new Map<string, { pdf: Buffer; text: PdfText }>();

  // Six reports rendered once, their text read back in one batch.
  beforeAll(async () => {
    const cases = REPORT_LANGUAGES.flatMap((lang) => [[`flat-${lang}`, flatData, lang], [`car-${lang}`, carData, lang]] as const);
    const pdfs = await Promise.all(cases.map(([, data, lang]) => renderReportPdf(data, lang)));
    const texts = await pdfTexts(pdfs);
    cases.forEach(([key], i) => rendered.set(key, { pdf: pdfs[i], text: texts[i] }));
  });

  test.each(REPORT_LANGUAGES)('%s: a Chilanzar flat is a parsable A4 PDF of at most 3 pages with the estimate, the id, the disclaimer and the language', (lang) => {
    const { pdf, text } = rendered.get(`flat-${lang}`)!;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('/MediaBox [0 0 595.28 841.89]');
    expect(text.pages).toBeGreaterThanOrEqual(1);
    expect(text.pages).toBeLessThanOrEqual(3);
    const plain = flat(text.text);
    expect(plain).toContain(flat(formatUsd(flatData.estimate, lang)));
    expect(plain).toContain(flatData.valuationId);
    expect(plain).toContain(PHRASES[lang].disclaimer);
    expect(plain).toContain(PHRASES[lang].language);
    // The mahalla, the market section and the map caption are there for a flat, and the soʻm.
    expect(plain).toContain('Katartal');
    expect(plain).toContain(DICTIONARIES[lang].sections.market);
    expect(plain).toContain(DICTIONARIES[lang].location.mapCaption);
    expect(plain).toContain(flat(formatUzs(flatData.uzs!.estimate, lang)));
    if (lang === 'ru') expect(plain).toContain('Уверенность');
    if (lang === 'uz') expect(plain).toMatch(/\p{L}*[oOgG]\u02bb\p{L}*/u);
  });

  test.each(REPORT_LANGUAGES)('%s: a Cobalt renders without the market and location sections', (lang) => {
    const { pdf, text } = rendered.get(`car-${lang}`)!;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const plain = flat(text.text);
    expect(plain).toContain(flat(formatUsd(carData.estimate, lang)));
    expect(plain).toContain(carData.valuationId);
    expect(plain).toContain(PHRASES[lang].disclaimer);
    expect(plain).toContain(DICTIONARIES[lang].sections.comparables);
    expect(plain).not.toContain(DICTIONARIES[lang].sections.market);
    expect(plain).not.toContain(DICTIONARIES[lang].sections.location);
  });
});

test('the PDF is fixed by its input: the same data renders to the same bytes', async () => {
  const data = chilanzarFlat();
  const [a, b] = await Promise.all([renderReportPdf(data, 'uz'), renderReportPdf(data, 'uz')]);
  expect(a.equals(b)).toBe(true);
});

test('a letter drawn inside another (Cyrillic В is the Latin B in DejaVu) keeps its code point for later documents, so copied text keeps it', async () => {
  type Glyph = { id: number; codePoints: number[] };
  type Font = { layout(text: string): { glyphs: Glyph[] }; createSubset(): { includeGlyph(glyph: Glyph): number; encode(): unknown } };
  for (const [name, font] of Object.entries(reportFonts()) as [string, unknown][]) {
    const shared = font as Font;
    // A Russian document's subset reaches B as Ve's component, asking for it without code points.
    const subset = shared.createSubset();
    for (const glyph of shared.layout('В ВЫ Банк').glyphs) subset.includeGlyph(glyph);
    subset.encode();
    expect([name, shared.layout('B').glyphs[0].codePoints]).toEqual([name, [0x42]]);
  }
  // A whole report: English after Russian in one process reads its B's back.
  await renderReportPdf(chilanzarFlat(), 'ru');
  const [{ text }] = await pdfTexts([await renderReportPdf(chilanzarFlat(), 'en')]);
  expect(text).toMatch(/\bB/);
  expect(text).not.toMatch(/(^|\s)uilding\b/m);
});

test('an unknown language is refused', async () => {
  await expect(renderReportPdf(chilanzarFlat(), 'de' as ReportLanguage)).rejects.toThrow(/Unknown report language/);
  expect(() => renderReportHtml(chilanzarFlat(), 'de' as ReportLanguage)).toThrow(/Unknown report language/);
});

/** The x of an attribute of the first element matching `selector` (class name) in the HTML. */
function attribute(html: string, element: string, cls: string, name: string): number {
  const tag = new RegExp(`<${element} class="${cls}"[^>]*>`).exec(html)?.[0];
  if (!tag) throw new Error(`no <${element} class="${cls}">`);
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return Number(value);
}

describe('HTML', () => {
  const hostile = '<script>alert(1)</script> & Co';

  function hostileFlat(): ValuationReportData {
    const data = chilanzarFlat();
    data.object.mahalla = hostile;
    data.market!.mahalla = hostile;
    data.comparables[0].label = `"Lux" 3-room, O'Hara's <b>`;
    data.attribution = null; // the members are shown without one
    data.members.push({ name: '<img src=x onerror=alert(2)>', usd: 1, weight: 0.5 });
    data.anomalyFlags.push('<svg onload=alert(3)>');
    return data;
  }

  test.each(REPORT_LANGUAGES)('%s: everything from the data is escaped; no script, no external request', (lang) => {
    const html = renderReportHtml(hostileFlat(), lang);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<svg onload/i);
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(html).toContain('&quot;Lux&quot; 3-room, O&#39;Hara&#39;s &lt;b&gt;');
    // No tag loads anything: no src or href, no URL but the SVG namespace (a name, not a request).
    const tags = html.match(/<[a-zA-Z][^>]*>/g)!.map((tag) => tag.replace(' xmlns="http://www.w3.org/2000/svg"', ''));
    expect(tags.filter((tag) => /\s(src|href|xlink:href|on[a-z]+)=|https?:|url\(/i.test(tag))).toEqual([]);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  });

  test.each(REPORT_LANGUAGES)('%s: lang attribute, the sections in order, the bar with the estimate between low and high', (lang) => {
    const data = chilanzarFlat();
    const html = renderReportHtml(data, lang);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(`<html lang="${lang}">`);
    const order = [...html.matchAll(/<section id="([a-z]+)">/g)].map((m) => m[1]);
    expect(order).toEqual(['object', 'estimate', 'confidence', 'market', 'comparables', 'location', 'flags', 'model', 'adjustment', 'disclaimer']);
    for (const id of order) expect(html).toContain(DICTIONARIES[lang].sections[id as keyof typeof DICTIONARIES.en.sections]);

    const lowX = attribute(html, 'rect', 'interval', 'x');
    const highX = lowX + attribute(html, 'rect', 'interval', 'width');
    const estimateX = attribute(html, 'line', 'estimate', 'x1');
    expect(lowX).toBeLessThan(estimateX);
    expect(estimateX).toBeLessThan(highX);
    // Placed in proportion: the estimate is 46% of the way from low to high.
    const share = (data.estimate - data.interval.low) / (data.interval.high - data.interval.low);
    expect((estimateX - lowX) / (highX - lowX)).toBeCloseTo(share, 2);
    expect(html).toContain(escapeText(formatUsd(data.estimate, lang)));
    expect(html).toContain(escapeText(formatUzs(data.uzs!.low, lang)));
    // The map: the district outline and the point.
    expect(html).toMatch(/<path class="district" d="M[\d. L]+Z/);
    expect(html).toContain('<circle class="point"');
  });

  test.each(REPORT_LANGUAGES)('%s: a Cobalt has no market and no location section, and no map', (lang) => {
    const html = renderReportHtml(cobaltCar(), lang);
    expect(html).not.toContain('<section id="market">');
    expect(html).not.toContain('<section id="location">');
    expect(html).not.toContain('<svg class="map"');
    expect(html).toContain('<svg class="interval-bar"');
    expect(html).toContain(DICTIONARIES[lang].flags.none);
    // Columns no car fills (area, rooms, floor, distance) are left out of the comparables.
    expect(html).not.toContain(DICTIONARIES[lang].comparables.columns.rooms);
  });

  test.each(REPORT_LANGUAGES)('%s: a car\'s "what drives the estimate" is its table against the typical car, with the members after it (issue 35, item 6)', (lang) => {
    const data = cobaltCar();
    data.attribution = {
      kind: 'vehicle', modelVersion: '2026.11.3', estimate: 11200, level: 'model',
      typical: { year: 2020, mileageKm: 65000, engineLitres: 1.5, fuel: 'petrol', transmission: 'manual', body: 'sedan', drive: 'front', trim: 2, defects: false, region: 'tashkent_city', listings: 3089 },
      contributions: [{ group: 'mileage', usd: 600, share: 0.054 }, { group: 'year', usd: -500, share: -0.045 }, { group: 'fuel', usd: 200, share: 0.018 }, { group: 'region', usd: 100, share: 0.009 }],
    };
    const t = DICTIONARIES[lang];
    const html = renderReportHtml(data, lang);
    const confidence = html.slice(html.indexOf('<section id="confidence">'), html.indexOf('</section>', html.indexOf('<section id="confidence">')));
    const at = (text: string) => confidence.indexOf(escapeText(text));
    expect(at(t.attribution.vehicle.typical.model)).toBeGreaterThan(at(t.confidence.drivers));
    expect(at(t.members.heading)).toBeGreaterThan(at(t.attribution.vehicle.typical.model));
    expect(confidence).toContain(escapeText(t.attribution.vehicle.note.model(3089, { listings: formatNumber(3089, lang), version: '2026.11.3' })));
    // Largest first, each group named with what the typical car had.
    expect(at(t.attribution.vehicle.groups.mileage)).toBeLessThan(at(t.attribution.vehicle.groups.year));
    expect(at(t.attribution.vehicle.groups.year)).toBeLessThan(at(t.attribution.vehicle.groups.fuel));
    expect(confidence).toContain(`<td>${escapeText(`${formatNumber(65000, lang)}\u00a0${t.units.km}`)}</td>`);
    expect(confidence).toContain('<td>2020</td>');
    expect(confidence).toContain(`<td>${escapeText(t.objectValues.fuel.petrol)}</td>`);
    // A region by its name in the language, not its code.
    expect(confidence).toContain(`<td>${escapeText(t.objectValues.region.tashkent_city)}</td>`);
    expect(confidence).not.toContain('tashkent_city');
    // The members stand after it, by name.
    expect(confidence.slice(at(t.members.heading))).toContain('<td>lightgbm</td>');
  });

  test.each(REPORT_LANGUAGES)('%s: a flat sent without its market says it was valued as a new build and as resale, with the probability', (lang) => {
    const data = chilanzarFlat();
    data.object.market = null;
    data.marketMixture = { newBuildProbability: 0.514 };
    const html = renderReportHtml(data, lang);
    expect(html).toContain(escapeText(DICTIONARIES[lang].marketNotGiven(formatPercent(0.514, lang))));
    expect(html).toContain(lang === 'ru' ? '51\u00a0%' : '51%');
    // Without a mixture (a record made before it, or a model without one) the market is missing as before.
    const before = renderReportHtml({ ...data, marketMixture: null }, lang);
    expect(before).not.toContain(escapeText(DICTIONARIES[lang].marketNotGiven(formatPercent(0.514, lang))));
  });

  test('known flags are explained in the language, unknown ones shown as they are', () => {
    const data = chilanzarFlat();
    data.anomalyFlags = ['AREA_OUTSIDE_DISTRICT_RANGE', 'SOME_FUTURE_FLAG'];
    const html = renderReportHtml(data, 'ru');
    expect(html).toContain(DICTIONARIES.ru.flags.known.AREA_OUTSIDE_DISTRICT_RANGE.title);
    expect(html).toContain('SOME_FUTURE_FLAG');
    expect(html).toContain(DICTIONARIES.ru.flags.unknown);
  });

  test('says which rate the soʻm are at and from where, in its language, without a file path', () => {
    const WORDS: Record<ReportLanguage, RegExp> = { en: /Central Bank of Uzbekistan/, ru: /Центрального банка Республики Узбекистан/, uz: /Markaziy bank/ };
    const cases = [
      { basis: 'cbu-daily', rateDate: '2026-03-12', valuationDate: '2026-03-12' },
      { basis: 'cbu-daily', rateDate: '2026-03-13', valuationDate: '2026-03-15' },
      { basis: 'cbu-last-published', rateDate: '2026-08-21', valuationDate: '2026-11-24' },
      { basis: 'cbu-monthly', rateDate: '2024-04-01', valuationDate: '2024-04-17' },
      { basis: 'recorded', rateDate: '2026-07-21', valuationDate: '2026-07-21' },
    ] as const;
    for (const lang of REPORT_LANGUAGES) {
      for (const { basis, rateDate, valuationDate } of cases) {
        const data = chilanzarFlat();
        data.uzs = { ...data.uzs!, basis, rateDate };
        data.valuationDate = valuationDate;
        const line = DICTIONARIES[lang].estimate.rate[basis](formatNumber(data.uzs.rate, lang, 2), formatDate(rateDate, lang), formatDate(valuationDate, lang));
        expect(renderReportHtml(data, lang)).toContain(escapeHtml(line));
        expect(line).toContain(formatDate(rateDate, lang));
        expect(line).not.toMatch(/data\/|\.csv|\.ts\b|cbu-/);
        if (basis !== 'recorded') expect(line).toMatch(WORDS[lang]);
        // The valuation date is named whenever the rate is not its own.
        if (rateDate !== valuationDate) expect(line.includes(formatDate(valuationDate, lang))).toBe(basis === 'cbu-last-published' || basis === 'cbu-daily');
      }
    }
    expect(DICTIONARIES.en.estimate.rate['cbu-last-published']('11,847.16', '21 Aug 2026', '24 Nov 2026')).toBe(
      'At the last official rate of the Central Bank of Uzbekistan the service has, of 21 Aug 2026: 11,847.16 soʻm per US dollar. It is not the rate of the valuation date, 24 Nov 2026.',
    );
  });

  test('without a rate there is no soʻm line and the report says why; without an outline the map says so', () => {
    const data = chilanzarFlat();
    data.uzs = null;
    data.location!.districtOutline = null;
    const html = renderReportHtml(data, 'uz');
    expect(html).not.toContain('soʻm</text>');
    expect(html).toContain(DICTIONARIES.uz.estimate.uzsUnknown);
    expect(html).toContain(DICTIONARIES.uz.location.noOutline);
    expect(html).not.toContain('<path class="district"');
  });
});

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}
