/**
 * Currencies (issues 19, 32): the CBU's official daily USD/UZS rates (./cbu-daily.ts, read once at
 * start), the monthly table with its sources (./cbu-rates.ts: ingestion's soʻm prices, and dates
 * before the daily rates), the rule choosing a valuation date's rate (./rate-of-date.ts), and the
 * conversion of a valuation into the currency asked for (./convert.ts), which the service runs once
 * per valuation.
 */
export { CBU_DAILY_RATES, dailyRateOn, type DailyRate } from './cbu-daily';
export { CURRENCIES, DEFAULT_CURRENCY, USD_UZS_RATES, UZS_PER_USD, uzsToUsd, type Currency, type UsdUzsRate } from './cbu-rates';
export { clientRate, CLIENT_RATE_SOURCE, rateBasisOf, rateForDate, type DatedRate, type RateBasis, type RateForDate } from './rate-of-date';
export { askedCurrency, inCurrency, usdAmountInUzs, uzsAmountInUsd, UZS_ROUNDING, type AskedCurrency, type ExchangeRate, type PricedValuation } from './convert';
