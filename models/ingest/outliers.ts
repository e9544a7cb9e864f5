/**
 * Price outliers, on log price per m² (prices are multiplicative: a fence in log space is a ratio).
 *
 * 1. Down payments: an apartment asking under DOWN_PAYMENT_SHARE of the city median per m² is an
 *    instalment ad ("взнос 193 млн, рассрочка") rather than a price.
 * 2. Fences: per district × property type × price era, keep median ± k·MAD, with MAD scaled by 1.4826
 *    to estimate a standard deviation and k = 3.5, the usual cut-off for the modified z-score
 *    (Iglewicz & Hoaglin). A group with fewer than MIN_GROUP records (Bektemir, Yangihayot, most
 *    house groups) uses the city-wide fence of its property type and era.
 * Eras are separate because 2021 asking prices sit about 40% below 2024–2025 ones.
 */
import type { DistrictId, PropertyType } from '../vocabulary';
import type { Candidate, Split } from './candidate';
import type { ListingRecord } from './record';

export interface FenceParameters {
  k: number;
  madToSigma: number;
  minGroup: number;
  minMad: number;
}

export const FENCE = { k: 3.5, madToSigma: 1.4826, minGroup: 20, minMad: 0.05 } as const satisfies FenceParameters;
export const DOWN_PAYMENT_SHARE = 0.35;

export type PriceEra = 'historic' | 'current';

export function priceEra(period: string): PriceEra {
  return Number(period.slice(0, 4)) < 2023 ? 'historic' : 'current';
}

export interface PriceFence {
  propertyType: PropertyType;
  era: PriceEra;
  district: DistrictId | 'city';
  records: number;
  medianUsdPerM2: number;
  lowUsdPerM2: number;
  highUsdPerM2: number;
}

function logPricePerM2(record: ListingRecord): number {
  return Math.log(record.priceUsd / record.area);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export interface LogFence {
  records: number;
  median: number;
  low: number;
  high: number;
}

/** median ± k·MAD of log values; the parameters default to the residential ones above. */
export function robustFence(logValues: readonly number[], parameters: FenceParameters = FENCE): LogFence {
  const centre = median(logValues);
  const mad = Math.max(median(logValues.map((v) => Math.abs(v - centre))), parameters.minMad);
  const halfWidth = parameters.k * parameters.madToSigma * mad;
  return { records: logValues.length, median: centre, low: centre - halfWidth, high: centre + halfWidth };
}

export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const cityKey = (r: ListingRecord) => `${r.propertyType}|${priceEra(r.period)}|city`;
const districtKey = (r: ListingRecord) => `${r.propertyType}|${priceEra(r.period)}|${r.district}`;

export function dropDownPayments<T extends Candidate>(candidates: readonly T[]): Split<T> {
  const cityMedian = new Map(
    [...groupBy(candidates, (c) => cityKey(c.record))].map(([key, group]) => [key, median(group.map((c) => logPricePerM2(c.record)))]),
  );
  const floorOffset = Math.log(DOWN_PAYMENT_SHARE);
  const split: Split<T> = { kept: [], dropped: [] };
  for (const candidate of candidates) {
    const { record } = candidate;
    const isDownPayment = record.propertyType === 'apartment' && logPricePerM2(record) < cityMedian.get(cityKey(record))! + floorOffset;
    (isDownPayment ? split.dropped : split.kept).push(candidate);
  }
  return split;
}

export function applyPriceFences<T extends Candidate>(candidates: readonly T[]): Split<T> & { fences: PriceFence[] } {
  const fences = new Map<string, LogFence>();
  for (const [key, group] of groupBy(candidates, (c) => cityKey(c.record))) fences.set(key, robustFence(group.map((c) => logPricePerM2(c.record))));
  for (const [key, group] of groupBy(candidates, (c) => districtKey(c.record))) {
    if (group.length >= FENCE.minGroup) fences.set(key, robustFence(group.map((c) => logPricePerM2(c.record))));
  }
  const split: Split<T> = { kept: [], dropped: [] };
  for (const candidate of candidates) {
    const fence = fences.get(districtKey(candidate.record)) ?? fences.get(cityKey(candidate.record))!;
    const value = logPricePerM2(candidate.record);
    (value < fence.low || value > fence.high ? split.dropped : split.kept).push(candidate);
  }
  return { ...split, fences: [...fences].sort(([a], [b]) => a.localeCompare(b)).map(([key, fence]) => describeFence(key, fence)) };
}

function describeFence(key: string, fence: LogFence): PriceFence {
  const [propertyType, era, district] = key.split('|') as [PropertyType, PriceEra, DistrictId | 'city'];
  const usd = (log: number) => Math.round(Math.exp(log));
  return {
    propertyType, era, district,
    records: fence.records,
    medianUsdPerM2: usd(fence.median),
    lowUsdPerM2: usd(fence.low),
    highUsdPerM2: usd(fence.high),
  };
}
