/**
 * What the model cards of every kind of collateral share (docs/MODEL_CARD.md for homes,
 * docs/VEHICLE_MODEL_CARD.md for vehicles): number formatting, markdown tables, the rules quoted
 * word for word, the checks run on held-out rows, and the figures: vega-lite specs rendered to SVG
 * by vega's headless renderer, written beside the card.
 *
 * Deterministic: nothing here reads a clock or a random source, so one manifest gives one card.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import { groupBy } from '../../models/ingest/outliers';
import { PROJECT_ROOT } from '../../models/paths';
import { accuracyByConfidence, type ConfidenceLevelAccuracy } from '../../models/ensemble/confidence';
import { median, MIN_CLASS_ROWS, type AccuracyMetrics } from '../../models/ensemble/metrics';

/** A rendered card: its markdown and its figures. */
export interface RenderedCard {
  markdown: string;
  /** Figure name → SVG text; written as <docs>/<figure dir>/<name>.svg. */
  figures: Record<string, string>;
  /** vega-lite warnings met while compiling the figures (none expected). */
  warnings: string[];
}

/** One held-out prediction as evaluation.json stores it (the group is the district or the make/model group). */
export interface HeldOutRow {
  actual: number;
  predicted: number;
  low: number;
  high: number;
}

// ───────────────────────────── formatting ─────────────────────────────

export const DASH = '–';

export function pct(x: number | undefined, digits = 1): string {
  return x === undefined || !Number.isFinite(x) ? DASH : `${(x * 100).toFixed(digits)}%`;
}

export function fixed(x: number | undefined, digits = 3): string {
  return x === undefined || !Number.isFinite(x) ? DASH : x.toFixed(digits);
}

/** Thousands with commas, independent of the machine's locale. */
export function int(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return DASH;
  const s = String(Math.round(Math.abs(x))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return x < 0 && Math.round(Math.abs(x)) !== 0 ? `−${s}` : s;
}

/** Percentage points, signed. */
export function pp(x: number): string {
  const v = (x * 100).toFixed(1);
  return x > 0 ? `+${v} pp` : x < 0 ? `−${v.slice(1)} pp` : `${v} pp`;
}

/** A share, signed: +12.3%, −4.0%. */
export function signedPct(x: number, digits = 1): string {
  return x > 0 ? `+${pct(x, digits)}` : x < 0 ? `−${pct(-x, digits)}` : pct(x, digits);
}

export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function table(header: readonly string[], rows: readonly (readonly string[])[], numeric: readonly boolean[] = header.map((_, i) => i > 0)): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), `|${numeric.map((r) => (r ? '---:' : '---')).join('|')}|`, ...rows.map(line)].join('\n');
}

export const METRIC_HEADER = ['n', 'R²', 'MAPE', 'median APE', 'MAE (USD)', 'PPE10', 'PPE20', 'coverage (90%)', 'median width'];

/** METRIC_HEADER with the coverage's 95% bounds after the coverage. */
export const METRIC_HEADER_WITH_BOUNDS = [...METRIC_HEADER.slice(0, 8), 'coverage 95% bounds', ...METRIC_HEADER.slice(8)];

export function coverageBounds(x: AccuracyMetrics): string {
  return x.intervalCoverageBounds95 ? `${pct(x.intervalCoverageBounds95.low)}–${pct(x.intervalCoverageBounds95.high)}` : DASH;
}

export function metricCells(x: AccuracyMetrics | undefined, withBounds = false): string[] {
  if (!x || x.n === 0) return ['0', ...(withBounds ? METRIC_HEADER_WITH_BOUNDS : METRIC_HEADER).slice(1).map(() => DASH)];
  const cells = [int(x.n), fixed(x.r2), pct(x.mape), pct(x.medianApe), int(x.maeUsd), pct(x.ppe10, 0), pct(x.ppe20, 0), pct(x.intervalCoverage), pct(x.medianIntervalWidth, 0)];
  if (withBounds) cells.splice(8, 0, coverageBounds(x));
  return cells;
}

// ───────────────────────────── the rules, in words ─────────────────────────────

/** The confidence rule, verbatim from the header of models/ensemble/confidence.ts (a test keeps them equal). */
export const CONFIDENCE_RULE = [
  'FSD (forecast standard deviation) = ln(high / low) / (2·z), z = 1.645 for the 90% interval served:',
  '  the sd of the log error the calibrated interval implies (about 68% of prices within ±FSD).',
  'Confidence score = 1 − FSD; level: high FSD ≤ 0.15, medium ≤ 0.30, low above.',
  "Drivers: why the interval is as wide as it is (the data's age, the group's held-out accuracy,",
  "  the ensemble's disagreement, anomaly flags, a re-anchoring on the organisation's prices).",
].join('\n');

export { MIN_CLASS_ROWS };

/** The rule of `accuracyClass` in models/ensemble/metrics.ts, in words, for a group named as `subject` ("A district"). */
export function accuracyClassRule(subject: string): string {
  return `${subject} with fewer than ${MIN_CLASS_ROWS} held-out listings is **low**. Otherwise it is **high** if R² ≥ 0.80 and MAPE ≤ 12%; ` +
    '**good** if R² ≥ 0.65 and MAPE ≤ 16%; **fair** if R² ≥ 0.50 and MAPE ≤ 22%; else **low** (best first: high, good, fair, low).';
}

export function glossary(extra: readonly string[] = []): string {
  return [
    '## How to read the numbers',
    '',
    '- **APE**: absolute percentage error of one estimate, |actual − estimate| / actual, against the asking price. **MAPE** is its mean, **median APE** its median (half of the estimates are closer than this).',
    '- **R²**: share of the variation of prices (USD) the model explains; 1 is perfect.',
    '- **MAE (USD)**: mean absolute error in dollars.',
    '- **PPE10 / PPE20**: share of estimates within ±10% / ±20% of the asking price.',
    '- **coverage (90%)**: share of asking prices inside the 90% interval; it should be close to 90%.',
    '- **median width**: median of (high − low) / estimate: how wide the interval is relative to the estimate.',
    '- **n**: number of listings tested.',
    ...extra,
  ].join('\n');
}

/** The features of a manifest as markdown bullets, one per feature group (as the importance figures name them); ungrouped ones last. */
export function featureGroupLines(names: readonly string[], groups: Readonly<Record<string, readonly string[]>>): string[] {
  const present = new Set(names);
  const grouped = new Set<string>();
  const lines: string[] = [];
  for (const [group, members] of Object.entries(groups)) {
    const inGroup = members.filter((f) => present.has(f));
    if (!inGroup.length) continue;
    inGroup.forEach((f) => grouped.add(f));
    lines.push(`- **${group}**: ${inGroup.map((f) => `\`${f}\``).join(', ')}`);
  }
  const other = names.filter((f) => !grouped.has(f));
  if (other.length) lines.push(`- **other**: ${other.map((f) => `\`${f}\``).join(', ')}`);
  return lines;
}

// ───────────────────────────── the artifact ─────────────────────────────

/** A version folder's evaluation.json (the headline held-out predictions), or null where the version has none. */
export function readEvaluationFile<T>(dir: string): T | null {
  const file = join(dir, 'evaluation.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null;
}

/** A version folder as the card names it: relative to the project, or <artifacts>/<version> outside it. */
export function artifactLabel(dir: string, version: string): string {
  const rel = relative(PROJECT_ROOT, dir);
  return rel.startsWith('..') || rel === '' ? `<artifacts>/${version}` : rel.split(sep).join('/');
}

// ───────────────────────────── checks on held-out rows ─────────────────────────────

export const COVERAGE_VERDICTS = ['below 88–92%', 'consistent with 88–92%', 'above 88–92%'];

/**
 * Whether a measured coverage is consistent with the 88–92% band: its 95% bounds must reach the band.
 * On 100–400 listings a perfectly calibrated interval's measured share moves ±3–6 points by
 * chance, so the point alone would fail good districts and pass bad ones. Versions without
 * bounds are judged on the point.
 */
export function coverageVerdict(x: AccuracyMetrics, target: number): string {
  const { low, high } = x.intervalCoverageBounds95 ?? { low: x.intervalCoverage, high: x.intervalCoverage };
  return high < target - 0.02 ? COVERAGE_VERDICTS[0] : low > target + 0.02 ? COVERAGE_VERDICTS[2] : COVERAGE_VERDICTS[1];
}

/** Measured coverage, its 95% bounds and the verdict, one row per named group (all must have bounds). */
export function coverageCheckTable(unit: string, entries: readonly (readonly [string, AccuracyMetrics])[], target: number): string {
  const rows = entries.map(([name, x]) => [name, int(x.n), pct(x.intervalCoverage), coverageBounds(x), coverageVerdict(x, target)]);
  return table([unit, 'n', 'coverage', '95% bounds', 'verdict'], rows, [false, true, true, false, false]);
}

export interface Direction {
  n: number;
  /** Median of estimate / asking price − 1. */
  medianSigned: number;
  above: number;
  above20: number;
  below20: number;
}

/** Over- or under-valuation on held-out listings (a collateral lender fears the first). */
export function direction(rows: readonly Pick<HeldOutRow, 'actual' | 'predicted'>[]): Direction {
  const signed = rows.map((r) => r.predicted / r.actual - 1);
  const share = (f: (x: number) => boolean) => signed.filter(f).length / signed.length;
  return { n: rows.length, medianSigned: median(signed), above: share((x) => x > 0), above20: share((x) => x > 0.2), below20: share((x) => x < -0.2) };
}

/** The direction of the rows of each group, in the order of `groups`; groups without rows are left out. */
export function directionBy<R extends HeldOutRow>(rows: readonly R[], groups: readonly string[], groupOf: (row: R) => string): Map<string, Direction> {
  const byGroup = groupBy(rows, groupOf);
  const out = new Map<string, Direction>();
  for (const g of groups) if (byGroup.get(g)?.length) out.set(g, direction(byGroup.get(g)!));
  return out;
}

export function directionTable(unit: string, entries: readonly (readonly [string, Direction])[]): string {
  const cells = (x: Direction) => [int(x.n), signedPct(x.medianSigned), pct(x.above, 0), pct(x.above20, 0), pct(x.below20, 0)];
  return table([unit, 'n', 'median (estimate ÷ asking − 1)', 'estimate above asking', 'more than 20% above', 'more than 20% below'], entries.map(([name, x]) => [name, ...cells(x)]));
}

/** Accuracy at each confidence level, with each level's share of the valuations. */
/** The band a level's share within ±FSD is held to (issue 32): about 68%, 60–76%. */
export const WITHIN_FSD_BAND = { low: 0.6, high: 0.76 } as const;

/** "honest", "too narrow" (fewer within ±FSD than the band allows, by its bounds) or "too wide". */
export function fsdVerdict(c: ConfidenceLevelAccuracy): string {
  if (!c.withinFsdBounds) return DASH;
  if (c.withinFsdBounds.high < WITHIN_FSD_BAND.low) return 'FSD too small';
  if (c.withinFsdBounds.low > WITHIN_FSD_BAND.high) return 'FSD too large';
  return 'honest';
}

export function confidenceTable(levels: readonly ConfidenceLevelAccuracy[]): string {
  const total = levels.reduce((s, c) => s + c.n, 0);
  const within = (c: ConfidenceLevelAccuracy) => (c.withinFsd === undefined ? DASH : `${pct(c.withinFsd)} (${pct(c.withinFsdBounds!.low)}–${pct(c.withinFsdBounds!.high)})`);
  return table(
    ['confidence (FSD band)', 'n', 'share', 'within ±FSD (95% bounds)', 'verdict (60–76%)', 'median APE', 'PPE10', 'PPE20', 'coverage (90%)'],
    levels.map((c) => [c.level, int(c.n), pct(c.n / total, 0), within(c), fsdVerdict(c), pct(c.medianApe), pct(c.ppe10, 0), pct(c.ppe20, 0), pct(c.coverage)]),
  );
}

/** Whether the median error rises (or stays) from each confidence level to the next lower one, among the levels of at least MIN_CLASS_ROWS valuations (a handful says nothing). */
export function errorsRiseAsConfidenceFalls(levels: readonly ConfidenceLevelAccuracy[]): boolean {
  const measured = levels.filter((c) => c.n >= MIN_CLASS_ROWS);
  return measured.every((c, i) => i === 0 || c.medianApe >= measured[i - 1].medianApe);
}

/** "Does the confidence level sort valuations by error?": `whose` names the class used ("their district's class"). */
export function confidenceSection<R extends HeldOutRow>(rows: readonly R[]): string[] {
  const conf = accuracyByConfidence(rows);
  const ordered = errorsRiseAsConfidenceFalls(conf);
  return [
    '', '### Is the stated confidence honest, and does it sort valuations by error?', '',
    `Held-out listings grouped by the confidence level the service states for them: the band of the FSD their own 90% interval implies (the rule above). A level is honest when about 68% of its prices fall within ±FSD of the estimate; the verdict reads the share's Wilson 95% bounds against ${pct(WITHIN_FSD_BAND.low, 0)}–${pct(WITHIN_FSD_BAND.high, 0)}.`, '',
    confidenceTable(conf),
    '', ordered
      ? 'The median error rises from high to low confidence, as it should.'
      : 'The median error does **not** rise steadily from high to low confidence on this test: the confidence level needs review before it is relied on.',
  ];
}

// ───────────────────────────── figures ─────────────────────────────

export type Spec = Record<string, unknown>;

export const PALETTE = { ours: '#4c78a8', reference: '#e45756', dark: '#222222', good: '#54a24b', band: '#54a24b' } as const;

export const BASE = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  background: 'white',
  padding: 12,
  config: {
    font: 'Helvetica, Arial, sans-serif',
    title: { fontSize: 16, anchor: 'start', subtitleFontSize: 11, subtitleColor: '#555555', offset: 10 },
    axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', gridColor: '#e6e6e6' },
    legend: { labelFontSize: 11, titleFontSize: 11, orient: 'bottom', direction: 'vertical', labelLimit: 400 },
    view: { stroke: '#dddddd' },
  },
};

/** Links a figure from the card, or says why it is missing. */
export function figureLinker<N extends string>(dir: string, titles: Record<N, string>): (figures: readonly N[], name: N, caption: string) => string {
  return (figures, name, caption) => figures.includes(name)
    ? `![${titles[name]}](${dir}/${name}.svg)\n\n*${caption}*`
    : `*(${titles[name]}: not drawn, this version has no evaluation.json with the held-out predictions row by row.)*`;
}

const LADDER = [1, 2, 5];

function niceFloor(x: number): number {
  let best = 1;
  for (let e = 0; e < 9; e++) for (const l of LADDER) if (l * 10 ** e <= x) best = l * 10 ** e;
  return best;
}

function niceCeil(x: number): number {
  for (let e = 0; e < 10; e++) for (const l of LADDER) if (l * 10 ** e >= x) return l * 10 ** e;
  return 10 ** 10;
}

/** The shared log scale of a predicted-vs-actual figure: from a 1-2-5 step below the smallest price to one above the largest. */
export interface LogFrame {
  lo: number;
  hi: number;
  scale: { type: 'log'; domain: [number, number]; nice: false };
  axis(title: string): Spec;
}

export function logFrame(values: Iterable<number>): LogFrame {
  let lo = Infinity;
  let hi = 0;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  lo = niceFloor(lo);
  hi = niceCeil(hi);
  const ticks: number[] = [];
  for (let e = 0; e < 10; e++) for (const l of LADDER) if (l * 10 ** e >= lo && l * 10 ** e <= hi) ticks.push(l * 10 ** e);
  return { lo, hi, scale: { type: 'log', domain: [lo, hi], nice: false }, axis: (title) => ({ title, values: ticks, format: '$,.0f', labelOverlap: true }) };
}

/** The predicted = actual line and the ±20% lines of a predicted-vs-actual figure, with its axes. */
export function identityLines(frame: LogFrame, xTitle: string, yTitle: string): Spec {
  const { lo, hi, scale } = frame;
  const lines = [
    { line: 'predicted = actual', x: lo, y: lo }, { line: 'predicted = actual', x: hi, y: hi },
    { line: '+20%', x: lo, y: lo * 1.2 }, { line: '+20%', x: hi / 1.2, y: hi },
    { line: '−20%', x: lo / 0.8, y: lo }, { line: '−20%', x: hi, y: hi * 0.8 },
  ];
  return {
    data: { values: lines },
    mark: { type: 'line', clip: true, color: PALETTE.dark, strokeWidth: 1.2 },
    encoding: {
      x: { field: 'x', type: 'quantitative', scale, axis: frame.axis(xTitle) },
      y: { field: 'y', type: 'quantitative', scale, axis: frame.axis(yTitle) },
      detail: { field: 'line' },
      strokeDash: { field: 'line', type: 'nominal', scale: { domain: ['predicted = actual', '+20%', '−20%'], range: [[1, 0], [5, 4], [5, 4]] }, legend: null },
    },
  };
}

const MEDIAN_APE = 'median APE, this model';
const MAPE = 'MAPE, this model';

/**
 * Error per group: bars of the median APE, a black tick at the MAPE and, optionally, a diamond per
 * group for a second MAPE (another service's, another protocol's). `order`: the groups top to bottom.
 */
export function errorBarsSpec(options: {
  title: string;
  subtitle: string[];
  yTitle: string;
  rows: readonly { label: string; medianApe: number; mape: number }[];
  order: readonly string[];
  compare?: { measure: string; values: readonly { label: string; value: number }[] };
}): Spec {
  const { rows, compare } = options;
  const bars = rows.map((r) => ({ group: r.label, value: r.medianApe, measure: MEDIAN_APE }));
  const ticks = rows.map((r) => ({ group: r.label, value: r.mape, measure: MAPE }));
  const diamonds = (compare?.values ?? []).map((v) => ({ group: v.label, value: v.value, measure: compare!.measure }));
  const colour = { domain: [MEDIAN_APE, MAPE, ...(compare ? [compare.measure] : [])], range: [PALETTE.ours, PALETTE.dark, ...(compare ? [PALETTE.reference] : [])] };
  const max = Math.max(0.2, ...bars.map((b) => b.value), ...ticks.map((b) => b.value), ...diamonds.map((b) => b.value));
  const y = { field: 'group', type: 'nominal', title: options.yTitle, scale: { domain: options.order }, axis: { labelLimit: 220 } };
  const x = { field: 'value', type: 'quantitative', title: 'Absolute percentage error against the asking price', axis: { format: '.0%', tickCount: 8 }, scale: { domain: [0, Math.ceil(max * 20) / 20] } };
  return {
    ...BASE,
    title: { text: options.title, subtitle: options.subtitle },
    width: 520,
    height: { step: 26 },
    layer: [
      { data: { values: bars }, mark: { type: 'bar', height: { band: 0.7 } }, encoding: { y, x, color: { field: 'measure', type: 'nominal', title: null, scale: colour } } },
      { data: { values: ticks }, mark: { type: 'tick', thickness: 2.5, size: 18 }, encoding: { y, x, color: { field: 'measure', type: 'nominal', scale: colour } } },
      ...(compare ? [{ data: { values: diamonds }, mark: { type: 'point', shape: 'diamond', filled: true, size: 80, opacity: 1 }, encoding: { y, x, color: { field: 'measure', type: 'nominal', scale: colour } } }] : []),
    ],
    resolve: { scale: { color: 'shared' } },
  };
}

/** One bar of a coverage figure: a group's measured coverage with its 95% bounds. */
export function coveragePoint(label: string, x: AccuracyMetrics, target: number): Spec {
  return { group: label, coverage: x.intervalCoverage, low: x.intervalCoverageBounds95?.low ?? x.intervalCoverage, high: x.intervalCoverageBounds95?.high ?? x.intervalCoverage, status: coverageVerdict(x, target) };
}

/** The layers of a coverage figure: the 88–92% band, the bars coloured by verdict, their 95% bounds, the target. */
export function coverageLayers(values: readonly Spec[], target: number, yTitle: string, width = 520): Spec {
  const y = { field: 'group', type: 'nominal', title: yTitle, scale: { domain: values.map((v) => v.group) }, axis: { labelLimit: 220 } };
  const x = { field: 'coverage', type: 'quantitative', title: 'Share of asking prices inside the 90% interval', scale: { domain: [0, 1] }, axis: { format: '.0%', values: [0, 0.2, 0.4, 0.6, 0.8, 0.9, 1] } };
  return {
    width,
    height: { step: 26 },
    layer: [
      {
        data: { values: [{ from: target - 0.02, to: target + 0.02 }] },
        mark: { type: 'rect', color: PALETTE.band, opacity: 0.18 },
        encoding: { x: { field: 'from', type: 'quantitative', scale: { domain: [0, 1] } }, x2: { field: 'to' } },
      },
      {
        data: { values },
        mark: { type: 'bar', height: { band: 0.7 } },
        encoding: {
          y, x,
          color: { field: 'status', type: 'nominal', title: 'Coverage', scale: { domain: COVERAGE_VERDICTS, range: [PALETTE.reference, PALETTE.good, PALETTE.ours] } },
        },
      },
      {
        data: { values },
        mark: { type: 'rule', color: PALETTE.dark, strokeWidth: 1.5 },
        encoding: { y, x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } },
      },
      {
        data: { values },
        mark: { type: 'text', align: 'right', dx: -4, color: 'white', fontSize: 10, fontWeight: 'bold' },
        encoding: { y, x, text: { field: 'coverage', type: 'quantitative', format: '.1%' } },
      },
      {
        data: { values: [{ target }] },
        mark: { type: 'rule', strokeDash: [5, 4], color: PALETTE.dark, strokeWidth: 1.5 },
        encoding: { x: { field: 'target', type: 'quantitative' } },
      },
    ],
  };
}

/** Feature importance as horizontal bars, one bar per model (`series`) and feature; null: the feature is not in that model. */
export function importanceSpec(options: {
  title: string;
  subtitle: string[];
  series: readonly { name: string; colour: string }[];
  rows: readonly { feature: string; values: readonly (number | null)[] }[];
}): Spec {
  const { rows, series } = options;
  const values = rows.flatMap((r) => series.flatMap((s, j) => (r.values[j] !== null ? [{ feature: r.feature, model: s.name, importance: r.values[j] as number }] : [])));
  const names = series.map((s) => s.name);
  const max = Math.max(0.05, ...values.map((v) => v.importance));
  const y = { field: 'feature', type: 'nominal', title: 'Feature', scale: { domain: rows.map((r) => r.feature) }, axis: { labelLimit: 200 } };
  const x = { field: 'importance', type: 'quantitative', title: 'Share of importance', axis: { format: '.0%', tickCount: 8 }, scale: { domain: [0, Math.ceil(max * 20) / 20] } };
  const yOffset = { field: 'model', type: 'nominal', scale: { domain: names } };
  return {
    ...BASE,
    title: { text: options.title, subtitle: options.subtitle },
    width: 520,
    height: rows.length * (17 * series.length),
    layer: [
      {
        data: { values },
        mark: { type: 'bar' },
        encoding: {
          y, x, yOffset,
          color: { field: 'model', type: 'nominal', title: null, scale: { domain: names, range: series.map((s) => s.colour) } },
        },
      },
      {
        data: { values },
        mark: { type: 'text', align: 'left', dx: 3, fontSize: 10, color: '#333333' },
        encoding: { y, x, yOffset, text: { field: 'importance', type: 'quantitative', format: '.1%' } },
      },
    ],
  };
}

function round2(value: string): string {
  return String(Math.round(Number(value) * 100) / 100);
}

export async function renderSvg(spec: Spec, warnings: string[]): Promise<string> {
  const logger = {
    level(): number { return 0; },
    error(...args: unknown[]) { throw new Error(args.map(String).join(' ')); },
    warn(...args: unknown[]) { warnings.push(args.map(String).join(' ')); return this; },
    info() { return this; },
    debug() { return this; },
  };
  const compiled = vl.compile(spec as unknown as vl.TopLevelSpec, { logger: logger as unknown as NonNullable<Parameters<typeof vl.compile>[1]>['logger'] }).spec;
  (vega as unknown as { resetSVGDefIds?: () => void }).resetSVGDefIds?.();
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    // Positions to 1/100 px: smaller files, no visible change.
    const svg = (await view.toSVG()).replace(/translate\((-?[\d.]+),(-?[\d.]+)\)/g, (_, x: string, y: string) => `translate(${round2(x)},${round2(y)})`);
    return svg.endsWith('\n') ? svg : `${svg}\n`;
  } finally {
    view.finalize();
  }
}

/** Why an SVG text would not parse (one <svg> root, balanced tags), or null when it is well formed. */
export function malformedSvg(svg: string): string | null {
  if (!svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')) return 'does not open with an <svg> root';
  if (!svg.trimEnd().endsWith('</svg>')) return 'does not end with </svg>';
  const open: string[] = [];
  for (const [, close, name, selfClosing] of svg.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g)) {
    if (!close) {
      if (!selfClosing) open.push(name);
    } else if (open.pop() !== name) return `</${name}> closes another element`;
  }
  return open.length ? `<${open[open.length - 1]}> is never closed` : null;
}

/** Renders the figures and returns the card. One at a time: vega numbers clip paths with a process-wide counter that is reset before each render. */
export async function renderCard(markdown: (figures: readonly string[]) => string, specs: readonly (readonly [string, Spec])[]): Promise<RenderedCard> {
  const warnings: string[] = [];
  const figures: Record<string, string> = {};
  for (const [name, spec] of specs) {
    figures[name] = await renderSvg(spec, warnings);
    const problem = malformedSvg(figures[name]);
    if (problem) throw new Error(`figure ${name}: the SVG ${problem}`);
  }
  return { markdown: markdown(Object.keys(figures)), figures, warnings };
}

/** Writes <docsDir>/<cardFile> and <docsDir>/<figureDir>/<name>.svg; removes the figures of `figureNames` the card did not draw. */
export function writeCardFiles(card: RenderedCard, docsDir: string, cardFile: string, figureDir: string, figureNames: readonly string[]): { markdown: string; figures: string[] } {
  mkdirSync(join(docsDir, figureDir), { recursive: true });
  const markdownPath = join(docsDir, cardFile);
  writeFileSync(markdownPath, card.markdown);
  // A figure this version cannot draw must not survive from an earlier card.
  for (const name of figureNames) if (!(name in card.figures)) rmSync(join(docsDir, figureDir, `${name}.svg`), { force: true });
  const figurePaths = Object.entries(card.figures).map(([name, svg]) => {
    const path = join(docsDir, figureDir, `${name}.svg`);
    writeFileSync(path, svg);
    return path;
  });
  return { markdown: markdownPath, figures: figurePaths };
}

/** The model-card CLI of any kind: VERSION from the arguments or CURRENT, refused when unknown; writes the card, prints the paths. @returns the exit code */
export async function runCardCli(argv: readonly string[], out: (line: string) => void, kind: {
  versions: readonly string[];
  current: string | null;
  hasEvaluation: (version: string) => boolean;
  /** What the card leaves out without evaluation.json. */
  withoutEvaluation: string;
  write: (version: string) => Promise<{ markdown: string; figures: string[] }>;
}): Promise<number> {
  const version = argv.find((a) => !a.startsWith('-')) ?? kind.current;
  if (!version) {
    out('no version given and no CURRENT version; usage: model-card-cli [VERSION]');
    return 2;
  }
  if (!kind.versions.includes(version)) {
    out(`unknown version ${version}; have: ${kind.versions.join(', ') || 'none'}`);
    return 2;
  }
  if (!kind.hasEvaluation(version)) out(`warning: ${version} has no evaluation.json; ${kind.withoutEvaluation} left out`);
  const written = await kind.write(version);
  for (const path of [written.markdown, ...written.figures]) out(relative(PROJECT_ROOT, path) || path);
  return 0;
}

/** Runs a CLI's main function and sets the exit code; an exception prints and exits 1. */
export function runAsMain(main: () => Promise<number>): void {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}

/** The project's docs folder, where cards are written unless told otherwise. */
export const DOCS_DIR = join(PROJECT_ROOT, 'docs');
