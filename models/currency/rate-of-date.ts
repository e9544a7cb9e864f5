/**
 * Which USD/UZS rate a valuation dated D is converted at, and what the reply says about it:
 * - the Central Bank of Uzbekistan's official rate published for D, or the newest published before
 *   it (weekends and holidays have none): ./cbu-daily.ts, from 2024-06-19; no warning;
 * - D past the daily file's last day: that last published rate, with a warning saying it is not
 *   the rate of D (exchange_rate.date is the rate's own day);
 * - D before the daily file: the monthly table (./cbu-rates.ts), with its warnings.
 * `basis` says which of the three it is, so a report can say it in its own language.
 */
import { CBU_DAILY_RATES, dailyRateOn, type DailyRate } from './cbu-daily';
import { monthlyRateFor, USD_UZS_RATES, type UsdUzsRate } from './cbu-rates';

/** cbu-daily: the rate of the date (or the newest before it); cbu-last-published: the date is past the data; cbu-monthly: the monthly table; client: the client's own, sent with the request. */
export type RateBasis = 'cbu-daily' | 'cbu-last-published' | 'cbu-monthly' | 'client';

export interface DatedRate {
  /** Soʻm per US dollar. */
  usdToUzs: number;
  /** 'YYYY-MM-DD': the day the rate is for. */
  date: string;
  /** Which rate and from where, in words (the reply's exchange_rate.source). */
  source: string;
  basis: RateBasis;
}

/** The rate a valuation dated `date` is converted at, and the warning that goes with it (null: nothing to say). */
export interface RateForDate {
  rate: DatedRate;
  warning: string | null;
}

const CBU = 'Central Bank of Uzbekistan (cbu.uz)';

/** See the header. `date` is 'YYYY-MM-DD' (a longer ISO time is cut to its day). */
export function rateForDate(date: string, daily: readonly DailyRate[] = CBU_DAILY_RATES, monthly: readonly UsdUzsRate[] = USD_UZS_RATES): RateForDate {
  if (!/^\d{4}-\d{2}-\d{2}/.test(date)) throw new Error(`not a date: ${date}`);
  const day = date.slice(0, 10);
  const published = dailyRateOn(day, daily);
  if (published === null) {
    const { rate, warning } = monthlyRateFor(day, monthly);
    return { rate: { usdToUzs: rate.usdToUzs, date: rate.date, source: rate.source, basis: 'cbu-monthly' }, warning };
  }
  const last = daily[daily.length - 1];
  if (day > last.date) {
    return {
      rate: { ...published, source: `${CBU}, its last published official USD rate in the service's data, of ${last.date}: not the rate of ${day}`, basis: 'cbu-last-published' },
      warning: `no official USD/UZS rate after ${last.date} in the service's data: converted at the Central Bank of Uzbekistan's last published rate, of ${last.date}, not the rate of ${day}`,
    };
  }
  const newestBefore = published.date < day ? `, the newest published before ${day}` : '';
  return { rate: { ...published, source: `${CBU}, official USD rate of ${published.date}${newestBefore}`, basis: 'cbu-daily' }, warning: null };
}

/** exchange_rate.source of a valuation converted at the client's own rate. */
export const CLIENT_RATE_SOURCE = "The client's own rate, sent with the request (exchange_rate)";

/** The client's own rate for a valuation dated `valuationDate`: the day is the valuation date's. */
export function clientRate(usdToUzs: number, valuationDate: string): DatedRate {
  return { usdToUzs, date: valuationDate.slice(0, 10), source: CLIENT_RATE_SOURCE, basis: 'client' };
}

/**
 * The basis of a rate a valuation was answered with (a stored record's exchange_rate): 'client' for
 * the client's own; the rule's, when the rule still gives that rate for the date; else 'cbu-monthly'
 * for a monthly-table rate and 'recorded' for anything else an older service answered with.
 */
export function rateBasisOf(rate: { usdToUzs: number; date: string; source: string }, valuationDate: string): RateBasis | 'recorded' {
  if (rate.source === CLIENT_RATE_SOURCE) return 'client';
  const now = rateForDate(valuationDate).rate;
  if (now.date === rate.date && now.usdToUzs === rate.usdToUzs) return now.basis;
  return /first banking day/.test(rate.source) && rate.source.startsWith(CBU) ? 'cbu-monthly' : 'recorded';
}
