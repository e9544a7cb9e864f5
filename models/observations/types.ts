/**
 * What the observations modules work on: a price a bank observed for a home or a vehicle, scored
 * against the valuation our model gave (or would have given) for it at the date it was observed.
 */

/** How the price came about: a completed sale, a bank's own appraisal, or an asking price. */
export type PriceType = 'sale' | 'appraisal' | 'listing';

/** What was valued. */
export type ObservationKind = 'home' | 'vehicle';

/** A valuation as the models give it: the estimate and its interval at `coverage` (0.9), in USD. */
export interface BaseValuation {
  estimate: number;
  low: number;
  high: number;
  coverage: number;
  /**
   * How much wider the interval is for the months past the model's newest data (the valuation's
   * marketLevel.intervalWidening: 0.5 = half as wide again); 0 or absent within the data.
   */
  widening?: number;
}

/**
 * One observed price with the model's valuation of the same home or vehicle at `observedAt`.
 * `groups` places it in its kind's hierarchy, top level first (./groups.ts: homes city, district,
 * segment; vehicles all, make, model); every observation of a kind has the same depth.
 */
export interface ScoredObservation {
  kind: ObservationKind;
  groups: readonly string[];
  /** ISO date (YYYY-MM-DD, or a full timestamp) the price was observed. */
  observedAt: string;
  priceUsd: number;
  priceType: PriceType;
  /** The model's valuation at `observedAt`, before any adjustment: the base the residual is taken against. */
  base: BaseValuation;
  /** The sender's own reference (a loan or deal id), carried, never read. */
  reference?: string;
}

/** log(observed price) − log(base estimate): positive when the model was too low. */
export function logResidual(observation: Pick<ScoredObservation, 'priceUsd' | 'base'>): number {
  return Math.log(observation.priceUsd) - Math.log(observation.base.estimate);
}

/** Whether an observation can be scored at all: positive prices and an interval around a positive estimate. */
export function isScorable(observation: Pick<ScoredObservation, 'priceUsd' | 'base'>): boolean {
  const { priceUsd, base } = observation;
  return priceUsd > 0 && base.estimate > 0 && base.low > 0 && base.high > base.low && Number.isFinite(priceUsd) && Number.isFinite(base.high);
}
