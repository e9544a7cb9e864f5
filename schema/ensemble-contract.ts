/**
 * What every valuation (flat, house, vehicle) says of its ensemble, on every door: each member's own
 * estimate with the weight it carries (models[]), their disagreement (anomaly.modelSpread), and the
 * confidence stated from its interval (models/ensemble/fsd.ts computes it).
 */

export const CONFIDENCE_LEVELS = ['high', 'medium', 'low'] as const;
export type ConfidenceLevel = (typeof CONFIDENCE_LEVELS)[number];

/** What a valuation says of its confidence. */
export interface StatedConfidence {
  level: ConfidenceLevel;
  /** 1 − FSD, two decimals, at least 0. */
  score: number;
  /** Why the interval, and so the level, is what it is; the first names the FSD and the interval. */
  drivers: string[];
}

/** One member as a valuation states it: its own estimate and the weight it carries in the consensus. */
export interface MemberEstimate {
  name: string;
  /** USD, rounded to 100. */
  estimate: number;
  /** The member's weight in the served consensus, 0 to 1 (3 decimals); 0: computed and reported, not served. */
  weight: number;
}

export const MEMBER_WEIGHT_DESCRIPTION = "The member's weight in the served consensus, 0 to 1 (3 decimals); 0 means computed and shown but not served, and not counted in the model spread";

export const MODEL_SPREAD_DESCRIPTION = "Disagreement of the served members: (highest − lowest estimate) / estimate among the members with weight > 0; 0 when one member carries all the weight, whatever the others' estimates";

export const ACCURACY_CLASS_DESCRIPTION = 'Held-out accuracy class, best first: high, good, fair or low. Decided on both MAPE and R² (the rule is in the model card), so two groups of near MAPE can differ by their R²';

/** The held-out accuracy figures, each named as the model cards and reports name it. Shares are 0 to 1 (0.07 = 7%), given to 4 decimals. */
export const METRIC_DESCRIPTIONS = {
  r2: 'R²: the share of the variance of held-out prices the estimates explain',
  mape: 'MAPE, the mean absolute percentage error: 0.07 = 7% (larger than medianApe: a few large misses pull it up)',
  medianApe: 'Median APE, the median absolute percentage error: half the held-out estimates are closer than this (the "median error" the reports quote)',
  maeUsd: 'Mean absolute error in USD, whole dollars',
  ppe10: 'PPE10: the share of held-out estimates within ±10% of the price',
  ppe20: 'PPE20: the share of held-out estimates within ±20% of the price',
  intervalCoverage: 'The share of held-out prices inside their interval',
  medianIntervalWidth: 'The median interval width relative to the estimate',
} as const;
