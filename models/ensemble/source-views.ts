/**
 * Views of a source-folded cross-fit (CrossFitConfig.foldOf = the row's source) that every kind
 * with several listing sources shares: each source's rows with intervals calibrated on the other
 * sources' residuals only (leave one source out), and the choice of how far σ(x) is trusted made
 * on those views. Pure computation over a CrossFit.
 */
import { calibrateIntervals, conformityScore, intervalHalfWidth, pooledScale, type IntervalCalibration, type ScalePoolingSelection } from './conformal';
import { evaluate, rowsAt, SCALE_POOLING_POWERS, type CrossFit, type CrossFitConfig, type Dataset, type GroupedEvaluation } from './cross-fit';
import { accuracyClass, accuracyMetrics, type AccuracyMetrics } from './metrics';
import type { AccuracyClass } from './confidence';

/** A held-out evaluation as manifests keep it. */
export interface EvaluationReport {
  /** How the numbers were measured, in one sentence. */
  protocol: string;
  /** Ensemble weights of the pipeline evaluated here (learned on its own training rows), by member. */
  weights?: Record<string, number>;
  overall: AccuracyMetrics;
  districts: Record<string, AccuracyMetrics & { accuracyClass: AccuracyClass }>;
  bySource?: Record<string, AccuracyMetrics>;
  /** By segment: the part of the calibration group before '/' (flats: new build, resale, unknown). */
  segments?: Record<string, AccuracyMetrics>;
  /** Leave-one-source-out: the source with the largest median APE. */
  worstSource?: string;
  /** Leave-one-source-out, each row valued from its masked training copy (flats: core fields only, from 2026.11.9). */
  coreFieldsOnly?: { overall: AccuracyMetrics; bySource: Record<string, AccuracyMetrics> };
}

/** How a kind's source views are run. */
export interface SourceViewOptions {
  /** A source fitted on but never scored nor calibrating (flats: the oldest, whose level would be extrapolated backwards). */
  notScored?: string;
  /** A group gets its own interval quantile with at least this many calibration rows. */
  minCalibrationRows: number;
  /** Districts in report order. */
  districts: readonly string[];
}

type SourceRow = { source: string };

export const segmentOf = (group: string) => group.slice(0, group.indexOf('/'));
export const districtOf = (group: string) => group.slice(group.indexOf('/') + 1);

export function indicesWhere<Row>(data: Dataset<Row>, keep: (row: Row) => boolean): number[] {
  return data.rows.flatMap((row, i) => (keep(row) ? [i] : []));
}

export function metricsOfRows(rows: GroupedEvaluation['rows']): AccuracyMetrics {
  return accuracyMetrics(rows.map((r) => r.actual), rows.map((r) => r.predicted), rows.map((r) => r.low), rows.map((r) => r.high));
}

/** Metrics of held-out rows grouped by a key of their calibration group. */
export function metricsBy(rows: GroupedEvaluation['rows'], key: (group: string) => string): Record<string, AccuracyMetrics> {
  const keys = [...new Set(rows.map((r) => key(r.group)))].sort();
  return Object.fromEntries(keys.map((k) => [k, metricsOfRows(rows.filter((r) => key(r.group) === k))]));
}

export function districtReport(rows: GroupedEvaluation['rows']): EvaluationReport['districts'] {
  return Object.fromEntries(Object.entries(metricsBy(rows, districtOf)).map(([d, m]) => [d, { ...m, accuracyClass: accuracyClass(m) }]));
}

/**
 * Each source's rows with intervals calibrated on the other sources' residuals only, so no row's
 * interval saw its source (a `notScored` source never calibrates). Scores are
 * |log residual| in units of the pooled σ(x). `held` are the source's rows as listed, `heldMasked`
 * their core-fields-only copies (empty without masked copies).
 */
function calibrationBySource<Row extends SourceRow>(fit: CrossFit<Row>, config: CrossFitConfig<Row, unknown>, power: number, allowance: Float64Array, options: SourceViewOptions) {
  const { data, originals } = fit;
  const pooling = fit.poolingOf(power);
  const scale = fit.sigmaOof.map((s) => pooledScale(s, pooling));
  const scores = fit.oofConsensus.map((p, i) => conformityScore(Math.abs(p - data.y[i]), scale[i], allowance[i]));
  const groups = data.rows.map((r) => config.groupOf(r));
  const sources = [...new Set(data.rows.map((r) => r.source))];
  return sources.map((source) => {
    const others = indicesWhere(data, (r) => r.source !== source && r.source !== options.notScored);
    const calibration = calibrateIntervals(others.map((i) => scores[i]), others.map((i) => groups[i]), config.coverage, options.minCalibrationRows);
    const rows = indicesWhere(data, (r) => r.source === source);
    return {
      source, calibration, scale,
      held: rows.filter((i) => i < originals),
      heldMasked: rows.filter((i) => i >= originals),
      covered: (i: number) => scores[i] <= intervalHalfWidth(calibration, groups[i], 0),
    };
  });
}

/**
 * Leave-one-source-out view: each source's rows as predicted by the fold that never saw it, as
 * listed and (with masked copies) with the core fields only.
 */
export function leaveOneSourceOut<Row extends SourceRow>(fit: CrossFit<Row>, config: CrossFitConfig<Row, unknown>, power: number, allowance: Float64Array, options: SourceViewOptions & { protocol: string }): { report: EvaluationReport & { worstSource: string }; heldOut: GroupedEvaluation['rows'] } {
  const { data } = fit;
  const score = (idx: number[], calibration: IntervalCalibration, scale: Float64Array) => evaluate(
    rowsAt(data, idx),
    { consensus: Float64Array.from(idx, (i) => fit.oofConsensus[i]), scale: Float64Array.from(idx, (i) => scale[i]), allowance: Float64Array.from(idx, (i) => allowance[i]) }, calibration, config, options.districts,
  );
  const results = calibrationBySource(fit, config, power, allowance, options).map(({ source, held, heldMasked, calibration, scale }) => ({
    source,
    result: score(held, calibration, scale),
    masked: heldMasked.length ? score(heldMasked, calibration, scale) : null,
  }));
  const counted = results.filter(({ source }) => source !== options.notScored);
  const rows = counted.flatMap(({ result }) => result.rows);
  const bySource = Object.fromEntries(results.map(({ source, result }) => [source, result.overall]));
  const worstSource = counted.map(({ source }) => source).reduce((a, b) => (bySource[b].medianApe > bySource[a].medianApe ? b : a));
  const masked = results.filter((r) => r.masked);
  const maskedRows = masked.filter(({ source }) => source !== options.notScored).flatMap(({ masked }) => masked!.rows);
  const report = {
    protocol: options.protocol,
    weights: {},
    overall: metricsOfRows(rows),
    districts: districtReport(rows),
    bySource,
    segments: metricsBy(rows, segmentOf),
    worstSource,
    ...(masked.length ? {
      coreFieldsOnly: {
        overall: metricsOfRows(maskedRows),
        bySource: Object.fromEntries(masked.map(({ source, masked }) => [source, masked!.overall])),
      },
    } : {}),
  };
  return { report, heldOut: [...rows, ...maskedRows] };
}

/**
 * How far σ(x) is trusted, chosen without any test row: for each candidate power, each source's
 * rows (as listed, and core fields only) get intervals calibrated on the other sources' residuals;
 * the power whose coverage deviates least from the target on average wins (ties to the earlier candidate).
 */
export function selectPooling<Row extends SourceRow>(fit: CrossFit<Row>, config: CrossFitConfig<Row, unknown>, allowance: Float64Array, options: SourceViewOptions): ScalePoolingSelection {
  const candidates = SCALE_POOLING_POWERS.map((power) => {
    const scored = calibrationBySource(fit, config, power, allowance, options)
      .filter(({ source }) => source !== options.notScored)
      .flatMap(({ source, held, heldMasked, covered }) => [{ name: source, rows: held, covered }, ...(heldMasked.length ? [{ name: `${source}, core fields only`, rows: heldMasked, covered }] : [])]);
    const groups = Object.fromEntries(scored.map(({ name, rows, covered }) => [name, { n: rows.length, coverage: rows.filter(covered).length / rows.length }]));
    const n = scored.reduce((sum, { rows }) => sum + rows.length, 0);
    return {
      power,
      coverage: scored.reduce((sum, { name }) => sum + groups[name].coverage * groups[name].n, 0) / n,
      meanAbsDeviation: scored.reduce((sum, { name }) => sum + Math.abs(groups[name].coverage - config.coverage), 0) / scored.length,
      groups,
    };
  });
  const best = candidates.reduce((a, b) => (b.meanAbsDeviation < a.meanAbsDeviation ? b : a));
  return {
    protocol: `leave-one-source-out over ${Object.keys(best.groups).join(', ')}${options.notScored ? ` (${options.notScored} fitted on, not scored)` : ''}: each source's intervals calibrated on the other sources' residuals`,
    minRows: 0,
    candidates,
    chosen: best.power,
  };
}

