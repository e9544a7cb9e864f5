/**
 * The currency of a valuation (issue 19), one wording for every surface: the request field both
 * field tables take (./home-contract.ts, ./vehicle-contract.ts), and what the reply's `currency` and
 * `exchange_rate` (GraphQL exchangeRate) mean, with the currencies and the soʻm rounding steps they
 * state. The rates and the conversion are models/currency's.
 */
import type { FieldSpec } from './field-table';

export type Currency = 'USD' | 'UZS';
/** The currencies a valuation can be answered in; USD is the models' own. */
export const CURRENCIES: readonly Currency[] = ['USD', 'UZS'];
export const DEFAULT_CURRENCY: Currency = 'USD';

/** Soʻm amounts are rounded to these steps. */
export const UZS_ROUNDING = { value: 1000, perUnit: 1 } as const;
/** A valuation answered in soʻm and shown again in dollars (its report) is rounded to whole hundreds of dollars: its soʻm figures were rounded already. */
export const USD_FROM_UZS_ROUNDING = 100;

/** The rate a valuation in soʻm was converted at. */
export interface ExchangeRate {
  /** Soʻm per US dollar. */
  usdToUzs: number;
  /** 'YYYY-MM-DD': the day the rate is for (before the valuation date on a weekend or past the data). */
  date: string;
  /** Which rate and from where, in words. */
  source: string;
}

/**
 * The days the service's official rates span (data/currency/cbu_usd_uzs_daily.csv), as the
 * descriptions state them: written here so that a contract loads no data at import;
 * test/models/currency-rates.test.ts holds them to the file.
 */
export const OFFICIAL_RATES_SPAN = { first: '2024-06-19', last: '2026-08-21' } as const;
const { first: FIRST_DAY, last: LAST_DAY } = OFFICIAL_RATES_SPAN;

export const CURRENCY_FIELD: FieldSpec = {
  rest: 'currency',
  graphql: 'currency',
  kind: 'enum',
  values: CURRENCIES,
  required: false,
  description: `The currency of the reply's amounts: ${DEFAULT_CURRENCY} (the default) or UZS (soʻm); REST, MCP and batch items take either in any case. UZS converts the valuation at the Central Bank of Uzbekistan's official USD rate of the valuation date (the rate published that day, or the newest published before it on a weekend or holiday). A date past the service's official rates (they end on ${LAST_DAY}) is converted at the last published rate, with a warning that it is not the rate of its date; a date before them (${FIRST_DAY}) at the service's monthly table of CBU rates. exchange_rate (GraphQL exchangeRate) in the reply names the rate, its day and which rate it is. asking_price stays in USD`,
  example: 'UZS',
};

/** The bounds of a client's own rate (soʻm per dollar): wide around any rate of the decade, narrow enough to catch a rate inverted or in thousands. */
export const CLIENT_RATE_BOUNDS = { min: 1_000, max: 100_000 } as const;

/** A client's own rate (issue 35, item 5): a bank that books in soʻm at its own rate of the day gets the valuation at it. */
export const EXCHANGE_RATE_FIELD: FieldSpec = {
  rest: 'exchange_rate',
  graphql: 'exchangeRate',
  kind: 'number',
  required: false,
  min: CLIENT_RATE_BOUNDS.min,
  max: CLIENT_RATE_BOUNDS.max,
  description: `Your own soʻm per US dollar to convert at, with currency UZS only (with USD: 400), e.g. your bank's rate of the day: the reply's exchange_rate then names it as yours, dated the valuation date, and it is recorded with the valuation (its report says so). From ${CLIENT_RATE_BOUNDS.min.toLocaleString('en')} to ${CLIENT_RATE_BOUNDS.max.toLocaleString('en')}. Without it: the Central Bank of Uzbekistan's official rate, as currency says`,
  example: 12650,
};

export const CURRENCY_DESCRIPTION = `${CURRENCIES.join(' or ')}: the currency of every amount in the reply, as asked for (default ${DEFAULT_CURRENCY}). In UZS values (estimate, interval, the models' estimates, median prices of whole items, the base figures of a market adjustment) are rounded to whole ${UZS_ROUNDING.value.toLocaleString('en')} soʻm and prices per m² or per sotka to whole soʻm`;

export const EXCHANGE_RATE_DESCRIPTION = 'The USD/UZS rate a valuation in UZS was converted at: present for UZS only (absent, or null in GraphQL, for USD)';
export const EXCHANGE_RATE_DESCRIPTIONS = {
  usdToUzs: 'Soʻm per US dollar',
  date: 'YYYY-MM-DD: the day the rate is for: the valuation date, or before it on a weekend or holiday, past the official rates (then warnings say so) or from the monthly table (the first banking day of a month)',
  source: "Which rate and from where, in words: the Central Bank of Uzbekistan's official rate of the day; its last published rate, not the rate of the valuation date; its rate from the service's monthly table; or the client's own rate sent with the request (exchange_rate)",
} as const;
