/**
 * A valuation in the currency asked for. The models value in USD; a valuation asked for in soʻm
 * (UZS) is converted once, after the model and after any market adjustment, at the rate of its
 * valuation date (./rate-of-date.ts: the CBU's official rate of that day), and names that rate,
 * its day and which rate it is (exchangeRate). Amounts in soʻm
 * are rounded: values (estimates, interval ends, the ensemble members' estimates, the base figures
 * of a market adjustment, a flat's new-build and resale valuations in a market mixture, a vehicle
 * group's median price) to whole 1,000 soʻm, prices per unit (per m², per sotka) to whole soʻm.
 * Ratios (deviations, shares, factors, coverage, the new-build probability) have no currency.
 * A client may send its own rate (issue 35, item 5): then that rate converts, and is named as its.
 * In USD a valuation is left as the model made it, with exchangeRate null.
 */
import { ApiError } from '../../schema/errors';
import { USD_FROM_UZS_ROUNDING, UZS_ROUNDING, type Currency, type ExchangeRate } from '../../schema/currency-contract';
import { clientRate, rateForDate } from './rate-of-date';

/** A dollar amount in soʻm at `usdToUzs` (soʻm per dollar), rounded to its kind's step (UZS_ROUNDING). */
export function usdAmountInUzs(usd: number, usdToUzs: number, step: keyof typeof UZS_ROUNDING = 'value'): number {
  return Math.round((usd * usdToUzs) / UZS_ROUNDING[step]) * UZS_ROUNDING[step];
}

/** A soʻm amount back in dollars at the rate it was converted at, rounded to USD_FROM_UZS_ROUNDING. */
export function uzsAmountInUsd(uzs: number, usdToUzs: number): number {
  return Math.round(uzs / usdToUzs / USD_FROM_UZS_ROUNDING) * USD_FROM_UZS_ROUNDING;
}

// The reply's rate and its rounding steps are contracts of every door: schema/currency-contract.ts.
export { UZS_ROUNDING, type ExchangeRate } from '../../schema/currency-contract';

/** What a valuation (home or vehicle) carries that the conversion reads or writes. */
export interface PricedValuation {
  estimate: number;
  currency: Currency;
  interval: { low: number; high: number };
  models: readonly { estimate: number }[];
  anomaly: object;
  marketLevel: { valuationDate: string };
  warnings: readonly string[];
  pricePerM2?: number;
  landPricePerSotka?: number | null;
  marketAdjustment?: { baseEstimate: number; baseLow: number; baseHigh: number } | null;
  marketMixture?: { newBuild: MixtureValue; resale: MixtureValue } | null;
  exchangeRate?: ExchangeRate | null;
}

/** One market's valuation in a flat's market mixture. */
interface MixtureValue {
  estimate: number;
  low: number;
  high: number;
}

/** The anomaly checks' amounts (homes and vehicles), by how they are rounded. */
const ANOMALY_AMOUNTS: Readonly<Record<string, keyof typeof UZS_ROUNDING>> = {
  districtMedianPricePerM2: 'perUnit',
  mahallaMedianPricePerM2: 'perUnit',
  districtMedianPricePerSotka: 'perUnit',
  groupMedianPrice: 'value',
};

/**
 * The valuation in `currency` (default USD); see the header. `ownRate`: the client's own soʻm per
 * dollar for it (UZS only; the request's check refuses it with USD), used instead of the CBU's.
 */
export function inCurrency<V extends PricedValuation>(view: V, currency: Currency | null | undefined, ownRate?: number | null): V & { exchangeRate: ExchangeRate | null } {
  if (view.currency !== 'USD') throw new Error(`a valuation in ${view.currency} cannot be converted again`);
  // Object.assign, not a spread and then new fields: V8 (Node 20) adds each field after a spread through its slow path (about 2 µs a field).
  if (currency === null || currency === undefined || currency === 'USD') return Object.assign({}, view, { exchangeRate: null });
  const { rate, warning } = ownRate ? { rate: clientRate(ownRate, view.marketLevel.valuationDate), warning: null } : rateForDate(view.marketLevel.valuationDate);
  const inUzs = (usd: number, step: keyof typeof UZS_ROUNDING) => usdAmountInUzs(usd, rate.usdToUzs, step);
  const value = (usd: number) => inUzs(usd, 'value');
  const perUnit = (usd: number | null) => (usd === null ? null : inUzs(usd, 'perUnit'));
  const anomaly = Object.fromEntries(
    Object.entries(view.anomaly).map(([key, amount]) => [key, key in ANOMALY_AMOUNTS && typeof amount === 'number' ? inUzs(amount, ANOMALY_AMOUNTS[key]) : amount]),
  );
  const adjustment = view.marketAdjustment;
  const mixture = view.marketMixture;
  const mixtureValue = (m: MixtureValue) => ({ estimate: value(m.estimate), low: value(m.low), high: value(m.high) });
  return {
    ...view,
    estimate: value(view.estimate),
    currency: 'UZS',
    ...(view.pricePerM2 !== undefined && { pricePerM2: perUnit(view.pricePerM2) }),
    ...(view.landPricePerSotka !== undefined && { landPricePerSotka: perUnit(view.landPricePerSotka) }),
    interval: { ...view.interval, low: value(view.interval.low), high: value(view.interval.high) },
    models: view.models.map((m) => ({ ...m, estimate: value(m.estimate) })),
    anomaly,
    ...(adjustment && { marketAdjustment: { ...adjustment, baseEstimate: value(adjustment.baseEstimate), baseLow: value(adjustment.baseLow), baseHigh: value(adjustment.baseHigh) } }),
    ...(mixture && { marketMixture: { ...mixture, newBuild: mixtureValue(mixture.newBuild), resale: mixtureValue(mixture.resale) } }),
    exchangeRate: { usdToUzs: rate.usdToUzs, date: rate.date, source: rate.source },
    warnings: warning === null ? [...view.warnings] : [...view.warnings, warning],
  };
}

/** What a valuation input asks of its currency: the currency, and the client's own soʻm per dollar (UZS only). */
export interface AskedCurrency {
  currency: Currency | null | undefined;
  ownRate: number | null;
}

/** The input's currency and own rate (every door, and npm run valuate); a rate without UZS is refused, since nothing would be converted at it. */
export function askedCurrency(input: { currency?: Currency | null; exchangeRate?: number | null }): AskedCurrency {
  const ownRate = input.exchangeRate ?? null;
  if (ownRate !== null && input.currency !== 'UZS') {
    throw new ApiError('INVALID_PARAMETER', 'exchange_rate is the soʻm per US dollar a valuation in soʻm is converted at: send it with currency UZS', 'exchange_rate');
  }
  return { currency: input.currency, ownRate };
}
