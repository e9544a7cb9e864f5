/**
 * The residential market index: how the price level of Tashkent flats moved over time, estimated
 * from every dated listing file (olx 2021, uybor 2023, olx 2024, uybor 2025, uybor 2026).
 *
 * A hedonic time-dummy regression on log price per m²: the flat's district, size and floors explain
 * what differs between flats, and a level per listing month explains the rest. Only attributes
 * every source has enter the regression (a source without renovation would otherwise look cheaper
 * or dearer through the missing attribute). The level is estimated for the city, for zones of
 * districts as deviations shrunk toward the city (ridge), and for new builds and resale as
 * deviations shrunk the same way (only some sources say which a flat is).
 *
 * Training brings every row to the newest level (old rows teach shape and location, the index sets
 * the level); serving reads the level at the valuation date. Past the newest data the level moves by
 * the index's long-run drift (a random walk with drift), and the interval widens by the index's own
 * month-to-month volatility × √months. Pure computation: training fits it, serving evaluates it.
 */
import { solveSpd } from '../trainers/linalg';
import { DISTRICT_IDS, type DistrictId, type Market } from '../vocabulary/codes';
import { periodIndex } from '../ensemble/encoding';
import { median } from '../ensemble/metrics';
import { normalQuantile } from '../ensemble/normal';
import { levelAt, monthsPast, type LevelPoint } from '../ensemble/level-series';
import { byHorizon, fitScrapeOffsets, scrapeVarianceOf, type ScrapeOffsets } from './scrape-offsets';

export { indexBand } from '../ensemble/level-series';

/** Zones of districts: neighbours with similar housing stock, fixed a priori from the city's geography. */
export const ZONES = {
  centre: ['mirabad', 'yakkasaray', 'shaykhantakhur'],
  north_east: ['yunusabad', 'mirzo_ulugbek', 'yashnabad'],
  west: ['chilanzar', 'uchtepa', 'almazar'],
  south: ['sergeli', 'bektemir', 'yangihayot'],
} as const satisfies Record<string, readonly DistrictId[]>;
export type ZoneId = keyof typeof ZONES;
export const ZONE_IDS = Object.keys(ZONES) as ZoneId[];
const ZONE_OF = Object.fromEntries(ZONE_IDS.flatMap((z) => ZONES[z].map((d) => [d, z]))) as Record<DistrictId, ZoneId>;
export const zoneOf = (district: DistrictId): ZoneId => ZONE_OF[district];

/** What the index regression reads of a listing. */
export interface IndexRow {
  district: DistrictId;
  area: number;
  floor: number | null;
  totalFloors: number | null;
  market: Market | null;
  period: string;
}

/** Log level relative to the newest period (0 there), with its standard error from the regression. */
export type IndexPoint = LevelPoint;

export interface MarketIndex {
  method: string;
  /** The listing months with data, oldest first, and how many rows each had. */
  periods: { period: string; rows: number }[];
  newestPeriod: string;
  city: IndexPoint[];
  /** Per zone: the zone's full level (city + shrunk deviation). */
  zones: Record<ZoneId, IndexPoint[]>;
  /** Per segment: the deviation from the zone level (0 where the data cannot say). */
  segments: Record<Market, IndexPoint[]>;
  /**
   * Long-run drift of the city level per month (random walk with drift), and its volatility per √month.
   * The drift is measured and published, not applied: past the newest data the level is held (logLevelAt).
   */
  driftPerMonth: number;
  volatilityPerMonth: number;
  /** The smoothed city level at the newest period, held past it (relative to the newest point). */
  newestLevel: number;
  /** Variance of a scrape's own level offset, taken out of the volatility (see withScrapeVariance). */
  scrapeVariance?: number;
  /** Each scrape's own offset around the market level, and the newest level read from every point (from 2026.11.24). */
  scrapeOffsets?: ScrapeOffsets;
  /** z for the coverage the allowance is stated at. */
  allowanceZ: number;
  /** How the rule past the newest data would have done on the index's own history (from 2026.11.18). */
  forecastCheck?: LevelForecastCheck;
}

/**
 * The index's own history forecast from each earlier month as serving forecasts past the newest
 * data (that month's smoothed level carried forward by the drift measured up to it), against the
 * level later months found; and the same without the drift. Errors are forecast − found, in log
 * level (positive: the forecast was too high), grouped by how many months ahead.
 */
export interface LevelForecastCheck {
  byHorizon: { months: string; pairs: number; medianError: number; medianAbsError: number; medianErrorWithoutDrift: number; medianAbsErrorWithoutDrift: number }[];
}

/** Ridge penalties: zone and segment deviations are shrunk toward the city level; the rest barely. */
const PENALTY = { base: 1e-3, zone: 30, segment: 30 };
/** A period enters the index with at least this many rows; smaller ones are read from their neighbours. */
const MIN_PERIOD_ROWS = 30;
/** Points within this many months of the newest are pooled into the level the drift extrapolates from. */
const NEWEST_LEVEL_WINDOW_MONTHS = 6;
/** The volatility is never taken below this (log per √month): eight points cannot prove a calmer market. */
const MIN_VOLATILITY = 0.01;

/** Fits the index on rows with known log price per m²; `coverage` sets the z of the drift allowance. */
export function fitMarketIndex(rows: readonly IndexRow[], logPricePerM2: ArrayLike<number>, coverage = 0.9): MarketIndex {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.period, (counts.get(r.period) ?? 0) + 1);
  const periods = [...counts.keys()].filter((p) => counts.get(p)! >= MIN_PERIOD_ROWS).sort();
  const newest = periods[periods.length - 1];
  const older = periods.slice(0, -1);
  // The city×period column of each distinct period, found once: rows share a few dozen periods, and
  // encodeRow runs twice per row (most of a training's index fit went to finding it again).
  const olderColumns = new Map<string, number>();
  const olderColumn = (period: string) => {
    let p = olderColumns.get(period);
    if (p === undefined) olderColumns.set(period, (p = older.indexOf(nearestPeriod(periods, period))));
    return p;
  };
  // The new-build contrast is coded so that a flat of unknown segment sits at the market's mix: new
  // = 1 − π, resale = −π, unknown = 0, with π the share of new builds where the segment is known.
  const known = rows.filter((r) => r.market !== null);
  const newShare = known.length ? known.filter((r) => r.market === 'new').length / known.length : 0.5;
  const contrast = (m: Market | null) => (m === null ? 0 : m === 'new' ? 1 - newShare : -newShare);

  // Columns: districts | hedonic | new-build contrast | city×period | zone×period | new-build contrast×period.
  const hedonic = 7;
  const nd = DISTRICT_IDS.length;
  const np = older.length;
  const col = {
    district: 0,
    hedonic: nd,
    segmentOffset: nd + hedonic,
    city: nd + hedonic + 1,
    zone: nd + hedonic + 1 + np,
    segment: nd + hedonic + 1 + np + ZONE_IDS.length * np,
  };
  const width = col.segment + np;
  const penalty = new Float64Array(width).fill(PENALTY.base);
  for (let c = col.zone; c < col.segment; c++) penalty[c] = PENALTY.zone;
  for (let c = col.segment; c < width; c++) penalty[c] = PENALTY.segment;

  const A = new Float64Array(width * width);
  const b = new Float64Array(width);
  const x = new Float64Array(width);
  const active: number[] = [];
  const encodeRow = (r: IndexRow) => {
    x.fill(0);
    active.length = 0;
    const set = (c: number, v: number) => {
      x[c] = v;
      active.push(c);
    };
    set(col.district + DISTRICT_IDS.indexOf(r.district), 1);
    const la = Math.log(r.area);
    set(col.hedonic, la - 4);
    set(col.hedonic + 1, (la - 4) ** 2);
    if (r.floor === 1) set(col.hedonic + 2, 1);
    if (r.floor !== null && r.totalFloors !== null && r.floor === r.totalFloors && r.totalFloors > 1) set(col.hedonic + 3, 1);
    if (r.totalFloors === null) set(col.hedonic + 4, 1);
    else {
      const lf = Math.log(r.totalFloors) - 2;
      set(col.hedonic + 5, lf);
      set(col.hedonic + 6, lf * lf);
    }
    const segment = contrast(r.market);
    if (segment !== 0) set(col.segmentOffset, segment);
    const p = olderColumn(r.period);
    if (p >= 0) {
      set(col.city + p, 1);
      set(col.zone + ZONE_IDS.indexOf(zoneOf(r.district)) * np + p, 1);
      if (segment !== 0) set(col.segment + p, segment);
    }
  };
  let sse = 0;
  const ys = Float64Array.from(logPricePerM2);
  rows.forEach((r, i) => {
    encodeRow(r);
    for (const c of active) {
      b[c] += x[c] * ys[i];
      for (const d of active) A[c * width + d] += x[c] * x[d];
    }
  });
  for (let c = 0; c < width; c++) A[c * width + c] += penalty[c];
  const w = solveSpd(A, b, width);
  rows.forEach((r, i) => {
    encodeRow(r);
    let p = 0;
    for (const c of active) p += w[c] * x[c];
    sse += (ys[i] - p) ** 2;
  });
  const residualVariance = sse / Math.max(1, rows.length - width);
  // Standard error of a sum of coefficients: √(vᵀ A⁻¹ v · s²).
  const se = (columns: number[]) => {
    const v = new Float64Array(width);
    for (const c of columns) v[c] = 1;
    const s = solveSpd(A, v, width);
    let q = 0;
    for (const c of columns) q += s[c];
    return Math.sqrt(Math.max(0, q) * residualVariance);
  };
  const point = (p: number, columns: (i: number) => number[], scale = 1): IndexPoint => {
    if (p < 0) return { period: newest, logLevel: 0, se: 0 };
    const cols = columns(p);
    return { period: older[p], logLevel: round4(scale * cols.reduce((s, c) => s + w[c], 0)), se: round4(Math.abs(scale) * se(cols)) };
  };
  const series = (columns: (i: number) => number[], scale = 1) => [...older.map((_, p) => point(p, columns, scale)), point(-1, columns)];
  const city = series((p) => [col.city + p]);
  const zones = Object.fromEntries(ZONE_IDS.map((z, zi) => [z, series((p) => [col.city + p, col.zone + zi * np + p])])) as Record<ZoneId, IndexPoint[]>;
  const segments = { new: series((p) => [col.segment + p], 1 - newShare), resale: series((p) => [col.segment + p], -newShare) };

  const { drift, volatility, newestLevel } = randomWalkWithDrift(city, 0);
  const forecastCheck = levelForecastCheck(city);
  return {
    method: `hedonic time-dummy ridge regression of log price per m² on district, log area (and its square), first/last floor, log building floors (and its square), a level per listing month (months with at least ${MIN_PERIOD_ROWS} rows), zone × month and new-build/resale × month deviations shrunk toward the city level (penalty ${PENALTY.zone}); drift and volatility of the city level as a random walk with drift`,
    periods: periods.map((p) => ({ period: p, rows: counts.get(p)! })),
    newestPeriod: newest,
    city,
    zones,
    segments,
    driftPerMonth: round4(drift),
    volatilityPerMonth: round4(volatility),
    newestLevel: round4(newestLevel),
    allowanceZ: round4(normalQuantile((1 + coverage) / 2)),
    forecastCheck,
  };
}

/** See LevelForecastCheck: every (origin, later month) pair of the city series, origins from the second point on. */
function levelForecastCheck(points: readonly IndexPoint[]): LevelForecastCheck {
  const t = points.map((p) => periodIndex(p.period));
  const pairs: { h: number; error: number; errorWithoutDrift: number }[] = [];
  for (let k = 1; k < points.length - 1; k++) {
    const { drift, newestLevel } = randomWalkWithDrift(points.slice(0, k + 1), 0);
    for (let j = k + 1; j < points.length; j++) {
      const h = t[j] - t[k];
      pairs.push({ h, error: newestLevel + drift * h - points[j].logLevel, errorWithoutDrift: newestLevel - points[j].logLevel });
    }
  }
  return {
    byHorizon: byHorizon(pairs, (within) => ({
      medianError: round4(median(within.map((p) => p.error))),
      medianAbsError: round4(median(within.map((p) => Math.abs(p.error)))),
      medianErrorWithoutDrift: round4(median(within.map((p) => p.errorWithoutDrift))),
      medianAbsErrorWithoutDrift: round4(median(within.map((p) => Math.abs(p.errorWithoutDrift)))),
    })),
  };
}

/**
 * Random walk with drift on the city points: the drift is the long-run change per month between
 * the oldest level and the smoothed newest one; the volatility the spread of the steps around it
 * per √month, after the points' own sampling noise and (when known) the variance of a scrape's own
 * level offset are taken out.
 */
function randomWalkWithDrift(points: readonly IndexPoint[], scrapeVariance: number): { drift: number; volatility: number; newestLevel: number } {
  const t = points.map((p) => periodIndex(p.period));
  const last = t.length - 1;
  if (last === 0) return { drift: 0, volatility: MIN_VOLATILITY, newestLevel: 0 };
  let drift = (points[last].logLevel - points[0].logLevel) / (t[last] - t[0]);
  let newestLevel = points[last].logLevel;
  for (let iteration = 0; iteration < 3; iteration++) {
    // Precision-weighted level at the newest month from the points near it, each carried forward by the drift.
    let sw = 0;
    let sl = 0;
    points.forEach((p, i) => {
      if (t[last] - t[i] > NEWEST_LEVEL_WINDOW_MONTHS) return;
      const weight = 1 / Math.max(p.se, 0.01) ** 2;
      sw += weight;
      sl += weight * (p.logLevel + drift * (t[last] - t[i]));
    });
    newestLevel = sl / sw;
    drift = (newestLevel - points[0].logLevel) / (t[last] - t[0]);
  }
  let s = 0;
  for (let i = 1; i <= last; i++) {
    const h = t[i] - t[i - 1];
    const step = points[i].logLevel - points[i - 1].logLevel - drift * h;
    // Each point is one scrape: its sampling noise and its scrape's own level offset are not market moves.
    s += (step * step - points[i].se ** 2 - points[i - 1].se ** 2 - 2 * scrapeVariance) / h;
  }
  const volatility = Math.max(MIN_VOLATILITY, Math.sqrt(Math.max(0, s / Math.max(1, last - 1))));
  return { drift, volatility, newestLevel };
}

/**
 * The index with each scrape's own offset modelled (./scrape-offsets.ts) and its volatility
 * re-estimated net of them. `sourceOffsets` are each source's median residual when its level came
 * from the other sources (leave one source out); their mean square is the scrape variance. Those
 * offsets are already in the intervals' calibration residuals; left in the volatility they would be
 * counted twice. Past the newest data the level held is the newest point's, or the filter's reading
 * of every point where that reading passed its rolling-origin rule.
 */
export function withScrapeVariance(index: MarketIndex, sourceOffsets: readonly { source: string; offset: number }[]): MarketIndex {
  const scrapeVariance = scrapeVarianceOf(sourceOffsets);
  const { volatility } = randomWalkWithDrift(index.city, scrapeVariance);
  const scrapeOffsets = fitScrapeOffsets(index.city, volatility, sourceOffsets);
  return {
    ...index,
    volatilityPerMonth: round4(volatility),
    scrapeVariance: round4(scrapeVariance),
    scrapeOffsets,
    ...(scrapeOffsets.applied ? { newestLevel: scrapeOffsets.newestReading.logLevel } : {}),
  };
}

/**
 * The log level for a flat of this district and segment at a month, relative to the newest data
 * point. From the newest month on, the newest level (the newest points pooled, or the scrape-offset
 * filter's reading where it passed its rule: withScrapeVariance), held: no drift past the data (issue
 * 32's decision, on the index's own rolling-origin history: median |error| 7.6%, 5.4% and 6.6% at
 * 1–6, 7–18 and 19+ months ahead without the drift against 9.6%, 19.4% and 50.7% with it; the
 * interval's allowance for the months past the data stays). Zone and segment deviations are 0
 * there by construction.
 */
export function logLevelAt(index: MarketIndex, district: DistrictId, market: Market | null, period: string): number {
  const t = periodIndex(period);
  const newest = periodIndex(index.newestPeriod);
  if (t >= newest) return index.newestLevel;
  const zone = levelAt(index.zones[zoneOf(district)], t);
  return market === null ? zone : zone + levelAt(index.segments[market], t);
}

/** Months from the newest data to the valuation date (0 when the date is within the data). */
export function monthsBeyondData(index: MarketIndex, period: string): number {
  return monthsPast(index.newestPeriod, period);
}

function nearestPeriod(periods: readonly string[], period: string): string {
  const t = periodIndex(period);
  return periods.reduce((best, p) => (Math.abs(periodIndex(p) - t) < Math.abs(periodIndex(best) - t) ? p : best));
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
