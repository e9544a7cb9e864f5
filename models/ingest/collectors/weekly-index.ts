/**
 * A weekly market point from collected flats, between the monthly refreshes of the model's index
 * (models/residential/market-index.ts). Two numbers per week (Monday to Sunday, UTC):
 * - the median asking USD per m² of the flats on the market that week, with their count;
 * - the repeat-asking change: over the flats on the market in both this week and the one before, the
 *   median ratio of their asking price at the end of this week to that at the end of the previous
 *   one. The same flats on both sides, so a week of cheaper new listings does not read as a fall.
 * Linked cross-site duplicates are counted once. Published in `marketIndex.weekly` for the weeks
 * after the index's newest month (models/residential/collected-weekly.ts), not applied to valuations.
 */
import type { ListingLife } from './listing-life';

export interface WeeklyMarketPoint {
  /** The Monday starting the week, 'YYYY-MM-DD'. */
  week: string;
  flats: number;
  medianUsdPerM2: number | null;
  /** Flats on the market in this week and the previous one. */
  repeatFlats: number;
  /** Median of their price ratios (1 = unchanged), null without any. */
  repeatChange: number | null;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The Monday of the week holding `day`. */
export function weekOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday
  return addDays(day, -((weekday + 6) % 7));
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** USD asking price on `day`: the last price asked on or before it. */
function askingUsdOn(life: ListingLife, day: string): number | null {
  let price: number | null = null;
  for (const point of life.prices) {
    if (point.day > day) break;
    price = point.priceUsd;
  }
  return price;
}

function onMarketDuring(life: ListingLife, from: string, to: string): boolean {
  return life.firstSeen <= to && life.lastSeen >= from;
}

export function weeklyMarketPoints(lives: Iterable<ListingLife>, lastDay: string, weeks: number): WeeklyMarketPoint[] {
  const flats = [...lives].filter((life) => life.home?.propertyType === 'apartment' && life.duplicateOf === null);
  const lastMonday = weekOf(lastDay);
  const points: WeeklyMarketPoint[] = [];
  for (let w = weeks - 1; w >= 0; w--) {
    const week = addDays(lastMonday, -7 * w);
    const end = addDays(week, 6);
    const previousEnd = addDays(week, -1);
    const previousStart = addDays(week, -7);
    const perM2: number[] = [];
    const ratios: number[] = [];
    for (const life of flats) {
      if (!onMarketDuring(life, week, end)) continue;
      const now = askingUsdOn(life, end);
      if (now === null) continue;
      perM2.push(now / life.home!.area);
      if (onMarketDuring(life, previousStart, previousEnd)) {
        const before = askingUsdOn(life, previousEnd);
        if (before !== null) ratios.push(now / before);
      }
    }
    const level = median(perM2);
    points.push({
      week,
      flats: perM2.length,
      medianUsdPerM2: level === null ? null : Math.round(level),
      repeatFlats: ratios.length,
      repeatChange: median(ratios),
    });
  }
  return points;
}
