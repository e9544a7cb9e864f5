/**
 * The USD/UZS rate table: one entry per month, each with the day its rate is for and where it comes
 * from. Ingestion converts soʻm asking prices to USD with it (uzsToUsd: the listing period's own
 * month, nothing else), and the service converts a valuation into soʻm with it (rateForDate).
 *
 * Source. Official entries: Central Bank of the Republic of Uzbekistan (CBU), official rate of the US
 * dollar (cbu.uz → "Archive of exchange rates"), the rate in force on the first banking day of the
 * month (`date`: that month's first weekday), rounded to whole soʻm. They were taken from CBU
 * announcements as reported by the Uzbek press (e.g. 12 546.02 on 14 March 2024, 12 937.16 on
 * 1 April 2025). One entry is not the CBU's (`official: false`): 2026-07, the rate uybor.uz used
 * for its snapshot of 21 July 2026, implied by data/listings/uybor_listings_2026_07.csv (every
 * listing there states price_usd and price_uzs; the median of price_uzs / price_usd is 12 031.25,
 * and all 700 listings agree to within 0.01 soʻm). test/models/currency-rates.test.ts checks the
 * table against every listing file that states both prices (within 0.5%).
 *
 * Updating. The service has no network access: rates are added here by hand, never fetched. At each
 * data refresh: add the month's CBU rate from the CBU archive (the first banking day's, rounded to
 * whole soʻm, official: true), and replace the 2026-07 entry by the CBU archive value. Never guess a
 * month: a month without an entry is served by the rule below, with a warning.
 *
 * Which entry a valuation date gets (rateForDate): the entry of the newest month at or before the
 * date's month. A date past the newest entry gets the newest, a date before the oldest the oldest;
 * either way, and whenever the date's own month has no entry or its entry is not the CBU's, the
 * answer carries a warning saying so, and the reply names the rate's own date.
 */

export type Currency = 'USD' | 'UZS';
/** The currencies a valuation can be answered in; USD is the models' own. */
export const CURRENCIES: readonly Currency[] = ['USD', 'UZS'];
export const DEFAULT_CURRENCY: Currency = 'USD';

export interface UsdUzsRate {
  /** 'YYYY-MM': the month the entry serves. */
  period: string;
  /** 'YYYY-MM-DD': the day the rate is for. */
  date: string;
  /** Soʻm per US dollar. */
  usdToUzs: number;
  /** True for the CBU's official rate; false for a stand-in (see source). */
  official: boolean;
  /** Where the rate comes from, as the reply states it. */
  source: string;
}

const CBU_SOURCE = (period: string) =>
  `Central Bank of Uzbekistan (cbu.uz), official USD rate in force on the first banking day of ${period}, rounded to whole soʻm (as reported by the Uzbek press)`;

/** Oldest first. */
export const USD_UZS_RATES: readonly UsdUzsRate[] = [
  { period: '2021-02', date: '2021-02-01', usdToUzs: 10_480, official: true, source: CBU_SOURCE('2021-02') },
  { period: '2024-04', date: '2024-04-01', usdToUzs: 12_630, official: true, source: CBU_SOURCE('2024-04') },
  { period: '2025-02', date: '2025-02-03', usdToUzs: 12_970, official: true, source: CBU_SOURCE('2025-02') },
  { period: '2025-04', date: '2025-04-01', usdToUzs: 12_937, official: true, source: CBU_SOURCE('2025-04') },
  { period: '2025-06', date: '2025-06-02', usdToUzs: 12_760, official: true, source: CBU_SOURCE('2025-06') },
  {
    period: '2026-07', date: '2026-07-21', usdToUzs: 12_031.25, official: false,
    source: 'Not a CBU rate: the rate implied by uybor.uz listings of 21 July 2026 (data/listings/uybor_listings_2026_07.csv, median of price_uzs / price_usd), to be replaced by the CBU archive value at the next refresh',
  },
];

/** Soʻm per dollar by month, as ingestion reads them. */
export const UZS_PER_USD: Readonly<Record<string, number>> = Object.fromEntries(USD_UZS_RATES.map((r) => [r.period, r.usdToUzs]));

/** Converts soʻm to USD at the period's rate; a period without a rate is a programming error, not bad data. */
export function uzsToUsd(amountUzs: number, period: string): number {
  const rate = UZS_PER_USD[period];
  if (rate === undefined) throw new Error(`no USD/UZS rate for ${period}: add it to models/currency/cbu-rates.ts`);
  return amountUzs / rate;
}

/** The rate a valuation dated `date` is converted at, and the warning that goes with it (null: the date's own month has a CBU rate). */
export interface RateForDate {
  rate: UsdUzsRate;
  warning: string | null;
}

/** The entry of the newest month at or before `date` ('YYYY-MM-DD' or 'YYYY-MM'); see the header for the rule and its warnings. */
export function rateForDate(date: string, table: readonly UsdUzsRate[] = USD_UZS_RATES): RateForDate {
  if (!/^\d{4}-\d{2}/.test(date)) throw new Error(`not a date: ${date}`);
  if (table.length === 0) throw new Error('the USD/UZS rate table is empty');
  const month = date.slice(0, 7);
  const oldest = table[0];
  const newest = table[table.length - 1];
  const atOrBefore = [...table].reverse().find((r) => r.period <= month);
  const rate = atOrBefore ?? oldest;
  let warning: string | null = null;
  if (!atOrBefore) warning = `no USD/UZS rate before ${oldest.period} in the table: converted at the ${rate.period} rate`;
  else if (month > newest.period) warning = `no USD/UZS rate after ${newest.period} in the table: converted at the ${rate.period} rate`;
  else if (rate.period !== month) warning = `no USD/UZS rate for ${month} in the table: converted at the ${rate.period} rate, the newest before it`;
  if (!rate.official) {
    const standIn = `the ${rate.period} rate is not the CBU's but the one uybor.uz's listings imply (exchange_rate.source)`;
    warning = warning === null ? standIn : `${warning}; ${standIn}`;
  }
  return { rate, warning };
}
