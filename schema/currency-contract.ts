/**
 * The currency of a valuation (issue 19), one wording for every surface: the request field both
 * field tables take (./home-contract.ts, ./vehicle-contract.ts), and what the reply's `currency` and
 * `exchange_rate` (GraphQL exchangeRate) mean. The rates and the conversion are models/currency's.
 */
import { CURRENCIES, DEFAULT_CURRENCY, UZS_ROUNDING } from '../models/currency';
import type { FieldSpec } from './field-table';

export const CURRENCY_FIELD: FieldSpec = {
  rest: 'currency',
  graphql: 'currency',
  kind: 'enum',
  values: CURRENCIES,
  required: false,
  description: `The currency of the reply's amounts: ${DEFAULT_CURRENCY} (the default) or UZS (soʻm); REST, MCP and batch items take either in any case. UZS converts the valuation at the Central Bank of Uzbekistan's official USD rate for the valuation date (the newest month of the service's rate table at or before it, with a warning when that month is not the date's own); exchange_rate (GraphQL exchangeRate) in the reply names the rate, its date and its source. asking_price stays in USD`,
  example: 'UZS',
};

export const CURRENCY_DESCRIPTION = `${CURRENCIES.join(' or ')}: the currency of every amount in the reply, as asked for (default ${DEFAULT_CURRENCY}). In UZS values (estimate, interval, the models' estimates, median prices of whole items, the base figures of a market adjustment) are rounded to whole ${UZS_ROUNDING.value.toLocaleString('en')} soʻm and prices per m² or per sotka to whole soʻm`;

export const EXCHANGE_RATE_DESCRIPTION = 'The USD/UZS rate a valuation in UZS was converted at: present for UZS only (absent, or null in GraphQL, for USD)';
export const EXCHANGE_RATE_DESCRIPTIONS = {
  usdToUzs: 'Soʻm per US dollar',
  date: 'YYYY-MM-DD: the day the rate is for (it may be before the valuation date: see warnings)',
  source: 'Where the rate comes from: the Central Bank of Uzbekistan, or a stand-in the source names',
} as const;
