/**
 * The bound on a market factor, applied where a model is fitted (./model.ts) and where a valuation
 * is adjusted (./adjust.ts): its own module, since both need it.
 */

/**
 * The most a market factor moves a valuation either way: × 2 or × 1/2 (issue 33, finding 6). The
 * model's 90% intervals are ±30–80%, so a factor past 2 says the observations are not of the same
 * market (prices in thousands, per m², of other properties) far more often than that the market
 * moved that much since training; the valuation is moved by the bound and says so.
 */
export const MAX_MARKET_FACTOR = 2;
const MAX_LOG_FACTOR = Math.log(MAX_MARKET_FACTOR);

/** A group's log factor as valuations apply it: within ±log(MAX_MARKET_FACTOR). */
export function boundedLogFactor(logFactor: number): number {
  return Math.min(MAX_LOG_FACTOR, Math.max(-MAX_LOG_FACTOR, logFactor));
}
