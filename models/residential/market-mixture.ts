/**
 * A flat valued without its market (new build or resale) is a mixture, not a guess: it is valued
 * once as a new build and once as resale, each with its own calibrated interval, and the two are
 * weighed by the probability that a flat like it is a new build. The estimate is the mixture's
 * median and the interval its central quantiles, so a flat that could be either gets an interval
 * wide enough for both.
 *
 * The probability comes from a logistic model on what separates new builds in the listings that
 * say which they are (storeys, floor, size, finish, frame, district): fitted at training
 * (models/trainers/logistic-regression.ts), stored in the manifest, evaluated here for training's
 * evaluation and serving alike.
 */
import { logisticProbability, type LogisticState } from '../ensemble/logistic';
import { round3, roundTo, servedSpread, type EnsembleEstimate } from '../ensemble/estimate';
import { normalCdf, normalQuantile } from '../ensemble/normal';
import { intervalWidening } from '../intervals/drift';
import type { MarketMixture } from './valuation';
import { BUILDING_TYPES, DISTRICT_IDS, type Market } from '../vocabulary/codes';
import { RENOVATION_ORDER, type FeatureSource } from './features';

/** The new-build model's inputs, in column order. */
export const NEW_BUILD_FEATURE_NAMES = [
  'log_total_floors', 'floor_ratio', 'log_area', 'rooms', 'area_per_room', 'unfinished', 'renovation_rank',
  ...BUILDING_TYPES.map((t) => `building_${t}`),
  ...DISTRICT_IDS.map((d) => `district_${d}`),
] as const;

/** One flat's new-build features (NaN = missing, which the model reads as its training mean). */
export function newBuildFeatures(row: Pick<FeatureSource, 'district' | 'area' | 'rooms' | 'floor' | 'totalFloors' | 'renovation' | 'buildingType'>): Float64Array {
  const x = new Float64Array(NEW_BUILD_FEATURE_NAMES.length);
  x[0] = row.totalFloors ? Math.log(row.totalFloors) : NaN;
  x[1] = row.floor !== null && row.totalFloors ? row.floor / row.totalFloors : NaN;
  x[2] = Math.log(row.area);
  x[3] = row.rooms ?? NaN;
  x[4] = row.rooms ? row.area / row.rooms : NaN;
  x[5] = row.renovation === null ? NaN : row.renovation === 'rough' || row.renovation === 'pre_finish' ? 1 : 0;
  x[6] = row.renovation === null ? NaN : RENOVATION_ORDER[row.renovation];
  BUILDING_TYPES.forEach((t, j) => (x[7 + j] = row.buildingType === null ? NaN : row.buildingType === t ? 1 : 0));
  DISTRICT_IDS.forEach((d, j) => (x[7 + BUILDING_TYPES.length + j] = row.district === d ? 1 : 0));
  return x;
}

/** The manifest's `marketMixture`: the new-build model and what it was fitted and checked on. */
export interface MarketMixtureModel {
  method: string;
  features: string[];
  state: LogisticState;
  /** The labelled listings it was fitted on: how many, from which sources, and their share of new builds. */
  fittedOn: { rows: number; newBuildShare: number; sources: Record<string, number> };
  /** Each labelled source predicted by a model fitted on the others (when there are at least two). */
  leaveOneSourceOut: NewBuildCheck[];
}

/** How well the probabilities of one held-out set match what its flats were. */
export interface NewBuildCheck {
  source: string;
  rows: number;
  newBuildShare: number;
  meanProbability: number;
  brier: number;
  auc: number;
}

export function newBuildProbability(model: MarketMixtureModel, row: Parameters<typeof newBuildFeatures>[0]): number {
  return logisticProbability(model.state, newBuildFeatures(row));
}

/** The two rows a flat without its market is valued as, new build first. */
export const MIXTURE_MARKETS: readonly Market[] = ['new', 'resale'];

/** One component of the mixture: its weight, and its estimate and interval in log price. */
export interface MixtureComponent {
  weight: number;
  center: number;
  halfWidth: number;
}

/**
 * The median and the central `coverage` interval (log price) of a mixture whose components are
 * read as normal in log price with the calibrated 90% half-width at their ±z: exact for one
 * component (the median and ends are the component's own), and as wide as both need for two.
 */
export function mixtureInterval(components: readonly MixtureComponent[], coverage: number): { center: number; low: number; high: number } {
  const z = normalQuantile((1 + coverage) / 2);
  const parts = components.filter((c) => c.weight > 0);
  if (parts.length === 1) return { center: parts[0].center, low: parts[0].center - parts[0].halfWidth, high: parts[0].center + parts[0].halfWidth };
  // Plain arrays and one loop for the CDF and its slope together: this runs for every flat sent without its market.
  const total = parts.reduce((s, c) => s + c.weight, 0);
  const weight = parts.map((c) => c.weight / total);
  const center = parts.map((c) => c.center);
  const sd = parts.map((c) => Math.max(c.halfWidth, 1e-9) / z);
  let lo = Infinity;
  let hi = -Infinity;
  for (let j = 0; j < parts.length; j++) {
    lo = Math.min(lo, center[j] - 10 * sd[j]);
    hi = Math.max(hi, center[j] + 10 * sd[j]);
  }
  const cdfAndPdf = (x: number, out: [number, number]) => {
    let cdf = 0;
    let pdf = 0;
    for (let j = 0; j < weight.length; j++) {
      const u = (x - center[j]) / sd[j];
      cdf += weight[j] * normalCdf(u);
      pdf += (weight[j] * Math.exp(-0.5 * u * u)) / (sd[j] * SQRT_2PI);
    }
    out[0] = cdf;
    out[1] = pdf;
  };
  // Each quantile starts from the weighted mean of the components' own quantiles.
  const at = (p: number, zq: number) => {
    let x0 = 0;
    for (let j = 0; j < weight.length; j++) x0 += weight[j] * (center[j] + zq * sd[j]);
    return solveIncreasing(cdfAndPdf, p, x0, lo, hi);
  };
  return { center: at(0.5, 0), low: at((1 - coverage) / 2, -z), high: at((1 + coverage) / 2, z) };
}

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/**
 * x with f(x) = target for an increasing f on [lo, hi] (`f` writes f and f' into its second
 * argument): Newton's steps from `x0`, a bisection step whenever Newton would leave the bracket,
 * to 1e-10 in f.
 */
function solveIncreasing(f: (x: number, out: [number, number]) => void, target: number, x0: number, lo: number, hi: number): number {
  const value: [number, number] = [0, 0];
  let x = Math.min(Math.max(x0, lo), hi);
  for (let i = 0; i < 100; i++) {
    f(x, value);
    const gap = value[0] - target;
    if (Math.abs(gap) < 1e-10) break;
    if (gap < 0) lo = x;
    else hi = x;
    const slope = value[1];
    const newton = slope > 0 ? x - gap / slope : NaN;
    x = newton > lo && newton < hi ? newton : (lo + hi) / 2;
    if (hi - lo < 1e-12) break;
  }
  return x;
}

/**
 * A flat's valuation from its new-build and resale valuations (serving's ensembleEstimate of each):
 * the mixture's median and interval, each member's estimate as the weighted geometric mean of its
 * two, their spread taken over those mixed estimates, and the widening past the newest data as the mixture's own.
 */
export function mixedValuation(p: number, asNew: EnsembleEstimate, asResale: EnsembleEstimate, coverage: number, weights: readonly number[]): { value: Omit<EnsembleEstimate, 'halfWidth' | 'calibratedHalfWidth'>; mixture: MarketMixture } {
  const mix = (halfWidth: (c: EnsembleEstimate) => number) => mixtureInterval([
    { weight: p, center: Math.log(asNew.estimate), halfWidth: halfWidth(asNew) },
    { weight: 1 - p, center: Math.log(asResale.estimate), halfWidth: halfWidth(asResale) },
  ], coverage);
  const served = mix((c) => c.halfWidth);
  const widened = asNew.widening > 0 || asResale.widening > 0;
  const withinData = widened ? mix((c) => c.calibratedHalfWidth) : served;
  const component = (c: EnsembleEstimate) => ({ estimate: roundTo(c.estimate, 100), low: roundTo(c.low, 100), high: roundTo(c.high, 100) });
  const estimate = Math.exp(served.center);
  const memberEstimates = asNew.memberEstimates.map((e, j) => Math.exp(p * Math.log(e) + (1 - p) * Math.log(asResale.memberEstimates[j])));
  return {
    value: {
      estimate,
      memberEstimates,
      // The spread of the members as the valuation states them (models[]), so the two figures agree.
      modelSpread: servedSpread(memberEstimates, weights, estimate),
      low: Math.exp(served.low),
      high: Math.exp(served.high),
      widening: intervalWidening((served.high - served.low) / 2, (withinData.high - withinData.low) / 2),
    },
    mixture: { newBuildProbability: round3(p), newBuild: component(asNew), resale: component(asResale) },
  };
}
