/**
 * Every word the backtest PDF prints (./backtest-content.ts), one catalogue per language run by the
 * valuation report's i18next instance (./i18n.ts) in a namespace of its own (issue 35, item 6):
 * messages with placeholders ({{fits}}) and plurals chosen by the language's CLDR rules ("за 1
 * подгонку", "за 12 подгонок"; "1 fit"). The BacktestCatalogue type makes a missing message a
 * compile error and a test checks each plural has its language's forms, so no language falls back
 * to another. Uzbek in Latin script with U+02BB in oʻ and gʻ, as ./i18n.ts.
 *
 * Every number, the fixed ones of the labels too (±10 %, FSD ≤ 0,15, 3,29), goes through
 * ./format.ts's formatter of the language: the bound dictionary takes numbers, never formatted text.
 */
import { FSD_BANDS } from '../../models/ensemble';
import { formatDate, formatNumber, formatPercent } from './format';
import { reportI18n, toResources, type Plural } from './i18n';
import type { ReportLanguage } from './report-data';

/** The sections of a backtest report (./backtest-content.ts builds them; ./content.ts lays them out). */
export type BacktestSectionId = 'replayed' | 'overall' | 'by-month' | 'by-group' | 'by-confidence' | 'reading';

export type BacktestKind = 'home' | 'vehicle';
/** i18next interpolation: {{name}}. */
type Message = string;

export interface BacktestCatalogue {
  /** "Backtest of home valuations against observed prices". */
  title: Record<BacktestKind, string>;
  subtitle: string;
  header: { backtest: string; observations: string; observed: string; modelVersion: string; fits: string };
  sections: Record<BacktestSectionId, string>;
  /** within10: {{share}} (10 %); bias: {{ci}} (95 %); coverage: {{coverage}} (the interval's, 90 %) and {{ci}}. */
  columns: { valuation: string; n: string; medianApe: string; within10: Message; bias: Message; coverage: Message; width: string; withinFsd: string };
  /** The confidence levels' names with their FSD bands: {{high}}, {{medium}} (models/ensemble FSD_BANDS). */
  confidence: Record<'high' | 'medium' | 'low', Message>;
  modelAlone: string;
  reanchored: string;
  all: string;
  month: string;
  /** A group level's name (district, segment, make, model); a level not here is shown as it is. */
  levels: Readonly<Record<string, string>>;
  /** The by-group subheading: "By {{level}}". */
  byLevel: Message;
  /** The kind as `submitted` names it. */
  kinds: Record<BacktestKind, string>;
  /** Counted by {{submitted}}, the prices sent; {{kind}} of kinds: "41 home prices were submitted; ". */
  submitted: Plural;
  /** Counted by {{refused}}: "1 could not be scored and is left out. ". */
  refused: Plural;
  /** {{from}}, {{to}}: days in words. */
  period: Message;
  noneObserved: string;
  /** {{versions}} */
  versions: Message;
  inService: string;
  /** The fits as `replayed` places them, counted by {{formatted}}: "12 fits", "12 подгонок". */
  fits: Plural;
  /** What was replayed, after `submitted`, counted by {{observations}}: {{period}}, {{versions}}, {{fits}}. */
  replayed: Plural;
  /** {{ci}} (95 %), {{minPrices}} (6), {{coverage}} (90 %), {{z}} (3.29), {{within}} (68 %). */
  reading: Message;
  /** The kind as the footer names it, after the job. */
  footerKind: Record<BacktestKind, string>;
}

const EN: BacktestCatalogue = {
  title: { home: 'Backtest of home valuations against observed prices', vehicle: 'Backtest of vehicle valuations against observed prices' },
  subtitle: 'The model in service, alone and re-anchored on earlier observations, point in time',
  header: { backtest: 'Backtest', observations: 'Observations replayed', observed: 'Observed', modelVersion: 'Model version', fits: 'Fits' },
  sections: { replayed: 'What was replayed', overall: 'Overall', 'by-month': 'By month', 'by-group': 'By group', 'by-confidence': 'By confidence level (FSD)', reading: 'How to read the tables' },
  columns: { valuation: 'Valuation', n: 'n', medianApe: 'Median APE', within10: 'Within ±{{share}}', bias: 'Median bias [{{ci}} CI]', coverage: '{{coverage}} coverage [Wilson {{ci}}]', width: 'Median width', withinFsd: 'Within ±FSD' },
  confidence: { high: 'high (FSD ≤ {{high}})', medium: 'medium (≤ {{medium}})', low: 'low (> {{medium}})' },
  modelAlone: 'model alone',
  reanchored: 're-anchored',
  all: 'All',
  month: 'Month',
  levels: { district: 'district', segment: 'segment', make: 'make', model: 'model' },
  byLevel: 'By {{level}}',
  kinds: { home: 'home', vehicle: 'vehicle' },
  submitted: { one: '{{submitted}} {{kind}} price was submitted; ', other: '{{submitted}} {{kind}} prices were submitted; ' },
  refused: { one: '{{refused}} could not be scored and is left out. ', other: '{{refused}} could not be scored and are left out. ' },
  period: 'observed from {{from}} to {{to}}',
  noneObserved: 'none observed',
  versions: 'model version {{versions}}',
  inService: 'the model in service',
  fits: { one: '{{formatted}} fit', other: '{{formatted}} fits' },
  replayed: {
    one: '{{observations}} observed price, {{period}}, was valued at its own date with {{versions}}, '
      + 'then re-anchored on the organisation\'s observations from before that date only (the observation model the service fits), in {{fits}}: '
      + 'consecutive days are replayed together in blocks, each adjusted on what came before the block, so no price ever adjusts its own valuation.',
    other: '{{observations}} observed prices, {{period}}, were each valued at their own date with {{versions}}, '
      + 'then re-anchored on the organisation\'s observations from before that date only (the observation model the service fits), in {{fits}}: '
      + 'consecutive days are replayed together in blocks, each adjusted on what came before the block, so no price ever adjusts its own valuation.',
  },
  reading: 'APE: |estimate − price| / price. Bias: the median of log(price / estimate), shown as the share prices lay above (+) or below (−) the valuations, with a distribution-free {{ci}} interval (none below {{minPrices}} prices). Coverage: the share of prices inside the {{coverage}} interval, with Wilson {{ci}} bounds. Width: the median of (high − low) / estimate. FSD: the sd of the log error the {{coverage}} interval implies, ln(high / low) / {{z}}; a confidence level is honest when about {{within}} of its prices fall within ±FSD, and each side is counted at the level of its own FSD.',
  footerKind: { home: 'home', vehicle: 'vehicle' },
};

const RU: BacktestCatalogue = {
  title: { home: 'Бэктест оценок жилья по наблюдаемым ценам', vehicle: 'Бэктест оценок транспортных средств по наблюдаемым ценам' },
  subtitle: 'Модель в эксплуатации, сама по себе и с перепривязкой к более ранним наблюдениям, на момент каждой цены',
  header: { backtest: 'Бэктест', observations: 'Воспроизведено наблюдений', observed: 'Период наблюдений', modelVersion: 'Версия модели', fits: 'Подгонок' },
  sections: { replayed: 'Что было воспроизведено', overall: 'В целом', 'by-month': 'По месяцам', 'by-group': 'По группам', 'by-confidence': 'По уровню уверенности (FSD)', reading: 'Как читать таблицы' },
  columns: { valuation: 'Оценка', n: 'n', medianApe: 'Медиана APE', within10: 'Доля в ±{{share}}', bias: 'Медиана смещения [{{ci}} ДИ]', coverage: 'Покрытие {{coverage}} [Уилсон {{ci}}]', width: 'Медиана ширины', withinFsd: 'Доля в ±FSD' },
  confidence: { high: 'высокий (FSD ≤ {{high}})', medium: 'средний (≤ {{medium}})', low: 'низкий (> {{medium}})' },
  modelAlone: 'только модель',
  reanchored: 'с перепривязкой',
  all: 'Все',
  month: 'Месяц',
  levels: { district: 'район', segment: 'сегмент', make: 'марка', model: 'модель' },
  byLevel: 'По уровню «{{level}}»',
  kinds: { home: 'жилья', vehicle: 'транспортных средств' },
  // After a colon the count agrees with nothing: one wording for every form.
  submitted: { one: 'Передано цен {{kind}}: {{submitted}}; ', few: 'Передано цен {{kind}}: {{submitted}}; ', many: 'Передано цен {{kind}}: {{submitted}}; ', other: 'Передано цен {{kind}}: {{submitted}}; ' },
  refused: { one: 'не удалось оценить и исключено: {{refused}}. ', few: 'не удалось оценить и исключено: {{refused}}. ', many: 'не удалось оценить и исключено: {{refused}}. ', other: 'не удалось оценить и исключено: {{refused}}. ' },
  period: 'наблюдавшихся с {{from}} по {{to}}',
  noneObserved: 'без наблюдений',
  versions: 'моделью версии {{versions}}',
  inService: 'моделью в эксплуатации',
  // After "за": the accusative (за 1 подгонку, за 3 подгонки, за 12 подгонок, за 1,5 подгонки).
  fits: { one: '{{formatted}} подгонку', few: '{{formatted}} подгонки', many: '{{formatted}} подгонок', other: '{{formatted}} подгонки' },
  replayed: {
    one: 'Наблюдаемые цены ({{observations}}), {{period}}, оценены каждая на свою дату {{versions}}, затем перепривязаны к наблюдениям организации только до этой даты (модель наблюдений, которую строит сервис), за {{fits}}: последовательные дни воспроизводятся вместе блоками, каждый скорректирован по тому, что было до блока, поэтому ни одна цена не корректирует собственную оценку.',
    few: 'Наблюдаемые цены ({{observations}}), {{period}}, оценены каждая на свою дату {{versions}}, затем перепривязаны к наблюдениям организации только до этой даты (модель наблюдений, которую строит сервис), за {{fits}}: последовательные дни воспроизводятся вместе блоками, каждый скорректирован по тому, что было до блока, поэтому ни одна цена не корректирует собственную оценку.',
    many: 'Наблюдаемые цены ({{observations}}), {{period}}, оценены каждая на свою дату {{versions}}, затем перепривязаны к наблюдениям организации только до этой даты (модель наблюдений, которую строит сервис), за {{fits}}: последовательные дни воспроизводятся вместе блоками, каждый скорректирован по тому, что было до блока, поэтому ни одна цена не корректирует собственную оценку.',
    other: 'Наблюдаемые цены ({{observations}}), {{period}}, оценены каждая на свою дату {{versions}}, затем перепривязаны к наблюдениям организации только до этой даты (модель наблюдений, которую строит сервис), за {{fits}}: последовательные дни воспроизводятся вместе блоками, каждый скорректирован по тому, что было до блока, поэтому ни одна цена не корректирует собственную оценку.',
  },
  reading: 'APE: |оценка − цена| / цена. Смещение: медиана log(цена / оценка), показанная как доля, на которую цены были выше (+) или ниже (−) оценок, с непараметрическим {{ci}} интервалом (нет при числе цен меньше {{minPrices}}). Покрытие: доля цен внутри {{coverage}} интервала, с границами Уилсона {{ci}}. Ширина: медиана (верх − низ) / оценка. FSD: стандартное отклонение логарифмической ошибки, которое следует из {{coverage}} интервала, ln(верх / низ) / {{z}}; уровень уверенности честен, когда около {{within}} его цен лежат в пределах ±FSD, и каждая сторона считается на уровне своего FSD.',
  footerKind: { home: 'жильё', vehicle: 'транспортные средства' },
};

// Uzbek counts a noun in the singular after any number: both forms alike.
const UZ: BacktestCatalogue = {
  title: { home: 'Uy-joy baholarining kuzatilgan narxlar boʻyicha bektesti', vehicle: 'Transport vositalari baholarining kuzatilgan narxlar boʻyicha bektesti' },
  subtitle: 'Amaldagi model, yolgʻiz va oldingi kuzatuvlarga qayta bogʻlangan holda, har bir narx sanasi boʻyicha',
  header: { backtest: 'Bektest', observations: 'Qayta hisoblangan kuzatuvlar', observed: 'Kuzatuv davri', modelVersion: 'Model versiyasi', fits: 'Moslashlar' },
  sections: { replayed: 'Nima qayta hisoblandi', overall: 'Umumiy', 'by-month': 'Oylar boʻyicha', 'by-group': 'Guruhlar boʻyicha', 'by-confidence': 'Ishonch darajasi boʻyicha (FSD)', reading: 'Jadvallarni qanday oʻqish kerak' },
  columns: { valuation: 'Baho', n: 'n', medianApe: 'Median APE', within10: '±{{share}} ichida', bias: 'Median siljish [{{ci}} IO]', coverage: '{{coverage}} qamrov [Uilson {{ci}}]', width: 'Median kenglik', withinFsd: '±FSD ichida' },
  confidence: { high: 'yuqori (FSD ≤ {{high}})', medium: 'oʻrta (≤ {{medium}})', low: 'past (> {{medium}})' },
  modelAlone: 'faqat model',
  reanchored: 'qayta bogʻlangan',
  all: 'Hammasi',
  month: 'Oy',
  levels: { district: 'tuman', segment: 'segment', make: 'marka', model: 'model' },
  byLevel: 'Daraja boʻyicha: {{level}}',
  kinds: { home: 'uy-joy', vehicle: 'transport vositalari' },
  submitted: { one: '{{kind}} narxlari yuborildi: {{submitted}}; ', other: '{{kind}} narxlari yuborildi: {{submitted}}; ' },
  refused: { one: 'baholab boʻlmadi va chiqarib tashlandi: {{refused}}. ', other: 'baholab boʻlmadi va chiqarib tashlandi: {{refused}}. ' },
  period: '{{from}} dan {{to}} gacha kuzatilgan',
  noneObserved: 'kuzatuvsiz',
  versions: '{{versions}} versiyali model bilan',
  inService: 'amaldagi model bilan',
  fits: { one: '{{formatted}} ta moslashda', other: '{{formatted}} ta moslashda' },
  replayed: {
    one: 'Kuzatilgan narxlar ({{observations}}), {{period}}, har biri oʻz sanasida {{versions}} baholandi, soʻng tashkilotning faqat shu sanadan oldingi kuzatuvlariga qayta bogʻlandi (xizmat quradigan kuzatuvlar modeli), {{fits}}: ketma-ket kunlar bloklar bilan birga qayta hisoblanadi, har biri blokdan oldingilar boʻyicha tuzatiladi, shuning uchun hech bir narx oʻz bahosini tuzatmaydi.',
    other: 'Kuzatilgan narxlar ({{observations}}), {{period}}, har biri oʻz sanasida {{versions}} baholandi, soʻng tashkilotning faqat shu sanadan oldingi kuzatuvlariga qayta bogʻlandi (xizmat quradigan kuzatuvlar modeli), {{fits}}: ketma-ket kunlar bloklar bilan birga qayta hisoblanadi, har biri blokdan oldingilar boʻyicha tuzatiladi, shuning uchun hech bir narx oʻz bahosini tuzatmaydi.',
  },
  reading: 'APE: |baho − narx| / narx. Siljish: log(narx / baho) medianasi, narxlar baholardan qancha yuqori (+) yoki past (−) boʻlgani ulushi sifatida, taqsimotga bogʻliq boʻlmagan {{ci}} oraliq bilan ({{minPrices}} tadan kam narxda yoʻq). Qamrov: {{coverage}} oraliq ichidagi narxlar ulushi, Uilson {{ci}} chegaralari bilan. Kenglik: (yuqori − quyi) / baho medianasi. FSD: {{coverage}} oraliqdan kelib chiqadigan logarifmik xatoning standart chetlanishi, ln(yuqori / quyi) / {{z}}; ishonch darajasi halol, agar uning narxlarining taxminan {{within}} ±FSD ichida boʻlsa; har bir tomon oʻz FSD darajasida hisoblanadi.',
  footerKind: { home: 'uy-joy', vehicle: 'transport vositalari' },
};

export const BACKTEST_CATALOGUES: Readonly<Record<ReportLanguage, BacktestCatalogue>> = { en: EN, ru: RU, uz: UZ };

/**
 * The fixed figures the labels and the reading note quote. The interval served is 90%; the bias's
 * interval is 95% and needs 6 prices (models/ensemble/metrics.ts medianInterval); z: 2 × 1.645,
 * the 90% interval's width in sds (models/ensemble/fsd.ts); 68%: the share within ±1 sd.
 */
const FIGURES = { within10: 0.1, ci: 0.95, coverage: 0.9, minPrices: 6, z: 3.29, within: 0.68 } as const;

/** The catalogue with its messages bound: what backtest-content.ts reads. Counts are numbers, formatted here. */
export interface BacktestDictionary extends Pick<BacktestCatalogue, 'title' | 'subtitle' | 'header' | 'sections' | 'modelAlone' | 'reanchored' | 'all' | 'month' | 'levels' | 'noneObserved' | 'inService'> {
  columns: Record<keyof BacktestCatalogue['columns'], string>;
  /** The confidence levels' names (high, medium, low). */
  confidence: Readonly<Record<string, string>>;
  byLevel: (level: string) => string;
  /** "41 home prices were submitted; 1 could not be scored and is left out. " */
  submitted: (submitted: number, kind: BacktestKind, refused: number) => string;
  /** The observed period from two 'YYYY-MM-DD' days. */
  period: (from: string, to: string) => string;
  versions: (versions: string) => string;
  /** What was replayed, after `submitted`: counts, period, model, fits. */
  replayed: (observations: number, period: string, versions: string, fits: number) => string;
  reading: string;
  footer: (jobId: string | null, kind: BacktestKind) => string;
}

const NAMESPACE = 'backtest';

for (const [lang, catalogue] of Object.entries(BACKTEST_CATALOGUES)) {
  reportI18n.addResourceBundle(lang, NAMESPACE, toResources(catalogue as unknown as Record<string, unknown>));
}

function bind(lang: ReportLanguage): BacktestDictionary {
  const catalogue = BACKTEST_CATALOGUES[lang];
  const t = reportI18n.getFixedT(lang, NAMESPACE);
  const say = (key: string, values: Record<string, unknown> = {}): string => t(key, values) as string;
  const number = (n: number, digits = 0) => formatNumber(n, lang, digits);
  const percent = (share: number) => formatPercent(share, lang);
  const bands = { high: number(FSD_BANDS.high, 2), medium: number(FSD_BANDS.medium, 2) };
  return {
    ...catalogue,
    columns: {
      ...catalogue.columns,
      within10: say('columns.within10', { share: percent(FIGURES.within10) }),
      bias: say('columns.bias', { ci: percent(FIGURES.ci) }),
      coverage: say('columns.coverage', { coverage: percent(FIGURES.coverage), ci: percent(FIGURES.ci) }),
    },
    confidence: { high: say('confidence.high', bands), medium: say('confidence.medium', bands), low: say('confidence.low', bands) },
    byLevel: (level) => say('byLevel', { level }),
    submitted: (submitted, kind, refused) =>
      say('submitted', { count: submitted, submitted: number(submitted), kind: catalogue.kinds[kind] }) + say('refused', { count: refused, refused: number(refused) }),
    period: (from, to) => say('period', { from: formatDate(from, lang), to: formatDate(to, lang) }),
    versions: (versions) => say('versions', { versions }),
    replayed: (observations, period, versions, fits) =>
      say('replayed', { count: observations, observations: number(observations), period, versions, fits: say('fits', { count: fits, formatted: number(fits) }) }),
    reading: say('reading', { ci: percent(FIGURES.ci), minPrices: number(FIGURES.minPrices), coverage: percent(FIGURES.coverage), z: number(FIGURES.z, 2), within: percent(FIGURES.within) }),
    footer: (jobId, kind) => `${catalogue.header.backtest}${jobId ? ` ${jobId}` : ''} · ${catalogue.footerKind[kind]}`,
  };
}

export const BACKTEST_DICTIONARIES: Readonly<Record<ReportLanguage, BacktestDictionary>> = { en: bind('en'), ru: bind('ru'), uz: bind('uz') };

export function backtestDictionary(lang: ReportLanguage): BacktestDictionary {
  const found = BACKTEST_DICTIONARIES[lang];
  if (!found) throw new RangeError(`Unknown report language "${String(lang)}": en, ru or uz`);
  return found;
}
