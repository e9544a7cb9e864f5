/**
 * The live accuracy panel's plots, and the drawing of every plot of the page (the portfolio view's
 * too): vega-lite specs compiled in the page and drawn by vega's SVG (or canvas) renderer. Loaded
 * on demand (a dynamic import), so the batch page does not carry vega until a panel draws.
 *
 * The page's CSP has no 'unsafe-eval': vega's default expression evaluator builds functions with
 * `new Function`, so the specs are parsed with their expression ASTs (`ast: true`) and evaluated
 * by vega-interpreter instead. The SVG renderer sets styles through the CSSOM, never inline
 * `style` attributes, so 'unsafe-inline' is not needed either.
 */
import { parse, View, type Spec as VegaSpec } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { AccuracyData, GroupAccuracy } from './api';
import { PLOT_CONFIG } from './plot-config';

/** The drift rule's bands (models/observations/drift.ts, spelled out in liveAccuracy.driftRule). */
export const BIAS_BAND = 0.03;
export const COVERAGE_BAND = { low: 0.85, high: 0.95, target: 0.9 } as const;

const SERVICE = 'Service';
const MODEL_ALONE = 'Model alone';
const SERIES = { domain: [SERVICE, MODEL_ALONE], range: ['#1f6feb', '#9ca3af'] };
const BAND_COLOUR = '#2e7d32';
const WIDTH = 460;
/** The overall row of the plots and the table, above the groups. */
export const OVERALL_LABEL = 'All groups';

const CONFIG = { ...PLOT_CONFIG, axisY: { labelLimit: 220, title: null } } as const;

interface Row {
  group: string;
  series: string;
  value: number;
  low: number | null;
  high: number | null;
  observations: number;
}

/** The overall row first (when there is one), then the groups as the API lists them. */
export function rowsOf(report: AccuracyData['liveAccuracy']): GroupAccuracy[] {
  return report.overall ? [{ ...report.overall, group: OVERALL_LABEL }, ...report.groups] : report.groups;
}

function seriesRows(groups: readonly GroupAccuracy[], measure: 'bias' | 'coverage'): Row[] {
  return groups.flatMap(({ group, service, base }) => [
    measure === 'bias'
      ? { group, series: SERVICE, value: service.meanBias, low: service.meanBiasLow ?? null, high: service.meanBiasHigh ?? null, observations: service.observations }
      : { group, series: SERVICE, value: service.coverage, low: service.coverageLow ?? null, high: service.coverageHigh ?? null, observations: service.observations },
    { group, series: MODEL_ALONE, value: measure === 'bias' ? base.meanBias : base.coverage, low: null, high: null, observations: base.observations },
  ]);
}

interface Measure {
  /** Its name in tooltips and mark descriptions. */
  name: string;
  axisTitle: string;
  /** d3-format of the axis labels, and of the values in tooltips and descriptions. */
  axisFormat: string;
  format: string;
}

/**
 * One row a group, the service and the model alone side by side in it: a shaded band (the drift
 * rule's), a reference rule, the service's 95% interval as an error bar and both values as points.
 * Each mark says what it is (aria-roledescription) and its values (aria-label).
 */
function intervalPlot(rows: Row[], order: string[], measure: Measure, band: { low: number; high: number }, reference: number): TopLevelSpec {
  const x = { type: 'quantitative' as const, axis: { title: measure.axisTitle, format: measure.axisFormat } };
  const y = { field: 'group', type: 'nominal' as const, sort: order, scale: { type: 'band' as const, paddingInner: 0.25 } };
  const format = (field: string) => `format(datum.${field}, ${JSON.stringify(measure.format)})`;
  const interval = `isValid(datum.low) && isValid(datum.high) ? ${format('low')} + ' to ' + ${format('high')} : 'none'`;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width: WIDTH,
    height: { step: 44, for: 'position' },
    background: 'white',
    padding: 8,
    config: CONFIG,
    layer: [
      {
        data: { values: [band] },
        mark: { type: 'rect', color: BAND_COLOUR, opacity: 0.14, ariaRoleDescription: 'band' },
        encoding: { x: { ...x, field: 'low' }, x2: { field: 'high' }, description: { value: `The drift rule's band of ${measure.name}` } },
      },
      {
        data: { values: [{ reference }] },
        mark: { type: 'rule', color: BAND_COLOUR, strokeDash: [4, 3], ariaRoleDescription: 'reference' },
        encoding: { x: { ...x, field: 'reference' }, description: { value: `Reference ${measure.name}` } },
      },
      {
        data: { values: rows },
        transform: [
          { calculate: interval, as: 'interval' },
          { calculate: `datum.series + ', ' + datum.group + ': ${measure.name} ' + ${format('value')} + ', 95% interval ' + datum.interval + ', ' + datum.observations + ' observations'`, as: 'description' },
        ],
        encoding: {
          y,
          yOffset: { field: 'series', type: 'nominal', sort: SERIES.domain, scale: { domain: SERIES.domain } },
          color: { field: 'series', type: 'nominal', title: null, scale: SERIES },
          description: { field: 'description' },
        },
        layer: [
          {
            transform: [{ filter: 'isValid(datum.low) && isValid(datum.high)' }],
            mark: { type: 'rule', strokeWidth: 2, ariaRoleDescription: 'error bar' },
            encoding: { x: { ...x, field: 'low' }, x2: { field: 'high' } },
          },
          {
            mark: { type: 'point', filled: true, size: 60, opacity: 1, ariaRoleDescription: 'point' },
            encoding: {
              x: { ...x, field: 'value' },
              shape: { field: 'series', type: 'nominal', title: null, scale: { domain: SERIES.domain, range: ['circle', 'diamond'] } },
              tooltip: [
                { field: 'group', title: 'Group' },
                { field: 'series', title: 'Valuations' },
                { field: 'value', title: measure.name, format: measure.format },
                { field: 'interval', title: '95% interval' },
                { field: 'observations', title: 'Observations' },
              ],
            },
          },
        ],
      },
    ],
  } as TopLevelSpec;
}

export function biasSpec(groups: readonly GroupAccuracy[]): TopLevelSpec {
  return intervalPlot(
    seriesRows(groups, 'bias'), groups.map((g) => g.group),
    { name: 'mean bias', axisTitle: 'Mean log(price / valuation): + when valuations are low', axisFormat: '+.0%', format: '+.1%' },
    { low: -BIAS_BAND, high: BIAS_BAND }, 0,
  );
}

export function coverageSpec(groups: readonly GroupAccuracy[]): TopLevelSpec {
  return intervalPlot(
    seriesRows(groups, 'coverage'), groups.map((g) => g.group),
    { name: 'coverage', axisTitle: 'Share of observed prices inside the 90% interval', axisFormat: '.0%', format: '.1%' },
    { low: COVERAGE_BAND.low, high: COVERAGE_BAND.high }, COVERAGE_BAND.target,
  );
}

/** The market factors: a bar from 1 (no adjustment) to each group's factor, top level first. */
export function factorSpec(adjustments: NonNullable<AccuracyData['marketAdjustments']>): TopLevelSpec {
  const x = { type: 'quantitative' as const, scale: { zero: false, padding: 12 }, axis: { title: 'Market factor (valuations × factor)', format: '.2f' } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width: WIDTH,
    height: { step: 22 },
    background: 'white',
    padding: 8,
    config: CONFIG,
    layer: [
      {
        data: { values: adjustments.groups },
        transform: [{ calculate: "datum.group + ' (' + datum.level + '): factor ' + format(datum.factor, '.3f') + ', ' + datum.observations + ' observations'", as: 'description' }],
        mark: { type: 'bar', cornerRadius: 2, ariaRoleDescription: 'bar' },
        encoding: {
          description: { field: 'description' },
          y: { field: 'group', type: 'nominal', sort: adjustments.groups.map((g) => g.group) },
          x: { ...x, field: 'factor' },
          x2: { datum: 1 },
          color: { field: 'level', type: 'nominal', title: 'Level', sort: [...new Set(adjustments.groups.map((g) => g.level))] },
          tooltip: [
            { field: 'group', title: 'Group' },
            { field: 'level', title: 'Level' },
            { field: 'factor', title: 'Factor', format: '.3f' },
            { field: 'observations', title: 'Observations' },
            { field: 'shrinkage', title: "Share from the group's own observations", format: '.0%' },
          ],
        },
      },
      {
        data: { values: [{ factor: 1 }] },
        mark: { type: 'rule', color: '#444444', ariaRoleDescription: 'reference' },
        encoding: { x: { ...x, field: 'factor' }, description: { value: 'Factor 1: no adjustment' } },
      },
    ],
  } as TopLevelSpec;
}

/**
 * Draws vega-lite (or vega) specs into their containers, as SVG unless told canvas (for thousands of marks);
 * a container holds one view, so drawing into it again releases the one before. finalize()
 * releases them all.
 */
export class Plots {
  private readonly views = new Map<HTMLElement, View>();

  async draw(container: HTMLElement, spec: TopLevelSpec, options: { renderer?: 'svg' | 'canvas' } = {}): Promise<void> {
    await this.drawVega(container, compile(spec).spec, options);
  }

  /** A vega spec as it is (the portfolio map: vega-lite has no label placement). */
  async drawVega(container: HTMLElement, spec: VegaSpec, options: { renderer?: 'svg' | 'canvas' } = {}): Promise<void> {
    const runtime = parse(spec, undefined, { ast: true });
    this.views.get(container)?.finalize();
    container.replaceChildren();
    const view = new View(runtime, { renderer: options.renderer ?? 'svg', container, expr: expressionInterpreter, hover: false });
    this.views.set(container, view);
    await view.runAsync();
  }

  finalize(): void {
    for (const view of this.views.values()) view.finalize();
    this.views.clear();
  }
}
