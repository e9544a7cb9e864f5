/**
 * The backtest panel's plot: median bias and median APE by month, the model alone beside the
 * valuations re-anchored on earlier prices, one small chart above the other. No vega import here:
 * the spec is plain data, drawn by ./plots.ts. Each point says what it is (aria-label), as the live
 * accuracy plots' do, so the page's test reads the values it shows.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { BacktestComparison, BacktestMeasures } from './api';
import { PLOT_CONFIG } from './plot-config';

export const MODEL_ALONE = 'Model alone';
export const REANCHORED = 'Re-anchored';
const SERIES = { domain: [MODEL_ALONE, REANCHORED], range: ['#9ca3af', '#1f6feb'] };

/** A median log(price / estimate) as the share prices lay above (+) or below (−) the valuations, as the PDF prints it. */
export const biasShare = (m: BacktestMeasures) => Math.expm1(m.bias.median);

interface Point {
  month: string;
  series: string;
  value: number;
  n: number;
}

function points(months: readonly (BacktestComparison & { month: string })[], value: (m: BacktestMeasures) => number): Point[] {
  return months.flatMap((m) => [
    { month: m.month, series: MODEL_ALONE, value: value(m.modelAlone), n: m.modelAlone.n },
    { month: m.month, series: REANCHORED, value: value(m.reanchored), n: m.reanchored.n },
  ]);
}

function monthChart(values: Point[], name: string, format: string, axisTitle: string) {
  const x = { field: 'month', type: 'ordinal', axis: { title: null, labelAngle: 0 } };
  const y = { field: 'value', type: 'quantitative', axis: { title: axisTitle, format: format.replace('.1', '.0') } };
  const color = { field: 'series', type: 'nominal', title: null, scale: SERIES };
  return {
    width: 420,
    height: 130,
    layer: [
      { data: { values: [{ zero: 0 }] }, mark: { type: 'rule', color: '#444444', strokeDash: [4, 3], ariaRoleDescription: 'reference' }, encoding: { y: { field: 'zero', type: 'quantitative' }, description: { value: 'Zero' } } },
      { data: { values }, mark: { type: 'line', strokeWidth: 2, ariaRoleDescription: 'line' }, encoding: { x, y, color, description: { field: 'series' } } },
      {
        data: { values },
        transform: [{ calculate: `datum.series + ', ' + datum.month + ': ${name} ' + format(datum.value, '${format}') + ', ' + datum.n + ' prices'`, as: 'description' }],
        mark: { type: 'point', filled: true, size: 55, opacity: 1, ariaRoleDescription: 'point' },
        encoding: {
          x,
          y,
          color,
          description: { field: 'description' },
          tooltip: [
            { field: 'month', title: 'Month' },
            { field: 'series', title: 'Valuations' },
            { field: 'value', title: name, format },
            { field: 'n', title: 'Prices' },
          ],
        },
      },
    ],
  };
}

/** Median bias (+ when valuations were low) above, median APE below, by month. */
export function backtestMonthsSpec(months: readonly (BacktestComparison & { month: string })[]): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    background: 'white',
    padding: 8,
    config: PLOT_CONFIG,
    vconcat: [
      monthChart(points(months, biasShare), 'median bias', '+.1%', 'Median bias (+: prices above)'),
      monthChart(points(months, (m) => m.medianApe), 'median APE', '.1%', 'Median APE'),
    ],
  } as TopLevelSpec;
}
