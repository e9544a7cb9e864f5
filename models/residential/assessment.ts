/**
 * Anomaly flags and the confidence rule: what the service says about how far to trust one estimate.
 *
 * Confidence score (0–1) = 0.5·width + 0.2·agreement + 0.3·district, minus 0.1 per anomaly flag, where
 *   width     = 1 at a relative interval width (high−low)/estimate of 0.2 or less, 0 at 0.8 or more, linear between;
 *   agreement = 1 when the ensemble members agree, 0 at a relative spread of 0.3;
 *   district  = 1, 0.8, 0.6, 0.4 for the district's held-out accuracy class high, medium, moderate, low.
 * Level: high ≥ 0.75, medium ≥ 0.5, else low; a district of low accuracy class is never 'high'.
 */
import type { HomeRequest } from './request';
import type { MarketReference } from './market';
import type { ConfidenceLevel } from './valuation';

export type AccuracyClass = 'high' | 'medium' | 'moderate' | 'low';

/** Flags that describe an input unlike the training data: each widens the interval. */
export const OUT_OF_DISTRIBUTION_FLAGS = new Set(['AREA_OUTSIDE_DISTRICT_RANGE', 'TOTAL_FLOORS_ABOVE_DISTRICT_MAX', 'UNUSUAL_AREA_PER_ROOM', 'THIN_DISTRICT_DATA']);

/** Flags known before the price is estimated. */
export function inputFlags(request: HomeRequest, market: MarketReference, thinDistrictRows = 60): string[] {
  const flags: string[] = [];
  const district = market.district[request.district];
  if (!district || district.n < thinDistrictRows) flags.push('THIN_DISTRICT_DATA');
  if (district && (request.area < district.areaP01 || request.area > district.areaP99)) flags.push('AREA_OUTSIDE_DISTRICT_RANGE');
  if (district && request.totalFloors > district.maxTotalFloors) flags.push('TOTAL_FLOORS_ABOVE_DISTRICT_MAX');
  const perRoom = request.area / request.rooms;
  if (perRoom < 10 || perRoom > 90) flags.push('UNUSUAL_AREA_PER_ROOM');
  if (request.floor === request.totalFloors && request.totalFloors >= 20) flags.push('TOP_FLOOR_OF_HIGH_RISE');
  return flags;
}

/** Flags that compare the estimate with the market and the asking price. */
export function estimateFlags(request: HomeRequest, interval: { low: number; high: number }, deviationFromDistrict: number, modelSpread: number): string[] {
  const flags: string[] = [];
  if (Math.abs(deviationFromDistrict) > 0.6) flags.push('FAR_FROM_DISTRICT_MEDIAN');
  if (modelSpread > 0.2) flags.push('MODELS_DISAGREE');
  if (request.askingPrice !== null) {
    if (request.askingPrice < interval.low) flags.push('ASKING_PRICE_BELOW_INTERVAL');
    if (request.askingPrice > interval.high) flags.push('ASKING_PRICE_ABOVE_INTERVAL');
  }
  return flags;
}

const DISTRICT_SCORE: Record<AccuracyClass, number> = { high: 1, medium: 0.8, moderate: 0.6, low: 0.4 };

export function confidence(relativeWidth: number, modelSpread: number, districtClass: AccuracyClass, flagCount: number): { level: ConfidenceLevel; score: number } {
  const width = clamp(1 - (relativeWidth - 0.2) / 0.6);
  const agreement = clamp(1 - modelSpread / 0.3);
  const raw = 0.5 * width + 0.2 * agreement + 0.3 * DISTRICT_SCORE[districtClass] - 0.1 * flagCount;
  const score = Math.round(clamp(raw) * 100) / 100;
  let level: ConfidenceLevel = score >= 0.75 ? 'high' : score >= 0.5 ? 'medium' : 'low';
  if (level === 'high' && districtClass === 'low') level = 'medium';
  return { level, score };
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x));
}
