/**
 * Each scrape's own level offset, modelled as noise around the market level (issue 32, item 2): the
 * index's city points (each month mostly one site's scrape) read by a local linear trend (level and
 * slope random walks) observed with the point's sampling variance plus the scrape variance that
 * leave one source out measured. The Kalman filter gives the newest level as a weighted reading of
 * every point, the RTS smoother each point's offset from the market level.
 *
 * Whether serving uses that reading instead of the newest point is a rule fixed beforehand and
 * re-checked at every fit on the index's own rolling-origin history (`rollingOrigin`): the reading
 * is applied only if, at every horizon, its forecasts had a lower median |error| than the newest
 * point held. Pure computation: training fits it, the manifest stores it.
 */
import { periodIndex } from '../ensemble/encoding';
import { median } from '../ensemble/metrics';
import type { LevelPoint } from '../ensemble/level-series';

/** The slope's variance per month is chosen by the filter's likelihood among these, fixed before any forecast was seen. */
export const SLOPE_VARIANCES = [0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3] as const;
/** The horizons the rolling-origin check groups its pairs by (months ahead, inclusive). */
export const FORECAST_HORIZONS: readonly [number, number][] = [[1, 6], [7, 18], [19, Infinity]];

export interface ScrapeOffsets {
  method: string;
  /** The observation noise beyond sampling: the variance of a scrape's own offset (leave one source out). */
  scrapeVariance: number;
  /** The level's variance per month (the index's volatility squared) and the slope's, chosen by likelihood. */
  levelVariance: number;
  slopeVariance: number;
  /** Per index point: the market level the smoother reads there and the point's offset from it (log), with the offset's se. */
  points: { period: string; level: number; offset: number; se: number }[];
  /** Each source's own offset as leave one source out measured it (median log residual; log). */
  sources: { source: string; offset: number }[];
  /** The filtered level at the newest period (log, relative to the newest point) and its se. */
  newestReading: { logLevel: number; se: number };
  /** Rolling origin: from each point, the level forecast held, as the newest point and as the filter's reading. */
  rollingOrigin: { months: string; pairs: number; medianAbsErrorHeld: number; medianAbsErrorFiltered: number }[];
  /** True when the reading beat the newest point at every horizon; serving then holds the reading past the data. */
  applied: boolean;
}

type Vec = [number, number];
type Mat = [[number, number], [number, number]];
interface Step { predicted: Vec; predictedCov: Mat; filtered: Vec; filteredCov: Mat; months: number }

/** Local linear trend filter over the points; the first point sets the level (diffuse), the slope starts at 0 with a wide prior. */
function filter(points: readonly LevelPoint[], observationVariance: number, levelVariance: number, slopeVariance: number): { steps: Step[]; logLikelihood: number } {
  const t = points.map((p) => periodIndex(p.period));
  let x: Vec = [points[0].logLevel, 0];
  let P: Mat = [[points[0].se ** 2 + observationVariance, 0], [0, 1e-2]];
  const steps: Step[] = [{ predicted: x, predictedCov: P, filtered: x, filteredCov: P, months: 0 }];
  let logLikelihood = 0;
  for (let i = 1; i < points.length; i++) {
    const h = t[i] - t[i - 1];
    const predicted: Vec = [x[0] + h * x[1], x[1]];
    const predictedCov: Mat = [
      [P[0][0] + 2 * h * P[0][1] + h * h * P[1][1] + levelVariance * h, P[0][1] + h * P[1][1]],
      [P[0][1] + h * P[1][1], P[1][1] + slopeVariance * h],
    ];
    const S = predictedCov[0][0] + points[i].se ** 2 + observationVariance;
    const v = points[i].logLevel - predicted[0];
    // The second point only fixes the slope (diffuse start): the likelihood counts from the third on.
    if (i >= 2) logLikelihood -= 0.5 * (Math.log(2 * Math.PI * S) + (v * v) / S);
    const K: Vec = [predictedCov[0][0] / S, predictedCov[1][0] / S];
    x = [predicted[0] + K[0] * v, predicted[1] + K[1] * v];
    P = [
      [predictedCov[0][0] - K[0] * predictedCov[0][0], predictedCov[0][1] - K[0] * predictedCov[0][1]],
      [predictedCov[1][0] - K[1] * predictedCov[0][0], predictedCov[1][1] - K[1] * predictedCov[0][1]],
    ];
    steps.push({ predicted, predictedCov, filtered: x, filteredCov: P, months: h });
  }
  return { steps, logLikelihood };
}

/** Rauch–Tung–Striebel: the level at every point from all of them; returns level and its variance per point. */
function smooth(steps: readonly Step[]): { level: number; variance: number }[] {
  const n = steps.length;
  let x = steps[n - 1].filtered;
  let P = steps[n - 1].filteredCov;
  const out = new Array<{ level: number; variance: number }>(n);
  out[n - 1] = { level: x[0], variance: P[0][0] };
  for (let i = n - 2; i >= 0; i--) {
    const { filtered: f, filteredCov: F } = steps[i];
    const { predicted: p, predictedCov: Q, months: h } = steps[i + 1];
    // Gain C = F Aᵀ Q⁻¹ with A = [[1, h], [0, 1]].
    const FAt: Mat = [[F[0][0] + h * F[0][1], F[0][1]], [F[1][0] + h * F[1][1], F[1][1]]];
    const det = Q[0][0] * Q[1][1] - Q[0][1] * Q[1][0];
    const Qi: Mat = [[Q[1][1] / det, -Q[0][1] / det], [-Q[1][0] / det, Q[0][0] / det]];
    const C: Mat = [
      [FAt[0][0] * Qi[0][0] + FAt[0][1] * Qi[1][0], FAt[0][0] * Qi[0][1] + FAt[0][1] * Qi[1][1]],
      [FAt[1][0] * Qi[0][0] + FAt[1][1] * Qi[1][0], FAt[1][0] * Qi[0][1] + FAt[1][1] * Qi[1][1]],
    ];
    const dx: Vec = [x[0] - p[0], x[1] - p[1]];
    const dP: Mat = [[P[0][0] - Q[0][0], P[0][1] - Q[0][1]], [P[1][0] - Q[1][0], P[1][1] - Q[1][1]]];
    x = [f[0] + C[0][0] * dx[0] + C[0][1] * dx[1], f[1] + C[1][0] * dx[0] + C[1][1] * dx[1]];
    // P = F + C dP Cᵀ; only the level's variance is reported, the full matrix carries the recursion.
    const CdP: Mat = [
      [C[0][0] * dP[0][0] + C[0][1] * dP[1][0], C[0][0] * dP[0][1] + C[0][1] * dP[1][1]],
      [C[1][0] * dP[0][0] + C[1][1] * dP[1][0], C[1][0] * dP[0][1] + C[1][1] * dP[1][1]],
    ];
    P = [
      [F[0][0] + CdP[0][0] * C[0][0] + CdP[0][1] * C[0][1], F[0][1] + CdP[0][0] * C[1][0] + CdP[0][1] * C[1][1]],
      [F[1][0] + CdP[1][0] * C[0][0] + CdP[1][1] * C[0][1], F[1][1] + CdP[1][0] * C[1][0] + CdP[1][1] * C[1][1]],
    ];
    out[i] = { level: x[0], variance: P[0][0] };
  }
  return out;
}

/** Every (origin, later point) pair: the newest point held and the filter's reading held, against the level later points found. */
function rollingOrigin(points: readonly LevelPoint[], observationVariance: number, levelVariance: number, slopeVariance: number): ScrapeOffsets['rollingOrigin'] {
  const t = points.map((p) => periodIndex(p.period));
  const pairs: { h: number; held: number; filtered: number }[] = [];
  for (let k = 1; k < points.length - 1; k++) {
    const { steps } = filter(points.slice(0, k + 1), observationVariance, levelVariance, slopeVariance);
    const reading = steps[k].filtered[0];
    for (let j = k + 1; j < points.length; j++) pairs.push({ h: t[j] - t[k], held: points[k].logLevel - points[j].logLevel, filtered: reading - points[j].logLevel });
  }
  return byHorizon(pairs, (within) => ({
    medianAbsErrorHeld: round4(median(within.map((p) => Math.abs(p.held)))),
    medianAbsErrorFiltered: round4(median(within.map((p) => Math.abs(p.filtered)))),
  }));
}

/** Forecast pairs grouped by FORECAST_HORIZONS (empty groups left out), each summarised. */
export function byHorizon<P extends { h: number }, S>(pairs: readonly P[], summarise: (within: P[]) => S): ({ months: string; pairs: number } & S)[] {
  return FORECAST_HORIZONS.flatMap(([from, to]) => {
    const within = pairs.filter((p) => p.h >= from && p.h <= to);
    if (within.length === 0) return [];
    return [{ months: to === Infinity ? `${from}+` : `${from}–${to}`, pairs: within.length, ...summarise(within) }];
  });
}

/** The variance of a scrape's own level offset: the mean square of the sources' offsets. */
export function scrapeVarianceOf(sourceOffsets: readonly { offset: number }[]): number {
  return sourceOffsets.length ? sourceOffsets.reduce((s, o) => s + o.offset * o.offset, 0) / sourceOffsets.length : 0;
}

/**
 * The scrape offsets of an index's city points, given the index's volatility per √month and each
 * source's leave-one-source-out offset (their mean square is the scrape variance).
 */
export function fitScrapeOffsets(city: readonly LevelPoint[], volatilityPerMonth: number, sourceOffsets: readonly { source: string; offset: number }[]): ScrapeOffsets {
  const scrapeVariance = scrapeVarianceOf(sourceOffsets);
  const levelVariance = volatilityPerMonth ** 2;
  const slopeVariance = SLOPE_VARIANCES.reduce((best, v) => (filter(city, scrapeVariance, levelVariance, v).logLikelihood > filter(city, scrapeVariance, levelVariance, best).logLikelihood ? v : best));
  const { steps } = filter(city, scrapeVariance, levelVariance, slopeVariance);
  const smoothed = smooth(steps);
  const newest = steps[steps.length - 1];
  const check = rollingOrigin(city, scrapeVariance, levelVariance, slopeVariance);
  return {
    method: `local linear trend (level variance ${round6(levelVariance)} a month, the index's volatility squared; slope variance ${slopeVariance} a month, the likeliest of ${SLOPE_VARIANCES.join(', ')}) over the city points, each observed with its sampling variance plus a scrape's own (${round4(scrapeVariance)}, the mean square of the sources' leave-one-source-out offsets); Kalman filter for the newest reading, RTS smoother for each point's offset`,
    scrapeVariance: round4(scrapeVariance),
    levelVariance: round6(levelVariance),
    slopeVariance,
    points: city.map((p, i) => ({ period: p.period, level: round4(smoothed[i].level), offset: round4(p.logLevel - smoothed[i].level), se: round4(Math.sqrt(Math.max(0, smoothed[i].variance + p.se ** 2))) })),
    sources: sourceOffsets.map((o) => ({ source: o.source, offset: round4(o.offset) })),
    newestReading: { logLevel: round4(newest.filtered[0]), se: round4(Math.sqrt(newest.filteredCov[0][0])) },
    rollingOrigin: check,
    applied: check.length > 0 && check.every((h) => h.medianAbsErrorFiltered < h.medianAbsErrorHeld),
  };
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
