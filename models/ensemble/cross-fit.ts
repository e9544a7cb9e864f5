/**
 * Cross-fitting of a calibrated ensemble, for any kind of collateral: the members are fitted K-fold
 * so every training row gets out-of-fold predictions, from which the consensus weights and the
 * residual-scale model are learned and the residuals the intervals calibrate on are measured
 * (models/intervals); then the members are fitted on every row. The kind supplies its rows, its
 * feature module and its calibration group (district for homes, make/model group for vehicles);
 * the target is always a log price (per m² for homes).
 */
import { matrix, type Matrix } from '../trainers';
import { combinedHalfWidth, fitResidualScale, groupHalfWidth, type IntervalCalibration, type OutOfFoldResiduals } from '../intervals';
import { accuracyClass, accuracyMetrics, type AccuracyMetrics } from './metrics';
import type { AccuracyClass } from './confidence';
import { learnWeights, type MemberSpec } from './weights';

/** A kind's feature module: the one place features are built, for training and serving alike. */
export interface FeatureSpace<Row, Encoding> {
  names: readonly string[];
  /** Feature groups as the importance report names them (group → feature names). */
  groups: Record<string, readonly string[]>;
  /** Learns what the encoding needs from rows with known targets (target encodings and so on). */
  fit(rows: readonly Row[], y: ArrayLike<number>): Encoding;
  /** Writes rows.length × names.length features into `out`. */
  encode(rows: readonly Row[], encoding: Encoding, out: Float64Array): Float64Array;
}

export interface Dataset<Row> {
  rows: Row[];
  /** The target: log price, or log price per unit (see `CrossFitConfig.unitsOf`). */
  y: Float64Array;
  priceUsd: Float64Array;
  source: string[];
}

/**
 * A market level over time that the members do not learn: fitted on each fit's rows, it brings every
 * target to the newest level before the members see it (they learn shape and location), and is
 * added back at the row's own date when predicting (so a row of a later month is valued at the level
 * extrapolated to it). Residential uses the hedonic market index.
 */
export interface LevelModel<Row, Level = unknown> {
  fit(rows: readonly Row[], y: Float64Array): Level;
  /** Log level of the row's date relative to the newest data the level was fitted on. */
  at(level: Level, row: Row): number;
  /** Months from the newest data the level was fitted on to the row's date (0 within the data). */
  monthsBeyond(level: Level, row: Row): number;
}

export interface CrossFitConfig<Row, Encoding> {
  features: FeatureSpace<Row, Encoding>;
  members: readonly MemberSpec[];
  /**
   * Folds by a row's label instead of at random: with the source as label, every row is predicted by
   * a model that never saw its source (leave-one-source-out), which is what calibration under shift needs.
   */
  foldOf?(row: Row): string;
  level?: LevelModel<Row>;
  /**
   * Whether a row's out-of-fold residual calibrates the intervals (default all). With a level model
   * and source folds, the oldest source's residuals measure a backward extrapolation of the level
   * that serving never makes, so residential leaves them out.
   */
  calibratesOn?(row: Row): boolean;
  /** The group a row is calibrated and reported in. */
  groupOf(row: Row): string;
  /** Months since an epoch: recency weights and the forward split use it. */
  monthOf(row: Row): number;
  /** What the target is per: the area for a price per m², 1 for a whole price. */
  unitsOf(row: Row): number;
  /** A row counts half as much for every this many months it is older than the newest. */
  recencyHalfLifeMonths: number;
  /**
   * Which sources set "the newest" month the recency weights count back from (default: every row).
   * An organisation's observations do not: a few of them dated a year after the listings would
   * otherwise shrink every listing's weight, which moves the members' fixed penalties.
   */
  anchorsRecency?(source: string): boolean;
  folds: number;
  seed: number;
  /**
   * Training copies of every row with optional fields removed (as banks and other sites send them),
   * so members learn what the remaining fields say instead of routing a missing field down a path
   * few training rows took, and the scale model and the calibration see the wider errors of such
   * requests. Copies share their row's fold, target and level; the level and the encodings are
   * fitted on the original rows only. `weight` multiplies a copy's recency weight.
   */
  maskedCopies?: { mask(row: Row): Row; weight: number };
}

export type CrossFit<Row> = ReturnType<typeof crossFit<Row, unknown>>;

/**
 * Fits the members on `data` and measures, out of fold, what calibration and weighting need. With
 * `maskedCopies`, every per-row array returned (oof, oofConsensus, sigmaOof, and `data`) holds the
 * original rows first (indices below `originals`) and their masked copies after, in the same order.
 */
export function crossFit<Row, Encoding>(original: Dataset<Row>, config: CrossFitConfig<Row, Encoding>, progress: (step: string) => void) {
  const { features, members, folds } = config;
  const width = features.names.length;
  const encode = (rows: readonly Row[], encoding: Encoding): Matrix => matrix(features.encode(rows, encoding, new Float64Array(rows.length * width)), rows.length, width);
  const originals = original.rows.length;
  const data = config.maskedCopies ? withMaskedCopies(original, config.maskedCopies.mask) : original;
  const n = data.rows.length;
  const isOriginal = (i: number) => i < originals;
  const { fold, count: foldCount } = config.foldOf ? labelFolds(data.rows.map(config.foldOf)) : { fold: foldAssignment(n, folds, config.seed), count: folds };
  /** Levels the targets of rows `idx` with a level fitted on the original ones among them. */
  const levelled = (idx: readonly number[]) => {
    const rows = idx.map((i) => data.rows[i]);
    const y = pick(data.y, idx);
    const own = idx.filter(isOriginal);
    if (!config.level) return { level: null, rows, y, at: (_row: Row) => 0, monthsBeyond: (_row: Row) => 0 };
    const level = config.level.fit(own.map((i) => data.rows[i]), pick(data.y, own));
    const at = (row: Row) => config.level!.at(level, row);
    const monthsBeyond = (row: Row) => config.level!.monthsBeyond(level, row);
    return { level, rows, y: y.map((v, r) => v - at(rows[r])), at, monthsBeyond };
  };
  /** Encodings learn from original rows only: a copy would count its row twice. */
  const fitEncoding = (fit: ReturnType<typeof levelled>, idx: readonly number[]) => {
    const keep = idx.flatMap((i, r) => (isOriginal(i) ? [r] : []));
    return features.fit(keep.map((r) => fit.rows[r]), Float64Array.from(keep, (r) => fit.y[r]));
  };
  const weight = recencyWeights(data, config);
  if (config.maskedCopies) for (let i = originals; i < n; i++) weight[i] *= config.maskedCopies.weight;
  const oof = members.map(() => new Float64Array(n));
  /** How far past its fold's newest data each row's level was extrapolated (the allowance's months). */
  const monthsBeyond = new Float64Array(n);
  // Features of each row as its own fold saw them (out-of-fold encodings): the scale model learns on these.
  const Xoof = matrix(new Float64Array(n * width), n, width);
  for (let k = 0; k < foldCount; k++) {
    const fitIdx = range(n).filter((i) => fold[i] !== k);
    const holdIdx = range(n).filter((i) => fold[i] === k);
    const fitLevel = levelled(fitIdx);
    const encoding = fitEncoding(fitLevel, fitIdx);
    const Xfit = encode(fitLevel.rows, encoding);
    const Xhold = encode(holdIdx.map((i) => data.rows[i]), encoding);
    holdIdx.forEach((i, r) => {
      Xoof.data.set(Xhold.data.subarray(r * width, (r + 1) * width), i * width);
      monthsBeyond[i] = fitLevel.monthsBeyond(data.rows[i]);
    });
    members.forEach((spec, j) => {
      const p = spec.create().fit(Xfit, fitLevel.y, { sampleWeight: pick(weight, fitIdx) }).predict(Xhold);
      holdIdx.forEach((i, r) => (oof[j][i] = p[r] + fitLevel.at(data.rows[i])));
      progress(`fold ${k + 1}/${foldCount} ${spec.name}`);
    });
  }
  // Rows whose out-of-fold residuals measure what serving faces (see calibratesOn): they alone
  // teach the consensus weights, the scale model and the conformal quantiles.
  const calibrating = range(n).filter((i) => config.calibratesOn?.(data.rows[i]) ?? true);
  const weights = learnWeights(oof.map((p) => pick(p, calibrating)), pick(data.y, calibrating), pick(weight, calibrating));
  const oofConsensus = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < members.length; j++) oofConsensus[i] += weights[j] * oof[j][i];
  // Normalised conformal: each residual is divided by the scale a model expects for its row.
  const abs = oofConsensus.map((p, i) => Math.abs(p - data.y[i]));
  const scale = fitResidualScale(Xoof, abs, fold, foldCount, calibrating, weight);
  progress('scale model');
  const residuals: OutOfFoldResiduals = {
    abs, sigma: scale.sigmaOof, center: scale.center, weight, group: data.rows.map(config.groupOf), source: data.source, calibrating, monthsBeyond, originals,
  };

  const final = levelled(range(n));
  const encoding = fitEncoding(final, range(n));
  const X = encode(data.rows, encoding);
  const models = members.map((spec) => {
    const m = spec.create().fit(X, final.y, { sampleWeight: weight });
    progress(`fit ${spec.name}`);
    return m;
  });
  const predict = (rows: readonly Row[], override?: (X: Matrix) => void) => {
    const Xp = encode(rows, encoding);
    override?.(Xp);
    const levels = rows.map(final.at);
    const per = models.map((m) => m.predict(Xp).map((v, i) => v + levels[i]));
    const consensus = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) for (let j = 0; j < per.length; j++) consensus[i] += weights[j] * per[j][i];
    return { consensus, members: per, scale: scale.model.predict(Xp).map(Math.exp) };
  };
  return { data, originals, weights, oof, oofConsensus, residuals, scaleModel: scale.model, models, encoding, level: final.level, predict };
}

/** The rows followed by a masked copy of each (same target, price and source). */
function withMaskedCopies<Row>(data: Dataset<Row>, mask: (row: Row) => Row): Dataset<Row> {
  const twice = (a: Float64Array) => {
    const out = new Float64Array(a.length * 2);
    out.set(a);
    out.set(a, a.length);
    return out;
  };
  return { rows: [...data.rows, ...data.rows.map(mask)], y: twice(data.y), priceUsd: twice(data.priceUsd), source: [...data.source, ...data.source] };
}

/** How many progress steps one `crossFit` reports. */
export function crossFitSteps(members: number, folds: number): number {
  return members * (folds + 1) + 1;
}

export interface HeldOutPrediction {
  group: string;
  source: string;
  actual: number;
  predicted: number;
  low: number;
  high: number;
}

export interface GroupedEvaluation {
  overall: AccuracyMetrics;
  groups: Record<string, AccuracyMetrics & { accuracyClass: AccuracyClass }>;
  bySource: Record<string, AccuracyMetrics>;
  rows: HeldOutPrediction[];
}

/** Metrics overall, per group (in `groupOrder`, then any other) and per source, with each row's interval. */
export function evaluate<Row>(
  data: Dataset<Row>, pred: { consensus: Float64Array; scale: Float64Array; allowance?: Float64Array }, calibration: IntervalCalibration,
  config: Pick<CrossFitConfig<Row, unknown>, 'groupOf' | 'unitsOf'>, groupOrder: readonly string[] = [],
): GroupedEvaluation {
  const n = data.rows.length;
  const estimate = new Float64Array(n);
  const low = new Float64Array(n);
  const high = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const q = combinedHalfWidth(groupHalfWidth(calibration, config.groupOf(data.rows[i]), 0) * pred.scale[i], pred.allowance?.[i]);
    estimate[i] = Math.exp(pred.consensus[i]) * config.unitsOf(data.rows[i]);
    low[i] = estimate[i] * Math.exp(-q);
    high[i] = estimate[i] * Math.exp(q);
  }
  return evaluateValuations(data, { estimate, low, high }, config, groupOrder);
}

/** Accuracy of given estimates and intervals (USD), overall, per calibration group and per source. */
export function evaluateValuations<Row>(
  data: Dataset<Row>, valued: { estimate: Float64Array; low: Float64Array; high: Float64Array }, config: Pick<CrossFitConfig<Row, unknown>, 'groupOf'>, groupOrder: readonly string[] = [],
): GroupedEvaluation {
  const n = data.rows.length;
  const { estimate, low, high } = valued;
  const groupOfRow = data.rows.map(config.groupOf);
  const metricsOf = (idx: number[]) => accuracyMetrics(pick(data.priceUsd, idx), pick(estimate, idx), pick(low, idx), pick(high, idx));
  const groups: GroupedEvaluation['groups'] = {};
  const seen = new Set(groupOfRow);
  for (const g of [...groupOrder.filter((g) => seen.has(g)), ...[...seen].filter((g) => !groupOrder.includes(g)).sort()]) {
    const m = metricsOf(range(n).filter((i) => groupOfRow[i] === g));
    groups[g] = { ...m, accuracyClass: accuracyClass(m) };
  }
  const bySource: Record<string, AccuracyMetrics> = {};
  for (const s of new Set(data.source)) bySource[s] = metricsOf(range(n).filter((i) => data.source[i] === s));
  const rows = range(n).map((i) => ({ group: groupOfRow[i], source: data.source[i], actual: data.priceUsd[i], predicted: Math.round(estimate[i]), low: Math.round(low[i]), high: Math.round(high[i]) }));
  return { overall: metricsOf(range(n)), groups, bySource, rows };
}

/** Permutation importance per feature group on held-out rows: the rise in mean absolute log error, as shares. */
export function permutationImportance<Row>(fit: Pick<CrossFit<Row>, 'predict'>, test: Dataset<Row>, features: Pick<FeatureSpace<Row, unknown>, 'names' | 'groups'>): { feature: string; importance: number }[] {
  const base = meanAbs(fit.predict(test.rows).consensus, test.y);
  const rise: { feature: string; importance: number }[] = [];
  let seed = 7;
  for (const [group, names] of Object.entries(features.groups)) {
    const columns = names.map((name) => features.names.indexOf(name));
    const perm = shuffle(range(test.rows.length), (seed += 1));
    const shuffled = fit.predict(test.rows, (X) => {
      const copy = Float64Array.from(X.data);
      for (let i = 0; i < X.rows; i++) for (const c of columns) X.data[i * X.cols + c] = copy[perm[i] * X.cols + c];
    });
    rise.push({ feature: group, importance: Math.max(0, meanAbs(shuffled.consensus, test.y) - base) });
  }
  const sum = rise.reduce((s, r) => s + r.importance, 0) || 1;
  return rise.map((r) => ({ feature: r.feature, importance: Math.round((r.importance / sum) * 1000) / 1000 })).sort((a, b) => b.importance - a.importance);
}

/** Recency weight of each row relative to the newest month of the sources that anchor it in `data` (a row newer than that weighs more than 1). */
export function recencyWeights<Row>(data: Dataset<Row>, config: Pick<CrossFitConfig<Row, unknown>, 'monthOf' | 'recencyHalfLifeMonths' | 'anchorsRecency'>): Float64Array {
  const months = data.rows.map(config.monthOf);
  const anchoring = config.anchorsRecency ? months.filter((_, i) => config.anchorsRecency!(data.source[i])) : months;
  const newest = Math.max(...(anchoring.length > 0 ? anchoring : months));
  return Float64Array.from(months, (m) => 0.5 ** ((newest - m) / config.recencyHalfLifeMonths));
}

export function subset<Row>(data: Dataset<Row>, keep: (i: number) => boolean): Dataset<Row> {
  return rowsAt(data, range(data.rows.length).filter(keep));
}

/** The rows at `idx`, in that order. */
export function rowsAt<Row>(data: Dataset<Row>, idx: readonly number[]): Dataset<Row> {
  return { rows: idx.map((i) => data.rows[i]), y: pick(data.y, idx), priceUsd: pick(data.priceUsd, idx), source: idx.map((i) => data.source[i]) };
}

export function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

/** One fold per distinct label, in order of first appearance. */
function labelFolds(labels: readonly string[]): { fold: Int32Array; count: number } {
  const index = new Map<string, number>();
  const fold = Int32Array.from(labels, (label) => {
    if (!index.has(label)) index.set(label, index.size);
    return index.get(label)!;
  });
  return { fold, count: index.size };
}

/** Deterministic fold of each row (seeded shuffle, then round robin). */
function foldAssignment(n: number, k: number, seed: number): Int32Array {
  const fold = new Int32Array(n);
  shuffle(range(n), seed).forEach((i, r) => (fold[i] = r % k));
  return fold;
}

function shuffle(values: number[], seed: number): number[] {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [values[i], values[j]] = [values[j], values[i]];
  }
  return values;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function pick(values: Float64Array, idx: readonly number[]): Float64Array {
  return Float64Array.from(idx, (i) => values[i]);
}

function meanAbs(p: Float64Array, y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += Math.abs(p[i] - y[i]);
  return s / y.length;
}
