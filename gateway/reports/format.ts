/**
 * Numbers, money and dates as each language writes them. Done by hand rather than with Intl: the
 * report must look the same on any Node build (small-icu builds know no 'uz'), and a bank wants
 * digits grouped in every amount, 4-digit ones too (Intl's ru leaves 7500 ungrouped).
 * en: 78,500 and 0.9; ru, uz: 78 500 and 0,9 with a NO-BREAK SPACE (U+00A0), so an amount never
 * breaks across lines.
 */
import { dictionary } from './i18n';
import type { ReportLanguage } from './report-data';

export const NO_BREAK_SPACE = '\u00a0';
/** What the report prints for a value it does not have. */
export const MISSING = '—';
/** U+2212: a true minus, the width of a plus. */
const MINUS = '\u2212';

interface NumberStyle {
  group: string;
  decimal: string;
  /** Between a number and %: none in English, a no-break space in Russian (GOST) style. */
  percentGap: string;
}

const STYLES: Readonly<Record<ReportLanguage, NumberStyle>> = {
  en: { group: ',', decimal: '.', percentGap: '' },
  ru: { group: NO_BREAK_SPACE, decimal: ',', percentGap: NO_BREAK_SPACE },
  uz: { group: NO_BREAK_SPACE, decimal: ',', percentGap: '' },
};

/** A number with `digits` decimals, digits grouped in threes unless `grouped` is false (years); NaN and ±Infinity print as MISSING. */
export function formatNumber(value: number, lang: ReportLanguage, digits = 0, grouped = true): string {
  if (!Number.isFinite(value)) return MISSING;
  const style = STYLES[lang];
  const fixed = Math.abs(value).toFixed(digits);
  const [whole, fraction] = fixed.split('.');
  const integer = grouped ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, style.group) : whole;
  const negative = value < 0 && Number(fixed) !== 0;
  return `${negative ? MINUS : ''}${integer}${fraction ? style.decimal + fraction : ''}`;
}

/** Whole dollars, digits grouped: '78,500 USD' / '78 500 USD'. */
export function formatUsd(value: number, lang: ReportLanguage): string {
  return `${formatNumber(Math.round(value), lang)}${NO_BREAK_SPACE}${dictionary(lang).units.usd}`;
}

/** Whole soʻm: '993,025,000 UZS' / '993 025 000 сум' / '993 025 000 soʻm'. */
export function formatUzs(value: number, lang: ReportLanguage): string {
  return `${formatNumber(Math.round(value), lang)}${NO_BREAK_SPACE}${dictionary(lang).units.uzs}`;
}

/** A share as a percentage: 0.9 → '90%' (en, uz) / '90 %' (ru). */
export function formatPercent(share: number, lang: ReportLanguage, digits = 0): string {
  if (!Number.isFinite(share)) return MISSING;
  return `${formatNumber(share * 100, lang, digits)}${STYLES[lang].percentGap}%`;
}

/** A multiplicative factor: 1.04 → '×1.04 (+4%)'. */
export function formatFactor(factor: number, lang: ReportLanguage): string {
  if (!Number.isFinite(factor)) return MISSING;
  const change = factor - 1;
  const sign = change > 0 ? '+' : '';
  return `×${formatNumber(factor, lang, 3)} (${sign}${formatPercent(change, lang, 1)})`;
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
