/**
 * Recency weights: an observation counts half as much as one a half-life newer in its group's mean.
 * They rank observations against each other and nothing more: a group's evidence is the Kish
 * effective count of its weights, (Σw)²/Σw² (./shrinkage.ts), which does not change when every
 * weight is halved. So 200 observations that agree, all a year older than the valuation, still
 * move its factor most of the way (nothing newer says otherwise), while a fresh price among old
 * ones outweighs each of them. (Until issue 31 the weights were counted as information too: a
 * valuation dated a year after 200 observations saw about 12 of them.)
 */

/**
 * Days after which an observation counts half. 90 days: Tashkent flat prices moved about 1% a month
 * in the market index, so a quarter-old price is off by a few percent, the size of the band the
 * bias is held to; set before any measurement. Configurable per organisation later.
 */
export const HALF_LIFE_DAYS = 90;

const DAY_MS = 86_400_000;

/** Whole and fractional days from `observedAt` to `asOf` (ISO dates or timestamps); never negative. */
export function ageInDays(observedAt: string, asOf: string): number {
  const age = (Date.parse(asOf) - Date.parse(observedAt)) / DAY_MS;
  if (Number.isNaN(age)) throw new Error(`not a date: ${Number.isNaN(Date.parse(asOf)) ? asOf : observedAt}`);
  return Math.max(0, age);
}

/** 0.5^(age / half-life): 1 today, ½ one half-life ago. A half-life of Infinity weights everything 1. */
export function recencyWeight(ageDays: number, halfLifeDays = HALF_LIFE_DAYS): number {
  if (!(halfLifeDays > 0)) throw new Error('the half-life must be positive');
  return 0.5 ** (Math.max(0, ageDays) / halfLifeDays);
}

/** The recency weight of each observation as of `asOf`. */
export function recencyWeights(observations: readonly { observedAt: string }[], asOf: string, halfLifeDays = HALF_LIFE_DAYS): Float64Array {
  return Float64Array.from(observations, (o) => recencyWeight(ageInDays(o.observedAt, asOf), halfLifeDays));
}
