/**
 * Every word the backtest PDF prints (./backtest-content.ts), one explicit dictionary per language,
 * as ./i18n.ts does for the valuation report: the type makes a missing entry a compile error, so no
 * language falls back to another. Uzbek in Latin script with U+02BB in oʻ and gʻ, as ./i18n.ts.
 * Numbers and dates arrive formatted (./format.ts), so phrases only place them.
 */
import type { BacktestSectionId } from './backtest-content';
import type { ReportLanguage } from './report-data';

export interface BacktestDictionary {
  /** "Backtest of home valuations against observed prices". */
  title: (kind: 'home' | 'vehicle') => string;
  subtitle: string;
  header: { backtest: string; observations: string; observed: string; modelVersion: string; fits: string };
  sections: Record<BacktestSectionId, string>;
  columns: { valuation: string; n: string; medianApe: string; within10: string; bias: string; coverage: string; width: string; withinFsd: string };
  /** The confidence levels' names (high, medium, low). */
  confidence: Readonly<Record<string, string>>;
  modelAlone: string;
  reanchored: string;
  all: string;
  month: string;
  /** A group level's name (district, segment, make, model); a level not here is shown as it is. */
  levels: Readonly<Record<string, string>>;
  /** The by-group subheading: "By district". */
  byLevel: (level: string) => string;
  /** "41 home prices were submitted; 1 could not be scored and is left out. " */
  submitted: (submitted: string, kind: 'home' | 'vehicle', refused: string) => string;
  period: (from: string, to: string) => string;
  noneObserved: string;
  versions: (versions: string) => string;
  inService: string;
  /** What was replayed, after `submitted`: counts, period, model, fits. */
  replayed: (observations: string, period: string, versions: string, fits: string) => string;
  reading: string;
  footer: (jobId: string | null, kind: 'home' | 'vehicle') => string;
}

const EN: BacktestDictionary = {
  title: (kind) => `Backtest of ${kind} valuations against observed prices`,
  subtitle: 'The model in service, alone and re-anchored on earlier observations, point in time',
  header: { backtest: 'Backtest', observations: 'Observations replayed', observed: 'Observed', modelVersion: 'Model version', fits: 'Fits' },
  sections: { replayed: 'What was replayed', overall: 'Overall', 'by-month': 'By month', 'by-group': 'By group', 'by-confidence': 'By confidence level (FSD)', reading: 'How to read the tables' },
  columns: { valuation: 'Valuation', n: 'n', medianApe: 'Median APE', within10: 'Within ±10%', bias: 'Median bias [95% CI]', coverage: '90% coverage [Wilson 95%]', width: 'Median width', withinFsd: 'Within ±FSD' },
  confidence: { high: 'high (FSD ≤ 0.15)', medium: 'medium (≤ 0.30)', low: 'low (> 0.30)' },
  modelAlone: 'model alone',
  reanchored: 're-anchored',
  all: 'All',
  month: 'Month',
  levels: { district: 'district', segment: 'segment', make: 'make', model: 'model' },
  byLevel: (level) => `By ${level}`,
  submitted: (submitted, kind, refused) => `${submitted} ${kind} prices were submitted; ${refused} could not be scored and are left out. `,
  period: (from, to) => `observed from ${from} to ${to}`,
  noneObserved: 'none observed',
  versions: (versions) => `model version ${versions}`,
  inService: 'the model in service',
  replayed: (observations, period, versions, fits) =>
    `${observations} observed prices, ${period}, were each valued at their own date with ${versions}, `
    + `then re-anchored on the organisation's observations from before that date only (the observation model the service fits), in ${fits} fits: `
    + 'consecutive days are replayed together in blocks, each adjusted on what came before the block, so no price ever adjusts its own valuation.',
  reading: 'APE: |estimate − price| / price. Bias: the median of log(price / estimate), shown as the share prices lay above (+) or below (−) the valuations, with a distribution-free 95% interval (none below 6 prices). Coverage: the share of prices inside the 90% interval, with Wilson 95% bounds. Width: the median of (high − low) / estimate. FSD: the sd of the log error the 90% interval implies, ln(high / low) / 3.29; a confidence level is honest when about 68% of its prices fall within ±FSD, and each side is counted at the level of its own FSD.',
  footer: (jobId, kind) => `Backtest${jobId ? ` ${jobId}` : ''} · ${kind}`,
};

const RU_KINDS = { home: 'жилья', vehicle: 'транспортных средств' } as const;

const RU: BacktestDictionary = {
  title: (kind) => `Бэктест оценок ${RU_KINDS[kind]} по наблюдаемым ценам`,
  subtitle: 'Модель в эксплуатации, сама по себе и с перепривязкой к более ранним наблюдениям, на момент каждой цены',
  header: { backtest: 'Бэктест', observations: 'Воспроизведено наблюдений', observed: 'Период наблюдений', modelVersion: 'Версия модели', fits: 'Подгонок' },
  sections: { replayed: 'Что было воспроизведено', overall: 'В целом', 'by-month': 'По месяцам', 'by-group': 'По группам', 'by-confidence': 'По уровню уверенности (FSD)', reading: 'Как читать таблицы' },
  columns: { valuation: 'Оценка', n: 'n', medianApe: 'Медиана APE', within10: 'Доля в ±10%', bias: 'Медиана смещения [95% ДИ]', coverage: 'Покрытие 90% [Уилсон 95%]', width: 'Медиана ширины', withinFsd: 'Доля в ±FSD' },
  confidence: { high: 'высокий (FSD ≤ 0,15)', medium: 'средний (≤ 0,30)', low: 'низкий (> 0,30)' },
  modelAlone: 'только модель',
  reanchored: 'с перепривязкой',
  all: 'Все',
  month: 'Месяц',
  levels: { district: 'район', segment: 'сегмент', make: 'марка', model: 'модель' },
  byLevel: (level) => `По уровню «${level}»`,
  submitted: (submitted, kind, refused) => `Передано цен ${RU_KINDS[kind]}: ${submitted}; не удалось оценить и исключено: ${refused}. `,
  period: (from, to) => `наблюдавшихся с ${from} по ${to}`,
  noneObserved: 'без наблюдений',
  versions: (versions) => `моделью версии ${versions}`,
  inService: 'моделью в эксплуатации',
  replayed: (observations, period, versions, fits) =>
    `Наблюдаемые цены (${observations}), ${period}, оценены каждая на свою дату ${versions}, `
    + `затем перепривязаны к наблюдениям организации только до этой даты (модель наблюдений, которую строит сервис), за ${fits} подгонок: `
    + 'последовательные дни воспроизводятся вместе блоками, каждый скорректирован по тому, что было до блока, поэтому ни одна цена не корректирует собственную оценку.',
  reading: 'APE: |оценка − цена| / цена. Смещение: медиана log(цена / оценка), показанная как доля, на которую цены были выше (+) или ниже (−) оценок, с непараметрическим 95% интервалом (нет при числе цен меньше 6). Покрытие: доля цен внутри 90% интервала, с границами Уилсона 95%. Ширина: медиана (верх − низ) / оценка. FSD: стандартное отклонение логарифмической ошибки, которое следует из 90% интервала, ln(верх / низ) / 3,29; уровень уверенности честен, когда около 68% его цен лежат в пределах ±FSD, и каждая сторона считается на уровне своего FSD.',
  footer: (jobId, kind) => `Бэктест${jobId ? ` ${jobId}` : ''} · ${kind === 'home' ? 'жильё' : 'транспортные средства'}`,
};

const UZ_KINDS = { home: 'uy-joy', vehicle: 'transport vositalari' } as const;

const UZ: BacktestDictionary = {
  title: (kind) => `${UZ_KINDS[kind][0].toUpperCase()}${UZ_KINDS[kind].slice(1)} baholarining kuzatilgan narxlar boʻyicha bektesti`,
  subtitle: 'Amaldagi model, yolgʻiz va oldingi kuzatuvlarga qayta bogʻlangan holda, har bir narx sanasi boʻyicha',
  header: { backtest: 'Bektest', observations: 'Qayta hisoblangan kuzatuvlar', observed: 'Kuzatuv davri', modelVersion: 'Model versiyasi', fits: 'Moslashlar' },
  sections: { replayed: 'Nima qayta hisoblandi', overall: 'Umumiy', 'by-month': 'Oylar boʻyicha', 'by-group': 'Guruhlar boʻyicha', 'by-confidence': 'Ishonch darajasi boʻyicha (FSD)', reading: 'Jadvallarni qanday oʻqish kerak' },
  columns: { valuation: 'Baho', n: 'n', medianApe: 'Median APE', within10: '±10% ichida', bias: 'Median siljish [95% IO]', coverage: '90% qamrov [Uilson 95%]', width: 'Median kenglik', withinFsd: '±FSD ichida' },
  confidence: { high: 'yuqori (FSD ≤ 0,15)', medium: 'oʻrta (≤ 0,30)', low: 'past (> 0,30)' },
  modelAlone: 'faqat model',
  reanchored: 'qayta bogʻlangan',
  all: 'Hammasi',
  month: 'Oy',
  levels: { district: 'tuman', segment: 'segment', make: 'marka', model: 'model' },
  byLevel: (level) => `Daraja boʻyicha: ${level}`,
  submitted: (submitted, kind, refused) => `${UZ_KINDS[kind]} narxlari yuborildi: ${submitted}; baholab boʻlmadi va chiqarib tashlandi: ${refused}. `,
  period: (from, to) => `${from} dan ${to} gacha kuzatilgan`,
  noneObserved: 'kuzatuvsiz',
  versions: (versions) => `${versions} versiyali model bilan`,
  inService: 'amaldagi model bilan',
  replayed: (observations, period, versions, fits) =>
    `Kuzatilgan narxlar (${observations}), ${period}, har biri oʻz sanasida ${versions} baholandi, `
    + `soʻng tashkilotning faqat shu sanadan oldingi kuzatuvlariga qayta bogʻlandi (xizmat quradigan kuzatuvlar modeli), ${fits} ta moslashda: `
    + 'ketma-ket kunlar bloklar bilan birga qayta hisoblanadi, har biri blokdan oldingilar boʻyicha tuzatiladi, shuning uchun hech bir narx oʻz bahosini tuzatmaydi.',
  reading: 'APE: |baho − narx| / narx. Siljish: log(narx / baho) medianasi, narxlar baholardan qancha yuqori (+) yoki past (−) boʻlgani ulushi sifatida, taqsimotga bogʻliq boʻlmagan 95% oraliq bilan (6 tadan kam narxda yoʻq). Qamrov: 90% oraliq ichidagi narxlar ulushi, Uilson 95% chegaralari bilan. Kenglik: (yuqori − quyi) / baho medianasi. FSD: 90% oraliqdan kelib chiqadigan logarifmik xatoning standart chetlanishi, ln(yuqori / quyi) / 3,29; ishonch darajasi halol, agar uning narxlarining taxminan 68% ±FSD ichida boʻlsa; har bir tomon oʻz FSD darajasida hisoblanadi.',
  footer: (jobId, kind) => `Bektest${jobId ? ` ${jobId}` : ''} · ${UZ_KINDS[kind]}`,
};

export const BACKTEST_DICTIONARIES: Readonly<Record<ReportLanguage, BacktestDictionary>> = { en: EN, ru: RU, uz: UZ };

export function backtestDictionary(lang: ReportLanguage): BacktestDictionary {
  const found = BACKTEST_DICTIONARIES[lang];
  if (!found) throw new RangeError(`Unknown report language "${String(lang)}": en, ru or uz`);
  return found;
}
