/**
 * A bank's backtest (issue 31; EBA GL/2020/06 §§236–237): prices it observed on past dates, replayed
 * in date order, each valued as of its own date with the model in service (the base the caller
 * scored it with) and re-anchored on the organisation's observations from before that date only,
 * through the same observation model the service fits (./model.ts, ./adjust.ts). Model-alone and
 * re-anchored are reported side by side, overall, by month, by group and by confidence level: each
 * side's level is the one its own interval's FSD gives (models/ensemble/fsd.ts), and a level is
 * honest when about 68% of its prices fall within ±FSD of the estimate (`withinFsd`).
 *
 * Point in time. A day's observations are valued with the model fitted as of that day on every
 * observation strictly before it: no observation adjusts its own valuation or one of its day. At
 * most `maxFits` fits are made: consecutive days are taken together in that many blocks of about
 * equal size, each valued with the model fitted on what came before the block (a little stricter
 * than day by day), so that a backtest's cost is bounded however many days the file spans.
 */
import { CONFIDENCE_LEVELS } from '../ensemble/confidence';
import { forecastStandardDeviation, levelOfFsd } from '../ensemble/fsd';
import { median, medianInterval, wilsonBounds } from '../ensemble/metrics';
import { groupBy } from '../ingest/outliers';
import { adjustValuation, type AdjustedValuation } from './adjust';
import { groupKey, type GroupHierarchy } from './groups';
import { fitObservationModel, type ObservationModel, type ObservationModelOptions } from './model';
import { isScorable, type ScoredObservation } from './types';

/** An observation to replay: scored against the model in service at its date (its base). */
export type BacktestObservation = ScoredObservation;

/**
 * The most fits one backtest makes: 60. A fit on 10,000 observations takes about half a second of
 * one core, so a backtest of that size stays well under a minute; a year of daily prices is then
 * replayed in blocks of about six days. Set before any measurement, on that cost.
 */
export const MAX_BACKTEST_FITS = 60;

export interface BacktestOptions {
  hierarchy: GroupHierarchy;
  /** The hierarchy's levels reported by group, by name. @default every level below the top */
  groupLevels?: readonly string[];
  maxFits?: number;
  /** The observation model's settings other than the hierarchy and the date (half-life, price types …). */
  model?: Omit<ObservationModelOptions, 'hierarchy' | 'asOf'>;
  /** Told after each block: observations replayed so far, and in all. */
  onProgress?(done: number, total: number): void;
}

export interface BacktestMeasures {
  n: number;
  medianApe: number;
  /** Share with APE ≤ 10%. */
  within10: number;
  /** Median of log(price) − log(estimate) (positive: the valuations were low), with a distribution-free 95% interval (order statistics). */
  bias: { median: number; ci95: { low: number; high: number } | null };
  /** Share of prices inside the interval, with Wilson 95% bounds. */
  coverage: { share: number; covered: number; bounds95: { low: number; high: number } };
  /** Median of (high − low) / estimate. */
  medianWidth: number;
  /** Share of prices within ±FSD of the estimate in log terms: about 68% when the stated confidence is honest. */
  withinFsd: number;
}

export interface BacktestComparison {
  modelAlone: BacktestMeasures;
  reanchored: BacktestMeasures;
}

/** A valuation as replayed: its estimate, interval and the FSD the interval implies. */
export interface ReplayedValuation {
  estimate: number;
  low: number;
  high: number;
  fsd: number;
}

/** One observation as replayed. */
export interface BacktestRow {
  observedAt: string;
  reference: string | null;
  groups: readonly string[];
  priceUsd: number;
  modelAlone: ReplayedValuation;
  reanchored: ReplayedValuation;
  /** The date the re-anchoring was fitted as of, and the observations it stood on. */
  asOf: string;
  observationsUsed: number;
  factor: number;
}

export interface BacktestReport {
  kind: ScoredObservation['kind'];
  /** Observations replayed (scorable ones), and the first and last dates. */
  observations: number;
  from: string | null;
  to: string | null;
  fits: number;
  overall: BacktestComparison;
  byMonth: ({ month: string } & BacktestComparison)[];
  byGroup: ({ level: string; group: string } & BacktestComparison)[];
  /** By confidence level, each side's rows at the level of its own FSD (so a level's n differs between the sides). */
  byConfidence: ({ confidence: string } & BacktestComparison)[];
  rows: BacktestRow[];
}

const day = (date: string) => date.slice(0, 10);

/** The measures of valuations against their prices (NaN measures for none). */
export function backtestMeasures(rows: readonly ({ priceUsd: number } & ReplayedValuation)[]): BacktestMeasures {
  const n = rows.length;
  const ape = rows.map((r) => Math.abs(r.estimate - r.priceUsd) / r.priceUsd);
  const residuals = rows.map((r) => Math.log(r.priceUsd) - Math.log(r.estimate)).sort((a, b) => a - b);
  const covered = rows.filter((r) => r.priceUsd >= r.low && r.priceUsd <= r.high).length;
  return {
    n,
    medianApe: median(ape),
    within10: n ? ape.filter((x) => x <= 0.1).length / n : NaN,
    bias: { median: median(residuals), ci95: medianInterval(residuals) },
    coverage: { share: n ? covered / n : NaN, covered, bounds95: wilsonBounds(covered, n) },
    medianWidth: median(rows.map((r) => (r.high - r.low) / r.estimate)),
    withinFsd: n ? rows.filter((r) => Math.abs(Math.log(r.priceUsd / r.estimate)) <= r.fsd).length / n : NaN,
  };
}

/** The replay's blocks of consecutive days: at most `maxFits`, each a run of whole days. */
function blocksOf(sorted: readonly BacktestObservation[], maxFits: number): [number, number][] {
  const starts: number[] = [];
  sorted.forEach((o, i) => {
    if (i === 0 || day(o.observedAt) !== day(sorted[i - 1].observedAt)) starts.push(i);
  });
  const blocks: [number, number][] = [];
  const target = Math.ceil(sorted.length / Math.max(1, maxFits));
  let begin = 0;
  for (let s = 1; s <= starts.length; s++) {
    const end = s < starts.length ? starts[s] : sorted.length;
    // Close the block at a day's end once it holds its share (or at the last day).
    if (end - begin >= target || end === sorted.length) {
      blocks.push([begin, end]);
      begin = end;
    }
  }
  return blocks;
}

export function backtest(observations: readonly BacktestObservation[], options: BacktestOptions): BacktestReport {
  const { hierarchy } = options;
  const sorted = observations
    .filter((o) => isScorable(o) && !Number.isNaN(Date.parse(o.observedAt)))
    .map((o, index) => ({ o, index }))
    .sort((a, b) => (day(a.o.observedAt) < day(b.o.observedAt) ? -1 : day(a.o.observedAt) > day(b.o.observedAt) ? 1 : a.index - b.index))
    .map(({ o }) => o);
  const blocks = blocksOf(sorted, options.maxFits ?? MAX_BACKTEST_FITS);
  const rows: BacktestRow[] = [];
  let fits = 0;
  for (const [begin, end] of blocks) {
    const asOf = day(sorted[begin].observedAt);
    // Everything before the block's first day (the blocks are whole days, so that is the prefix).
    const before = sorted.slice(0, begin);
    let model: ObservationModel | null = null;
    if (before.length > 0) {
      model = fitObservationModel(before, { ...options.model, hierarchy, asOf });
      fits++;
    }
    for (let i = begin; i < end; i++) rows.push(rowOf(sorted[i], model, asOf));
    options.onProgress?.(end, sorted.length);
  }
  return summarise(hierarchy, sorted[0]?.kind ?? hierarchy.kind, rows, fits, options.groupLevels ?? hierarchy.levels.slice(1));
}

function rowOf(o: BacktestObservation, model: ObservationModel | null, asOf: string): BacktestRow {
  const replayed = ({ estimate, low, high }: Pick<AdjustedValuation, 'estimate' | 'low' | 'high'>): ReplayedValuation => ({ estimate, low, high, fsd: forecastStandardDeviation({ low, high, coverage: o.base.coverage }) });
  const base = replayed(o.base);
  const adjusted = model ? replayed(adjustValuation(o.base, o.groups, model)) : base;
  return {
    observedAt: day(o.observedAt), reference: o.reference ?? null, groups: o.groups, priceUsd: o.priceUsd,
    modelAlone: base, reanchored: adjusted,
    asOf, observationsUsed: model?.observations ?? 0, factor: adjusted.estimate / base.estimate,
  };
}

function compare(rows: readonly BacktestRow[]): BacktestComparison {
  return {
    modelAlone: backtestMeasures(rows.map((r) => ({ priceUsd: r.priceUsd, ...r.modelAlone }))),
    reanchored: backtestMeasures(rows.map((r) => ({ priceUsd: r.priceUsd, ...r.reanchored }))),
  };
}

/** The rows by `keyOf`, keys in order (rows whose key is null left out). */
function grouped(rows: readonly BacktestRow[], keyOf: (row: BacktestRow) => string | null): [string, BacktestRow[]][] {
  return [...groupBy(rows.filter((r) => keyOf(r) !== null), (r) => keyOf(r)!)].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function summarise(hierarchy: GroupHierarchy, kind: ScoredObservation['kind'], rows: BacktestRow[], fits: number, groupLevels: readonly string[]): BacktestReport {
  const byGroup = groupLevels.flatMap((level) => {
    const depth = hierarchy.levels.indexOf(level);
    if (depth < 0) throw new Error(`${level} is not a level of the ${hierarchy.kind} hierarchy (${hierarchy.levels.join(', ')})`);
    return grouped(rows, (r) => groupKey(r.groups, depth)).map(([group, members]) => ({ level, group, ...compare(members) }));
  });
  return {
    kind,
    observations: rows.length,
    from: rows[0]?.observedAt ?? null,
    to: rows[rows.length - 1]?.observedAt ?? null,
    fits,
    overall: compare(rows),
    byMonth: grouped(rows, (r) => r.observedAt.slice(0, 7)).map(([month, members]) => ({ month, ...compare(members) })),
    byGroup,
    byConfidence: CONFIDENCE_LEVELS.map((confidence) => ({
      confidence,
      modelAlone: backtestMeasures(rows.filter((r) => levelOfFsd(r.modelAlone.fsd) === confidence).map((r) => ({ priceUsd: r.priceUsd, ...r.modelAlone }))),
      reanchored: backtestMeasures(rows.filter((r) => levelOfFsd(r.reanchored.fsd) === confidence).map((r) => ({ priceUsd: r.priceUsd, ...r.reanchored }))),
    })).filter((c) => c.modelAlone.n + c.reanchored.n > 0),
    rows,
  };
}
