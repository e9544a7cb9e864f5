/**
 * Numbers, money and dates as each language writes them, every number through one
 * Intl.NumberFormat per language (issue 35, item 6): amounts, ratios, percentages, distances,
 * scores. en: 78,500 and 0.9; ru, uz: 78 500 and 0,9 with a NO-BREAK SPACE (U+00A0), so an amount
 * never breaks across lines. Digits are grouped in every amount, 4-digit ones too (useGrouping
 * 'always': CLDR's ru and uz leave 7500 ungrouped, a bank wants the columns to read alike), and the
 * minus is U+2212. Needs a Node with full ICU (the default build): a small-icu one knows no 'uz'.
 */
import { dictionary } from './i18n';
import type { ReportLanguage } from './report-data';

export const NO_BREAK_SPACE = '\u00a0';
/** What the report prints for a value it does not have. */
export const MISSING = '—';
/** U+2212: a true minus, the width of a plus. */
const MINUS = '\u2212';

/** The Intl locale of each report language: Uzbek in Latin script. */
export const NUMBER_LOCALES: Readonly<Record<ReportLanguage, string>> = { en: 'en', ru: 'ru', uz: 'uz-Latn' };

const formatters = new Map<string, Intl.NumberFormat>();
/** The language's formatter for a style: one instance per language, style and digits, made once. */
function formatter(lang: ReportLanguage, style: 'decimal' | 'percent', digits: number, grouped: boolean, signed = false): Intl.NumberFormat {
  const key = `${lang} ${style} ${digits} ${grouped} ${signed}`;
  let found = formatters.get(key);
  if (!found) {
    // 'negative': no sign on a value that rounds to zero (−0,0); 'exceptZero' adds the plus of a change.
    found = new Intl.NumberFormat(NUMBER_LOCALES[lang], { style, minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: grouped ? 'always' : false, signDisplay: signed ? 'exceptZero' : 'negative' });
    formatters.set(key, found);
  }
  return found;
}

/** ICU writes the minus as a hyphen: the report prints U+2212 (the only hyphen in a formatted number). */
const typeset = (text: string) => text.replace(/-/g, MINUS);

/** A number with `digits` decimals, digits grouped in threes unless `grouped` is false (years); NaN and ±Infinity print as MISSING. */
export function formatNumber(value: number, lang: ReportLanguage, digits = 0, grouped = true): string {
  if (!Number.isFinite(value)) return MISSING;
  return typeset(formatter(lang, 'decimal', digits, grouped).format(value));
}

/** A change with its sign: +12,300 / −4 500; zero unsigned. */
export function formatSigned(value: number, lang: ReportLanguage, digits = 0): string {
  if (!Number.isFinite(value)) return MISSING;
  return typeset(formatter(lang, 'decimal', digits, true, true).format(value));
}

/** Whole dollars, digits grouped: '78,500 USD' / '78 500 USD'. */
export function formatUsd(value: number, lang: ReportLanguage): string {
  return `${formatNumber(Math.round(value), lang)}${NO_BREAK_SPACE}${dictionary(lang).units.usd}`;
}

/** Whole soʻm: '993,025,000 UZS' / '993 025 000 сум' / '993 025 000 soʻm'. */
export function formatUzs(value: number, lang: ReportLanguage): string {
  return `${formatNumber(Math.round(value), lang)}${NO_BREAK_SPACE}${dictionary(lang).units.uzs}`;
}

/** A share as a percentage: 0.9 → '90%' (en, uz) / '90 %' (ru, with a no-break space). */
export function formatPercent(share: number, lang: ReportLanguage, digits = 0): string {
  if (!Number.isFinite(share)) return MISSING;
  return typeset(formatter(lang, 'percent', digits, true).format(share));
}

/** A change as a signed percentage: +4% / −12,5 %. */
export function formatSignedPercent(share: number, lang: ReportLanguage, digits = 0): string {
  if (!Number.isFinite(share)) return MISSING;
  return typeset(formatter(lang, 'percent', digits, true, true).format(share));
}

/** Signed whole dollars: '+12,300 USD' / '−4 500 USD'. */
export function formatSignedUsd(value: number, lang: ReportLanguage): string {
  return `${formatSigned(Math.round(value), lang)}${NO_BREAK_SPACE}${dictionary(lang).units.usd}`;
}

/** A multiplicative factor: 1.04 → '×1.04 (+4%)'. */
export function formatFactor(factor: number, lang: ReportLanguage): string {
  if (!Number.isFinite(factor)) return MISSING;
  return `×${formatNumber(factor, lang, 3)} (${formatSignedPercent(factor - 1, lang, 1)})`;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** 'YYYY-MM-DD…' in words: '12 March 2026' / '12 марта 2026 г.' / '2026-yil 12-mart'; anything else as given. */
export function formatDate(iso: string, lang: ReportLanguage): string {
  const match = ISO_DAY.exec(iso);
  if (!match) return iso;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return iso;
  return dictionary(lang).date(day, month - 1, year);
}

/** Tashkent keeps UTC+5 all year (no daylight saving since 1991). */
const TASHKENT_OFFSET_MS = 5 * 3600_000;

/** An ISO instant as the day and time in Tashkent: '12 March 2026, 15:14 (Tashkent time)'; unparsable → as given. */
export function formatDateTime(iso: string, lang: ReportLanguage): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const local = new Date(time + TASHKENT_OFFSET_MS).toISOString();
  return `${formatDate(local, lang)}, ${local.slice(11, 16)} (${dictionary(lang).localTime})`;
}

/**
 * The interval's coverage as "k times in n" for the disclaimer: 0.9 → 9 in 10, 0.95 → 95 in 100,
 * so the sentence stays exact for any coverage the model is calibrated to.
 */
export function coverageOdds(coverage: number): { k: string; of: string } {
  const tenths = coverage * 10;
  if (Math.abs(tenths - Math.round(tenths)) < 1e-9) return { k: String(Math.round(tenths)), of: '10' };
  return { k: String(Math.round(coverage * 100)), of: '100' };
}
