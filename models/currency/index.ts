/**
 * Currencies (issue 19): the USD/UZS rate table with its sources (./cbu-rates.ts), which ingestion
 * converts soʻm asking prices with, and the conversion of a valuation into the currency asked for
 * (./convert.ts), which the service runs once per valuation.
 */
export { CURRENCIES, DEFAULT_CURRENCY, USD_UZS_RATES, UZS_PER_USD, rateForDate, uzsToUsd, type Currency, type RateForDate, type UsdUzsRate } from './cbu-rates';
export { inCurrency, UZS_ROUNDING, type ExchangeRate, type PricedValuation } from './convert';
