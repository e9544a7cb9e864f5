/**
 * Views of a source-folded cross-fit (CrossFitConfig.foldOf = the row's source) that every kind
 * with several listing sources shares: each source's rows with intervals calibrated on the other
 * sources' residuals only (leave one source out, models/intervals/by-source.ts), reported like any
 * held-out evaluation. Pure computation over a CrossFit.
 */
import { calibrationBySource, type CalibratedIntervals, type IntervalCalibration, type SourceView } from '../intervals';
import { evaluate, rowsAt, type CrossFit, type CrossFitConfig, type Dataset, type GroupedEvaluation } from './cross-fit';
import { accuracyClass, accuracyMetrics, type AccuracyMetrics } from './metrics';
import type { EvaluationReport } from './evaluation-report';

// The report is what manifests keep, read by serving: its own module, apart from the cross-fit.
export type { EvaluationReport } from './evaluation-report';

/** How a kind's source views are run: calibrated as its pooling choice is (a `notScored` source is fitted on, never scored nor calibrating). */
export interface SourceViewOptions extends SourceView {
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
 * Leave-one-source-out view: each source's rows as predicted by the fold that never saw it, as
 * listed and (with masked copies) with the core fields only.
 */
export function leaveOneSourceOut<Row extends SourceRow>(
  fit: CrossFit<Row>, config: CrossFitConfig<Row, unknown>, served: CalibratedIntervals<Row>, options: SourceViewOptions & { protocol: string },
): { report: EvaluationReport & { worstSource: string }; heldOut: GroupedEvaluation['rows'] } {
  const { data } = fit;
  const allowance = served.allowance ?? new Float64Array(data.rows.length);
  const score = (idx: number[], calibration: IntervalCalibration, scale: Float64Array) => evaluate(
    rowsAt(data, idx),
    { consensus: Float64Array.from(idx, (i) => fit.oofConsensus[i]), scale: Float64Array.from(idx, (i) => scale[i]), allowance: Float64Array.from(idx, (i) => allowance[i]) }, calibration, config, options.districts,
  );
  const results = calibrationBySource(fit.residuals, served.pooling.power, allowance, options, served.method.coverage).map(({ source, held, heldMasked, calibration, scale }) => ({
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
