/**
 * Issue 35, item 6: the report's words run through i18next from one typed catalogue per language;
 * place names in the language by tested rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUES, DICTIONARIES, missingMessages, type Plural } from '../../gateway/reports/i18n';
import { BACKTEST_CATALOGUES, BACKTEST_DICTIONARIES } from '../../gateway/reports/backtest-i18n';
import { DISTRICT_NAMES_BY_LANGUAGE, districtName, mahallaName, uzbekLatin } from '../../gateway/reports/place-names';
import { renderReportHtml, REPORT_LANGUAGES } from '../../gateway/reports';
import { DATA_DIR } from '../../models/paths';
import { DISTRICT_IDS, matchDistrict } from '../../models/vocabulary';
import { chilanzarFlat, cobaltCar } from './fixtures';

const isPlural = (x: unknown): x is Plural => typeof x === 'object' && x !== null && !Array.isArray(x) && 'one' in x && 'other' in x;

/** Every message path of a catalogue; a plural is one path with its forms. */
function paths(node: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof node !== 'object' || node === null || Array.isArray(node) || isPlural(node)) return out.set(prefix, node);
  for (const [key, value] of Object.entries(node)) for (const [p, v] of paths(value, prefix ? `${prefix}.${key}` : key)) out.set(p, v);
  return out;
}

describe('catalogue', () => {
  const english = paths(CATALOGUES.en);

  test.each(REPORT_LANGUAGES)('%s has every message English has, and no other', (lang) => {
    expect([...paths(CATALOGUES[lang]).keys()].sort()).toEqual([...english.keys()].sort());
  });

  test.each(REPORT_LANGUAGES)('%s: every plural has each form the language\'s CLDR rules choose among', (lang) => {
    const forms = new Intl.PluralRules(lang === 'uz' ? 'uz-Latn' : lang).resolvedOptions().pluralCategories;
    const plurals = [...paths(CATALOGUES[lang]).entries()].filter(([, v]) => isPlural(v));
    expect(plurals.length).toBeGreaterThanOrEqual(6);
    for (const [path, plural] of plurals) for (const form of forms) expect({ path, form, text: (plural as Record<string, string>)[form] }).toEqual({ path, form, text: expect.any(String) });
  });

  it('plurals and placeholders through i18next: 21 месяц, 22 месяца, 25 месяцев; "в 1 случае из 10"', () => {
    const ru = DICTIONARIES.ru;
    expect(ru.market.months(21, '21')).toBe('21 месяц');
    expect(ru.market.months(22, '22')).toBe('22 месяца');
    expect(ru.market.months(25, '25')).toBe('25 месяцев');
    expect(ru.market.months(11, '11')).toBe('11 месяцев');
    expect(ru.disclaimer('1', '10')[1]).toBe('Интервал должен содержать цену в 1 случае из 10.');
    expect(ru.disclaimer('9', '10')[1]).toBe('Интервал должен содержать цену в 9 случаях из 10.');
    expect(DICTIONARIES.en.market.months(1, '1')).toBe('1 month');
    expect(DICTIONARIES.en.page(1, 2)).toBe('Page 1 of 2');
    // No HTML escaping by i18next: the renderers escape.
    expect(DICTIONARIES.en.model.accuracyFor('<b> & "x"')).toBe('Held-out accuracy: <b> & "x"');
  });

  it('rendering every report in every language asks i18next for no missing message', () => {
    for (const lang of REPORT_LANGUAGES) for (const data of [chilanzarFlat(), cobaltCar()]) renderReportHtml(data, lang);
    expect(missingMessages).toEqual([]);
  });
});

describe('backtest catalogue', () => {
  const english = paths(BACKTEST_CATALOGUES.en);

  test.each(REPORT_LANGUAGES)('%s has every backtest message English has, and each plural its CLDR forms', (lang) => {
    const own = paths(BACKTEST_CATALOGUES[lang]);
    expect([...own.keys()].sort()).toEqual([...english.keys()].sort());
    const forms = new Intl.PluralRules(lang === 'uz' ? 'uz-Latn' : lang).resolvedOptions().pluralCategories;
    const plurals = [...own.entries()].filter(([, v]) => isPlural(v));
    expect(plurals.length).toBe(4);
    for (const [path, plural] of plurals) for (const form of forms) expect({ path, form, text: (plural as Record<string, string>)[form] }).toEqual({ path, form, text: expect.any(String) });
  });

  it('counts by each language\'s rules and writes every number with its formatter', () => {
    const { en, ru, uz } = BACKTEST_DICTIONARIES;
    expect(ru.replayed(1240, 'p', 'v', 1)).toContain('Наблюдаемые цены (1\u00a0240), p, оценены каждая на свою дату v, ');
    expect(ru.replayed(5, 'p', 'v', 1)).toContain('за 1 подгонку:');
    expect(ru.replayed(5, 'p', 'v', 21)).toContain('за 21 подгонку:');
    expect(ru.replayed(5, 'p', 'v', 3)).toContain('за 3 подгонки:');
    expect(ru.replayed(5, 'p', 'v', 12)).toContain('за 12 подгонок:');
    expect(en.replayed(1, 'p', 'v', 1)).toMatch(/^1 observed price, p, was valued at its own date with v, .* in 1 fit: /);
    expect(en.replayed(1240, 'p', 'v', 12)).toMatch(/^1,240 observed prices, p, were each valued .* in 12 fits: /);
    expect(en.submitted(1, 'vehicle', 1)).toBe('1 vehicle price was submitted; 1 could not be scored and is left out. ');
    expect(en.submitted(41, 'home', 2)).toBe('41 home prices were submitted; 2 could not be scored and are left out. ');
    expect(ru.submitted(1241, 'home', 1)).toBe('Передано цен жилья: 1\u00a0241; не удалось оценить и исключено: 1. ');
    expect(uz.replayed(5, 'p', 'v', 12)).toContain(', 12 ta moslashda: ');
    // The fixed figures too: the FSD bands, the reading note's.
    expect(ru.confidence).toEqual({ high: 'высокий (FSD ≤ 0,15)', medium: 'средний (≤ 0,30)', low: 'низкий (> 0,30)' });
    expect(en.confidence.high).toBe('high (FSD ≤ 0.15)');
    expect(ru.columns.within10).toBe('Доля в ±10\u00a0%');
    expect(ru.reading).toContain('ln(верх / низ) / 3,29; уровень уверенности честен, когда около 68\u00a0% его цен');
    expect(en.reading).toContain('ln(high / low) / 3.29; a confidence level is honest when about 68% of its prices');
    expect(uz.period('2026-03-01', '2026-05-20')).toBe('2026-yil 1-mart dan 2026-yil 20-may gacha kuzatilgan');
    expect(missingMessages).toEqual([]);
  });
});

describe('place names', () => {
  it('Uzbek district names are the official table\'s (data/geo/uz_districts.csv), Russian ones name the same district', () => {
    const rows = readFileSync(join(DATA_DIR, 'geo', 'uz_districts.csv'), 'utf8').split('\n').filter((l) => /^\d+,11,/.test(l));
    const official = new Set(rows.map((l) => l.split(',')[3].replace(/ tumani$/, '').replace(/'/g, 'ʻ')));
    for (const id of DISTRICT_IDS) {
      expect(official).toContain(DISTRICT_NAMES_BY_LANGUAGE.uz[id]);
      expect(matchDistrict(DISTRICT_NAMES_BY_LANGUAGE.ru[id])?.id).toBe(id);
      expect(matchDistrict(DISTRICT_NAMES_BY_LANGUAGE.uz[id])?.id).toBe(id);
    }
    expect(districtName('Chilanzar', 'ru')).toBe('Чиланзар');
    expect(districtName('Chilanzar', 'uz')).toBe('Chilonzor');
    expect(districtName('Chilanzar', 'en')).toBe('Chilanzar');
    expect(districtName('Atlantis', 'ru')).toBe('Atlantis');
  });

  it('Uzbek Cyrillic to Latin by the 1995 rules', () => {
    expect(uzbekLatin('Чилонзор')).toBe('Chilonzor');
    expect(uzbekLatin('Ғишткўприк')).toBe('Gʻishtkoʻprik');
    expect(uzbekLatin('Шайхонтоҳур')).toBe('Shayxontohur');
    expect(uzbekLatin('Ер')).toBe('Yer'); // е at the start of a word: ye
    expect(uzbekLatin('Цирк')).toBe('Sirk'); // ц not after a vowel: s
    expect(uzbekLatin('Лицей')).toBe('Litsey'); // ц after a vowel: ts; е after a vowel: ye
    expect(uzbekLatin('Таъмир')).toBe('Taʼmir');
    expect(uzbekLatin('Янги Ҳаёт')).toBe('Yangi Hayot');
  });

  it('a mahalla in each language; unknown: as recorded', () => {
    expect(mahallaName('chilanzar/katartal', 'Katartal', 'ru')).toBe('Катартал');
    expect(mahallaName('chilanzar/katartal', 'Katartal', 'en')).toBe('Katartal');
    expect(mahallaName('chilanzar/katartal', 'Katartal', 'uz')).toBe('Katartal');
    expect(mahallaName('nowhere/none', 'Somewhere', 'ru')).toBe('Somewhere');
    expect(mahallaName(null, null, 'uz')).toBeNull();
  });
});
