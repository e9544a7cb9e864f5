/**
 * Currencies (issue 19): the USD/UZS rate table with its sources (./cbu-rates.ts), which ingestion
 * converts soʻm asking prices with and the service converts valuations into soʻm with.
 */
export { CURRENCIES, DEFAULT_CURRENCY, USD_UZS_RATES, UZS_PER_USD, rateForDate, uzsToUsd, type Currency, type RateForDate, type UsdUzsRate } from './cbu-rates';
