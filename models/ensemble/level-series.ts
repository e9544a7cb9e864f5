/**
 * Arithmetic every kind's market index shares: a series of log levels at listing months, read
 * between its points, shown as ratios with a band, and the months a date lies past its newest point.
 */
import { periodIndex } from './encoding';

/** A point of a market index: the log level of a month relative to the newest point, and its standard error. */
export interface LevelPoint {
  period: string;
  logLevel: number;
  se: number;
}

/** Each series' months as periodIndex numbers, worked out once: a series is read once per valuation, and thousands of times per fit. */
const monthsOf = new WeakMap<readonly LevelPoint[], Float64Array>();

function monthIndexes(points: readonly LevelPoint[]): Float64Array {
  let ts = monthsOf.get(points);
  if (!ts || ts.length !== points.length) monthsOf.set(points, (ts = Float64Array.from(points, (p) => periodIndex(p.period))));
  return ts;
}

/** The log level at month `t` (periodIndex): linear between points; flat before the first (no backward extrapolation of a boom) and after the last. */
export function levelAt(points: readonly LevelPoint[], t: number): number {
  const ts = monthIndexes(points);
  if (t <= ts[0]) return points[0].logLevel;
  for (let i = 1; i < points.length; i++) {
    if (t <= ts[i]) return points[i - 1].logLevel + ((points[i].logLevel - points[i - 1].logLevel) * (t - ts[i - 1])) / (ts[i] - ts[i - 1]);
  }
  return points[points.length - 1].logLevel;
}

/** An index point as a ratio to the newest level with its 95% band (what the market index queries and the model cards show). */
export function indexBand(logLevel: number, se: number): { index: number; low: number; high: number } {
  return { index: Math.exp(logLevel), low: Math.exp(logLevel - 1.96 * se), high: Math.exp(logLevel + 1.96 * se) };
}

/** The last day of a 'YYYY-MM' month, 'YYYY-MM-DD'. */
export function lastDayOfPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/**
 * Days from the newest data to the valuation date (0 when the date is within the data). The newest
 * data is dated by the last day of its listing month (a month's listings may be dated to its end), so
 * the age is never overstated.
 */
export function daysPast(newestDataDate: string, valuationDate: string): number {
  return Math.max(0, Math.round((Date.parse(`${valuationDate.slice(0, 10)}T00:00:00Z`) - Date.parse(`${newestDataDate}T00:00:00Z`)) / 86_400_000));
}

/** Whole months from the newest data to `period` (0 when the period is within the data). */
export function monthsPast(newestPeriod: string, period: string): number {
  return Math.max(0, periodIndex(period) - periodIndex(newestPeriod));
}
