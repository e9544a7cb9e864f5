/**
 * Live accuracy: how the valuations an organisation was given compare with the prices it then
 * observed, over a window of observation dates, overall and per group.
 *
 * - APE = |estimate − price| / price; the median APE and the share within ±10% (APE ≤ 0.1), as
 *   models/ensemble/metrics.ts measures held-out listings.
 * - Bias: the log residual log(price) − log(estimate) (positive: the valuation was low); its median,
 *   and its recency-weighted mean with a 95% interval, m ± 1.96·se, se² = Σ w²(r − m)² / (Σ w)²
 *   · n/(n − 1) (the sandwich variance of a weighted mean: no assumption that the weights are
 *   inverse variances).
 * - Coverage: the share of prices inside the valuation's interval, with its Wilson 95% bounds.
 * Counts and shares are of observations, unweighted; only the bias mean is weighted.
 */
import { median, wilsonBounds } from '../ensemble/metrics';
import { groupKey } from './groups';
import { HALF_LIFE_DAYS, recencyWeights } from './weights';

/** A valuation given and the price observed for the same home or vehicle. */
export interface ScoredValuation {
  groups: readonly string[];
  observedAt: string;
  priceUsd: number;
  estimate: number;
  low: number;
  high: number;
}

/** Observation dates from `from` to `to`, both included (ISO dates compare as strings). */
export interface AccuracyWindow {
  from?: string;
  to?: string;
}

export interface AccuracyOptions {
  /** The date weights are counted to. */
  asOf: string;
  halfLifeDays?: number;
  window?: AccuracyWindow;
}

export interface LiveAccuracy {
  n: number;
  /** Σ recency weights. */
  effectiveN: number;
  medianApe: number;
  within10: number;
  bias: {
    medianLogResidual: number;
    weightedMeanLogResidual: number;
    /** null below two observations. */
    ci95: { low: number; high: number } | null;
  };
  coverage: { share: number; covered: number; bounds95: { low: number; high: number } };
}

const Z95 = 1.96;

export function inWindow<T extends { observedAt: string }>(items: readonly T[], window: AccuracyWindow = {}): T[] {
  const day = (date: string) => date.slice(0, 10);
  return items.filter((item) => (window.from === undefined || day(item.observedAt) >= day(window.from)) && (window.to === undefined || day(item.observedAt) <= day(window.to)));
}

/** The accuracy of every valuation in the window (NaN measures when it holds none). */
export function liveAccuracy(items: readonly ScoredValuation[], options: AccuracyOptions): LiveAccuracy {
  const rows = inWindow(items, options.window);
  const n = rows.length;
  const weights = recencyWeights(rows, options.asOf, options.halfLifeDays ?? HALF_LIFE_DAYS);
  const residuals = rows.map((r) => Math.log(r.priceUsd) - Math.log(r.estimate));
  const ape = rows.map((r) => Math.abs(r.estimate - r.priceUsd) / r.priceUsd);
  const covered = rows.filter((r) => r.priceUsd >= r.low && r.priceUsd <= r.high).length;
  let sw = 0;
  let swr = 0;
  for (let i = 0; i < n; i++) {
    sw += weights[i];
    swr += weights[i] * residuals[i];
  }
  const mean = swr / sw;
  let ci95: LiveAccuracy['bias']['ci95'] = null;
  if (n >= 2) {
    let s = 0;
    for (let i = 0; i < n; i++) s += (weights[i] * (residuals[i] - mean)) ** 2;
    const se = Math.sqrt((s / (sw * sw)) * (n / (n - 1)));
    ci95 = { low: mean - Z95 * se, high: mean + Z95 * se };
  }
  return {
    n,
    effectiveN: sw,
    medianApe: median(ape),
    within10: ape.filter((x) => x <= 0.1).length / n,
    bias: { medianLogResidual: median(residuals), weightedMeanLogResidual: mean, ci95 },
    coverage: { share: covered / n, covered, bounds95: wilsonBounds(covered, n) },
  };
}

/** The accuracy of each group at `level` (0 = the top) of the hierarchy. */
export function accuracyByGroup(items: readonly ScoredValuation[], level: number, options: AccuracyOptions): Record<string, LiveAccuracy> {
  const byGroup = new Map<string, ScoredValuation[]>();
  for (const item of inWindow(items, options.window)) {
    const key = groupKey(item.groups, level);
    const rows = byGroup.get(key);
    if (rows) rows.push(item);
    else byGroup.set(key, [item]);
  }
  return Object.fromEntries([...byGroup].map(([key, rows]) => [key, liveAccuracy(rows, { ...options, window: undefined })]));
}
