/**
 * A backtest's report as CSV (RFC 4180, formula-safe as the batch results are): the per-observation
 * rows, one a line, and the summary (overall, by month, by group, by confidence level) as one
 * table whose first columns say which section a line belongs to.
 */
import type { BacktestMeasures, BacktestReport, BacktestRow } from '../../models/observations';
import { csvRecord } from '../http/csv-record';

const ROW_COLUMNS = [
  'observed_at', 'reference', 'groups', 'price_usd', 'model_estimate', 'model_low', 'model_high', 'model_fsd',
  'reanchored_estimate', 'reanchored_low', 'reanchored_high', 'reanchored_fsd', 'factor', 'as_of', 'observations_used',
] as const;

const round = (value: number, digits: number) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : '');

function rowRecord(r: BacktestRow): unknown[] {
  return [
    r.observedAt, r.reference ?? '', r.groups.join(' › '), r.priceUsd, r.modelAlone.estimate, r.modelAlone.low, r.modelAlone.high, round(r.modelAlone.fsd, 3),
    Math.round(r.reanchored.estimate), Math.round(r.reanchored.low), Math.round(r.reanchored.high), round(r.reanchored.fsd, 3), round(r.factor, 4), r.asOf, r.observationsUsed,
  ];
}

export function backtestRowsCsv(report: Pick<BacktestReport, 'rows'>): string {
  return [csvRecord(ROW_COLUMNS), ...report.rows.map((r) => csvRecord(rowRecord(r)))].join('');
}

const MEASURE_COLUMNS = ['n', 'median_ape', 'within_10', 'median_bias', 'bias_ci_low', 'bias_ci_high', 'coverage', 'coverage_low', 'coverage_high', 'median_width', 'within_fsd'] as const;

function measureRecord(m: BacktestMeasures): unknown[] {
  return [
    m.n, round(m.medianApe, 4), round(m.within10, 4), round(m.bias.median, 4), round(m.bias.ci95?.low ?? NaN, 4), round(m.bias.ci95?.high ?? NaN, 4),
    round(m.coverage.share, 4), round(m.coverage.bounds95.low, 4), round(m.coverage.bounds95.high, 4), round(m.medianWidth, 4), round(m.withinFsd, 4),
  ];
}

export function backtestSummaryCsv(report: BacktestReport): string {
  const lines = [csvRecord(['section', 'level', 'group', ...MEASURE_COLUMNS.map((c) => `model_${c}`), ...MEASURE_COLUMNS.map((c) => `reanchored_${c}`)])];
  const add = (section: string, level: string, group: string, c: BacktestReport['overall']) => lines.push(csvRecord([section, level, group, ...measureRecord(c.modelAlone), ...measureRecord(c.reanchored)]));
  add('overall', '', 'all', report.overall);
  for (const m of report.byMonth) add('month', 'month', m.month, m);
  for (const g of report.byGroup) add('group', g.level, g.group, g);
  for (const c of report.byConfidence) add('confidence', 'confidence', c.confidence, c);
  return lines.join('');
}
