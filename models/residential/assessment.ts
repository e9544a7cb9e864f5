/**
 * The residential anomaly flags: inputs unlike the training data, and estimates far from the
 * market or the asking price. The confidence rule they feed is models/ensemble/confidence.ts.
 */
import type { ApartmentRequest } from './request';
import type { MarketReference } from './market';

/** Flags that describe an input unlike the training data: each widens the interval. */
export const OUT_OF_DISTRIBUTION_FLAGS = new Set(['AREA_OUTSIDE_DISTRICT_RANGE', 'TOTAL_FLOORS_ABOVE_DISTRICT_MAX', 'UNUSUAL_AREA_PER_ROOM', 'THIN_DISTRICT_DATA']);

/** Flags known before the price is estimated. */
export function inputFlags(request: ApartmentRequest, market: MarketReference, thinDistrictRows = 60): string[] {
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
export function estimateFlags(request: Pick<ApartmentRequest, 'askingPrice'>, interval: { low: number; high: number }, deviationFromDistrict: number, modelSpread: number): string[] {
  const flags: string[] = [];
  if (Math.abs(deviationFromDistrict) > 0.6) flags.push('FAR_FROM_DISTRICT_MEDIAN');
  if (modelSpread > 0.2) flags.push('MODELS_DISAGREE');
  if (request.askingPrice !== null) {
    if (request.askingPrice < interval.low) flags.push('ASKING_PRICE_BELOW_INTERVAL');
    if (request.askingPrice > interval.high) flags.push('ASKING_PRICE_ABOVE_INTERVAL');
  }
  return flags;
}
