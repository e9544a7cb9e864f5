/**
 * The vehicle market index: how the asking-price level of used cars moved between the dated
 * avtoelon.uz snapshots (November 2020, June 2022, August 2023), per segment of makes.
 *
 * A matched-cell index (the repeat-model method of used-car price indices): a cell is one make and
 * model of one model year; a step between two consecutive snapshots is the weighted mean change of
 * the median log price over the cells both hold, so a change in what is listed (more new cars, more
 * Chevrolets) is not read as a change in price. A segment with too few matched cells in a step (the
 * August 2023 scrape holds only Chevrolets) takes the market-wide step, with the largest spread of
 * segment steps seen in any step (per month) added to its uncertainty.
 *
 * Training brings every row to the newest level with it (old rows teach shape, the index sets the
 * level); past the newest snapshot the level is held (no trend is extrapolated: the measured steps
 * disagree, the domestic level +2% over 2020–2022 then +17% in 2022–2023, the other segments down
 * over the first) and the interval widens by the drift allowance (./drift.ts). Pure computation: training fits it, serving evaluates it.
 *
 * Periods are the months of the training rows with at least MIN_PERIOD_ROWS listings, whatever their
 * source: the listing files' snapshots, and each month of collected avtoelon cars
 * (./ingest/collected-cars.ts) large enough. Between two points less than MAX_STEP_MONTHS apart the
 * level is read linearly, as between the files' snapshots (19 and 14 months apart). A step longer
 * than that, such as from the August 2023 file to the first collected month years later, is still
 * measured (its matched cells give the level at its end), but it is a gap: the index lists it
 * (`gaps`), and a month inside it is not read off a straight line through years without data: its
 * level is held at the point before the gap and it counts as that many months past that point
 * (monthsPastIndex), so the interval widens by the drift allowance as past the newest data.
 */
import { periodIndex } from '../ensemble/encoding';
import { levelAt, monthsPast, type LevelPoint } from '../ensemble/level-series';
import { median } from '../ensemble/metrics';
import { groupBy } from '../ingest/outliers';
import { vehicleGroup } from './features';
import { badgeFamily } from './vocabulary';

/** Segments of makes with their own price dynamics: the Asaka-built cars, the Soviet and Russian makes, the rest. */
export const VEHICLE_SEGMENTS = ['domestic', 'russian', 'foreign'] as const;
export type VehicleSegment = (typeof VEHICLE_SEGMENTS)[number];
const RUSSIAN_MAKES = new Set(['Lada', 'GAZ', 'Moskvich', 'UAZ', 'ZAZ', 'Izh', 'LuAZ', 'RAF']);

export function vehicleSegment(make: string): VehicleSegment {
  if (badgeFamily(make) === 'Chevrolet') return 'domestic';
  return RUSSIAN_MAKES.has(make) ? 'russian' : 'foreign';
}

export interface VehicleIndexRow {
  make: string;
  model: string | null;
  year: number;
  period: string;
}

export interface VehicleIndexStep {
  from: string;
  to: string;
  /** Log change of the level from `from` to `to`, and its standard error. */
  change: number;
  se: number;
  /** Matched cells behind it; 0 = the market-wide step was used. */
  cells: number;
}

/** Log level relative to the newest snapshot (0 there), with its standard error and the segment's listings then. */
export interface VehicleIndexPoint extends LevelPoint {
  listings: number;
}

export interface VehicleMarketIndex {
  method: string;
  periods: { period: string; rows: number }[];
  newestPeriod: string;
  /** Steps between consecutive points more than MAX_STEP_MONTHS apart: no level is interpolated inside them. Absent: none (every index of the listing files alone). */
  gaps?: { from: string; to: string; months: number }[];
  segments: Record<VehicleSegment, { makes: string[]; points: VehicleIndexPoint[]; steps: VehicleIndexStep[] }>;
}

/** A snapshot enters the index with at least this many rows. */
export const MIN_PERIOD_ROWS = 200;
/** Consecutive points further apart than this many months are a gap (longer than any step between the listing files: 19 and 14 months). */
export const MAX_STEP_MONTHS = 24;
/** A cell needs this many listings in each of the two snapshots it compares. */
const MIN_CELL_ROWS = 3;
/** A segment's own step needs this many matched cells; fewer → the market-wide step. */
const MIN_SEGMENT_CELLS = 10;

interface Cell {
  segment: VehicleSegment;
  change: number;
  weight: number;
}

/** Fits the index on rows with known log price. */
export function fitVehicleMarketIndex(rows: readonly VehicleIndexRow[], logPrice: ArrayLike<number>): VehicleMarketIndex {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.period, (counts.get(r.period) ?? 0) + 1);
  const periods = [...counts.keys()].filter((p) => counts.get(p)! >= MIN_PERIOD_ROWS).sort();
  if (periods.length === 0) throw new Error(`no snapshot has the ${MIN_PERIOD_ROWS} listings the vehicle market index needs`);
  // Median log price per cell and snapshot.
  const cellMedians = new Map<string, Map<string, { median: number; n: number; segment: VehicleSegment }>>();
  for (const [key, idx] of groupBy(rows.map((_, i) => i), (i) => `${vehicleGroup(rows[i])}|${rows[i].year}`)) {
    const byPeriod = new Map<string, { median: number; n: number; segment: VehicleSegment }>();
    for (const [period, ofPeriod] of groupBy(idx, (i) => rows[i].period)) {
      if (ofPeriod.length >= MIN_CELL_ROWS) byPeriod.set(period, { median: median(ofPeriod.map((i) => logPrice[i])), n: ofPeriod.length, segment: vehicleSegment(rows[ofPeriod[0]].make) });
    }
    cellMedians.set(key, byPeriod);
  }
  const stepsBySegment = Object.fromEntries(VEHICLE_SEGMENTS.map((s) => [s, [] as VehicleIndexStep[]])) as Record<VehicleSegment, VehicleIndexStep[]>;
  const transitions = periods.slice(1).map((to, k) => {
    const from = periods[k];
    const cells: Cell[] = [];
    for (const byPeriod of cellMedians.values()) {
      const a = byPeriod.get(from);
      const b = byPeriod.get(to);
      if (a && b) cells.push({ segment: a.segment, change: b.median - a.median, weight: Math.min(a.n, b.n) });
    }
    const pooled = weightedStep(cells);
    const own = VEHICLE_SEGMENTS.map((s) => ({ segment: s, step: weightedStep(cells.filter((c) => c.segment === s)) }));
    const measured = own.filter((o) => o.step.cells >= MIN_SEGMENT_CELLS);
    const months = periodIndex(to) - periodIndex(from);
    // Between-segment variance of the step per month, where two or more segments were measured.
    const spreadPerMonth = measured.length > 1 ? measured.reduce((s, o) => s + (o.step.change - pooled.change) ** 2, 0) / (measured.length - 1) / months : null;
    return { from, to, months, pooled, own, spreadPerMonth };
  });
  // A segment without cells of its own in a step may differ from the market-wide step as much as
  // segments were seen to differ in any step (per month of the step): its standard error says so.
  const spreads = transitions.flatMap((t) => (t.spreadPerMonth === null ? [] : [t.spreadPerMonth]));
  const borrowedSpreadPerMonth = spreads.length ? Math.max(...spreads) : 0;
  for (const { from, to, months, pooled, own } of transitions) {
    for (const { segment, step } of own) {
      const ok = step.cells >= MIN_SEGMENT_CELLS;
      stepsBySegment[segment].push({
        from, to,
        change: round4(ok ? step.change : pooled.change),
        se: round4(ok ? step.se : Math.sqrt(pooled.se ** 2 + borrowedSpreadPerMonth * months)),
        cells: ok ? step.cells : 0,
      });
    }
  }
  const newest = periods[periods.length - 1];
  const segments = {} as VehicleMarketIndex['segments'];
  for (const segment of VEHICLE_SEGMENTS) {
    const steps = stepsBySegment[segment];
    const points: VehicleIndexPoint[] = [];
    let level = 0;
    let variance = 0;
    const listings = (p: string) => rows.filter((r) => r.period === p && vehicleSegment(r.make) === segment).length;
    points.unshift({ period: newest, logLevel: 0, se: 0, listings: listings(newest) });
    for (let k = steps.length - 1; k >= 0; k--) {
      level -= steps[k].change;
      variance += steps[k].se ** 2;
      points.unshift({ period: steps[k].from, logLevel: round4(level), se: round4(Math.sqrt(variance)), listings: listings(steps[k].from) });
    }
    const makes = [...new Set(rows.filter((r) => vehicleSegment(r.make) === segment).map((r) => r.make))].sort();
    segments[segment] = { makes, points, steps };
  }
  const gaps = transitions.filter((t) => t.months > MAX_STEP_MONTHS).map(({ from, to, months }) => ({ from, to, months }));
  return {
    method: `matched-cell index: per segment of makes, the weighted mean change of the median log asking price of the same make, model and model year between consecutive snapshots (cells with at least ${MIN_CELL_ROWS} listings in both, weighted by the smaller count); a segment with fewer than ${MIN_SEGMENT_CELLS} matched cells takes the market-wide step, its standard error widened by the largest spread of segment steps seen in any step (per month)${gaps.length ? `; points more than ${MAX_STEP_MONTHS} months apart are a gap, inside which the level is held at the point before it and the months past that point count as past the data` : ''}`,
    periods: periods.map((p) => ({ period: p, rows: counts.get(p)! })),
    newestPeriod: newest,
    ...(gaps.length > 0 && { gaps }),
    segments,
  };
}

function weightedStep(cells: readonly Cell[]): { change: number; se: number; cells: number } {
  const sw = cells.reduce((s, c) => s + c.weight, 0);
  if (cells.length === 0 || sw === 0) return { change: 0, se: 0, cells: 0 };
  const change = cells.reduce((s, c) => s + c.weight * c.change, 0) / sw;
  const sw2 = cells.reduce((s, c) => s + c.weight * c.weight, 0);
  const spread = cells.reduce((s, c) => s + c.weight * (c.change - change) ** 2, 0) / sw;
  // Standard error of a weighted mean with effective size (Σw)²/Σw².
  return { change, se: Math.sqrt(spread / Math.max(1, (sw * sw) / sw2)), cells: cells.length };
}

/** The gap of the index a month lies strictly inside, if any. */
function gapOf(index: VehicleMarketIndex, period: string): { from: string; to: string } | undefined {
  return index.gaps?.find((gap) => period > gap.from && period < gap.to);
}

/**
 * The log level of a make's segment at a month relative to the newest snapshot (flat before the
 * oldest and from the newest on; inside a gap, held at the point before it).
 */
export function vehicleLevelAt(index: VehicleMarketIndex, make: string, period: string): number {
  const gap = gapOf(index, period);
  return levelAt(index.segments[vehicleSegment(make)].points, periodIndex(gap ? gap.from : period));
}

/** Whole months from the newest snapshot to the period (0 within the data); inside a gap, from the point before it. */
export function monthsPastIndex(index: VehicleMarketIndex, period: string): number {
  const gap = gapOf(index, period);
  return monthsPast(gap ? gap.from : index.newestPeriod, period);
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
