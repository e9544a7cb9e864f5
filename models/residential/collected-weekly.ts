/**
 * The weekly points of the collected listings (models/ingest/collectors/weekly-index.ts, exported by
 * `npm run collect -- --export`) as the `marketIndex` query publishes them beside the monthly index:
 * the weeks after the index's newest month, between two monthly refreshes (`npm run train`).
 *
 * They are published, not applied to valuations. The project's rules for the level past the newest
 * month (./market-index.ts logLevelAt, ./scrape-offsets.ts): the level is held at the newest level,
 * and another reading replaces the newest point only where it beat the held level at every horizon
 * of a rolling-origin check on the index's own history. A weekly asking point has no such history
 * (no collected week lies within a month of the index: nothing links its median asking price or its
 * repeat-asking chain to the index's level), so it does not pass that rule, and a valuation's level,
 * estimate, interval and `market_level` are the same with or without collected data.
 */
import type { WeeklyMarketPoint } from '../ingest/collectors/weekly-index';
import { lastDayOfPeriod } from '../ensemble/level-series';
import type { CollectedWeeklySeries } from './valuation';

export const COLLECTED_WEEKLY_RULE =
  "Published, not applied: past the newest month a valuation's level is held at the index's newest level, and another reading replaces it only where it beat the held level at every horizon of a rolling-origin check on the index's history; collected weekly points have no such history yet (no collected week lies within a month of the index), so valuations do not use them";

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The weeks of an export that end after the index's newest month, oldest first; null when none does. */
export function collectedWeeklySeries(newestPeriod: string, exportedOn: string, weekly: readonly WeeklyMarketPoint[]): CollectedWeeklySeries | null {
  const monthEnd = lastDayOfPeriod(newestPeriod);
  const points = weekly
    .map((p) => ({ ...p, weekEnd: addDays(p.week, 6) }))
    .filter((p) => p.weekEnd > monthEnd)
    .sort((a, b) => (a.week < b.week ? -1 : 1))
    .map((p) => ({
      week: p.week,
      weekEnd: p.weekEnd,
      frequency: 'weekly' as const,
      source: 'collected listings' as const,
      listings: p.flats,
      medianUsdPerM2: p.medianUsdPerM2,
      repeatListings: p.repeatFlats,
      repeatChange: p.repeatChange === null ? null : Math.round(p.repeatChange * 1e4) / 1e4,
    }));
  if (points.length === 0) return null;
  return { exportedOn, appliedToValuations: false, rule: COLLECTED_WEEKLY_RULE, points };
}
