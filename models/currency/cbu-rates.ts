/**
 * The monthly USD/UZS rate table: one entry per month, each with the day its rate is for and where it
 * comes from. It serves what the daily official rates (./cbu-daily.ts, from 2024-06-19) do not reach:
 * ingestion converts soʻm asking prices with it (uzsToUsd: the listing file's scrape month, whose
 * day is not known, so a daily rate would be no truer), and a valuation dated before the daily rates
 * begin is converted at it (monthlyRateFor, through ./rate-of-date.ts).
 *
 * Source. Central Bank of the Republic of Uzbekistan (CBU), official rate of the US dollar
 * (cbu.uz → "Archive of exchange rates"), the rate in force on the first banking day of the month
 * (`date`: that month's first weekday), rounded to whole soʻm, as reported by the Uzbek press
 * (e.g. 12 546.02 on 14 March 2024, 12 937.16 on 1 April 2025). The entries from 2025 are kept
 * because ingestion converted with them (its results must not move); the daily file has the same
 * days within 0.3% (2025-06-02: 12 790.43 there, 12 760 here). The 2026-07 stand-in (the rate
 * uybor.uz's listings implied) is gone: the daily file has the CBU's own rates for July 2026.
 *
 * Updating. Valuations need nothing more here (newer days go to the daily file). A new listing file
 * with soʻm prices needs its scrape month: add that month's first banking day's CBU rate (from the
 * daily file or the CBU archive), rounded to whole soʻm. Never guess a month.
 */

// The currencies of a reply are a contract of every door: schema/currency-contract.ts.
export { CURRENCIES, DEFAULT_CURRENCY, type Currency } from '../../schema/currency-contract';

export interface UsdUzsRate {
  /** 'YYYY-MM': the month the entry serves. */
  period: string;
  /** 'YYYY-MM-DD': the day the rate is for. */
  date: string;
  /** Soʻm per US dollar. */
  usdToUzs: number;
  /** Where the rate comes from, as the reply states it. */
  source: string;
}

const CBU_SOURCE = (period: string) =>
  `Central Bank of Uzbekistan (cbu.uz), official USD rate in force on the first banking day of ${period}, rounded to whole soʻm (as reported by the Uzbek press), from the service's monthly rate table`;

/** Oldest first. */
export const USD_UZS_RATES: readonly UsdUzsRate[] = [
  { period: '2021-02', date: '2021-02-01', usdToUzs: 10_480, source: CBU_SOURCE('2021-02') },
  { period: '2024-04', date: '2024-04-01', usdToUzs: 12_630, source: CBU_SOURCE('2024-04') },
  { period: '2025-02', date: '2025-02-03', usdToUzs: 12_970, source: CBU_SOURCE('2025-02') },
  { period: '2025-04', date: '2025-04-01', usdToUzs: 12_937, source: CBU_SOURCE('2025-04') },
  { period: '2025-06', date: '2025-06-02', usdToUzs: 12_760, source: CBU_SOURCE('2025-06') },
];

/** Soʻm per dollar by month, as ingestion reads them. */
export const UZS_PER_USD: Readonly<Record<string, number>> = Object.fromEntries(USD_UZS_RATES.map((r) => [r.period, r.usdToUzs]));

/** Converts soʻm to USD at the period's rate; a period without a rate is a programming error, not bad data. */
export function uzsToUsd(amountUzs: number, period: string): number {
  const rate = UZS_PER_USD[period];
  if (rate === undefined) throw new Error(`no USD/UZS rate for ${period}: add it to models/currency/cbu-rates.ts`);
  return amountUzs / rate;
}

/** The monthly entry for a day before the daily rates, and the warning that goes with it (null: the day's own month has an entry). */
export interface MonthlyRate {
  rate: UsdUzsRate;
  warning: string | null;
}

/** The entry of the newest month at or before the month of `day` ('YYYY-MM-DD'); before the oldest, the oldest. Either way but its own month, with a warning. */
export function monthlyRateFor(day: string, table: readonly UsdUzsRate[] = USD_UZS_RATES): MonthlyRate {
  if (table.length === 0) throw new Error('the monthly USD/UZS rate table is empty');
  const month = day.slice(0, 7);
  const oldest = table[0];
  const atOrBefore = [...table].reverse().find((r) => r.period <= month);
  if (!atOrBefore) return { rate: oldest, warning: `no USD/UZS rate before ${oldest.period} in the monthly table: converted at the ${oldest.period} rate` };
  const warning = atOrBefore.period === month ? null : `no USD/UZS rate for ${month} in the monthly table: converted at the ${atOrBefore.period} rate, the newest before it`;
  return { rate: atOrBefore, warning };
}
