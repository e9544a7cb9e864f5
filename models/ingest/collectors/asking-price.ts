/**
 * The sites' prices made total and in USD: uybor may quote per m² or per sotka, olx in soʻm or "у.е."
 * (USD). A soʻm price is converted at the official rate of the day it was seen (models/currency),
 * not a month's average: the life-cycle store compares prices day by day.
 */
import { rateForDate } from '../../currency';
import type { AskingPrice } from './collected-listing';

export type PriceBasis = 'total' | 'per_m2' | 'per_sotka';

/** One sotka is 100 m². */
export const M2_PER_SOTKA = 100;

/** Soʻm per USD on `day` ('YYYY-MM-DD'), by the rule every valuation uses. */
export function uzsPerUsdOn(day: string): number {
  return rateForDate(day).rate.usdToUzs;
}

/**
 * The total asking price. `areaM2` multiplies a per-m² price, `landSotka` a per-sotka one; a unit
 * price without its area has no total (null).
 */
export function totalAskingPrice(
  amount: number,
  currency: 'USD' | 'UZS',
  basis: PriceBasis,
  sizes: { areaM2: number | null; landSotka: number | null },
  day: string,
): AskingPrice | null {
  if (!Number.isFinite(amount) || amount <= 0) return null;
  const multiplier = basis === 'total' ? 1 : basis === 'per_m2' ? sizes.areaM2 : sizes.landSotka;
  if (multiplier === null || !(multiplier > 0)) return null;
  const total = Math.round(amount * multiplier * 100) / 100;
  const priceUsd = currency === 'USD' ? total : Math.round((total / uzsPerUsdOn(day)) * 100) / 100;
  return { amount: total, currency, priceUsd };
}
