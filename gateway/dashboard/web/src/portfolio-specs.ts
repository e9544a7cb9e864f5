/**
 * The portfolio view's plots (drawn by ./plots.ts): the map of the placed items over the district
 * outlines (a vega spec), the histogram of values and the homes by confidence level (vega-lite).
 * Every mark says what it is (aria-roledescription) and, drawn as SVG, its values (aria-label).
 * No vega import here but types: the specs are plain data.
 */
import type { Spec as VegaSpec } from 'vega';
import type { TopLevelSpec } from 'vega-lite';
import type { DistrictOutlines } from './api';
import { PLOT_CONFIG } from './plot-config';
import { PRECISIONS, type Bin, type MapSite } from './portfolio-data';

export type ColourBy = 'ppm2' | 'composite';
export type ValueMeasure = 'ppm2' | 'estimate';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';
const NO_VALUE = '#9ca3af';
const CONFIDENCE_COLOURS = { domain: ['high', 'medium', 'low'], range: ['#2e7d32', '#f9a825', '#c62828'] };

/** Where to write a district's name: the centre of its largest polygon's outer ring (area-weighted). */
function labelPoint(geometry: unknown): [number, number] | null {
  const polygons = (geometry as { coordinates?: number[][][][] }).coordinates ?? [];
  let best: { area: number; lon: number; lat: number } | null = null;
  for (const polygon of polygons) {
    const ring = polygon[0] ?? [];
    let area = 0;
    let lon = 0;
    let lat = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const cross = ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
      area += cross;
      lon += (ring[j][0] + ring[i][0]) * cross;
      lat += (ring[j][1] + ring[i][1]) * cross;
    }
    if (area !== 0 && (!best || Math.abs(area) > Math.abs(best.area))) best = { area, lon: lon / (3 * area), lat: lat / (3 * area) };
  }
  return best ? [best.lon, best.lat] : null;
}

export interface MapOptions {
  colourBy: ColourBy;
  /** The estimates' currency (for the legend). */
  currency: string;
  /** false for a canvas map: no per-mark descriptions to build, no counts to write. */
  describe: boolean;
}

/** How the page names what a point stands for (result.geocode.precision): "placed at …". */
export const PLACED_AT: Readonly<Record<string, string>> = {
  street: "a street's point",
  quarter: "a quarter's centre",
  mahalla: "a mahalla's centre",
  district: "a district's centre",
};
/** Where a precision the page does not know puts its items. */
const PLACED_ELSEWHERE = 'a point of unknown precision';
export const placedAt = (precision: string) => PLACED_AT[precision] ?? PLACED_ELSEWHERE;

/** A flat-topped hexagon (vega scales a custom path from the square −1…1). */
const HEXAGON = 'M1,0L0.5,0.866L-0.5,0.866L-1,0L-0.5,-0.866L0.5,-0.866Z';
/**
 * One marker shape per precision, and the half-width a count of `w` × `h` pixels needs inside it
 * (vega draws a symbol of size s within a square of side √s).
 */
const MARKERS: Readonly<Record<string, { shape: string; fits: (w: number, h: number) => number }>> = {
  street: { shape: 'circle', fits: (w, h) => Math.hypot(w / 2, h / 2) },
  quarter: { shape: 'square', fits: (w, h) => Math.max(w, h) / 2 },
  mahalla: { shape: 'diamond', fits: (w, h) => (w + h) / 2 },
  district: { shape: HEXAGON, fits: (w, h) => Math.max(w / 2 + 0.577 * (h / 2), h / 2 / 0.866) },
};
const OTHER_MARKER = { shape: 'triangle-up', fits: (w: number, h: number) => w + h };
const markerOf = (precision: string) => MARKERS[precision] ?? OTHER_MARKER;

const COUNT_FONT_SIZE = 10;
/** A bold digit's width at that size, generous (fonts differ). */
const DIGIT_WIDTH = 7;
/** The largest marker's side, in pixels. */
const MAX_SIDE = 48;

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** "items 1, 2 and 3" (numbered from 1), the first few and how many more. */
function itemList(site: MapSite): string {
  const numbers = site.indexes.map((index) => String(index + 1));
  if (site.count > numbers.length) return `items ${numbers.join(', ')} and ${site.count - numbers.length} more`;
  return `items ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/** What a marker says (aria-label): its items, where they were placed and how precisely, their values. */
export function siteDescription(site: MapSite, currency: string): string {
  const where = `at ${placedAt(site.precision)} in ${site.district}${site.mahalla ? `, mahalla ${site.mahalla}` : ''}`;
  const index = site.composite === null ? 'none' : oneDecimal.format(site.composite);
  if (site.count === 1) {
    const value = site.ppm2 === null ? 'no home valued' : `${whole.format(site.ppm2)} ${currency} per m²`;
    return `Item ${site.indexes[0] + 1} ${where}: ${value}, location index ${index}`;
  }
  const homes = `${whole.format(site.valuedHomes)} ${site.valuedHomes === 1 ? 'valued home' : 'valued homes'}`;
  const value = site.ppm2 === null ? 'no home valued' : `mean ${whole.format(site.ppm2)} ${currency} per m² over ${homes}`;
  return `${whole.format(site.count)} items (${itemList(site)}) ${where}: ${value}, location index ${index}`;
}

/** A marker's size (area, px²): grows with the square root of its count, and always holds the count written in it. */
function markerSize(site: MapSite, base: number, counted: boolean): number {
  const grown = Math.min(MAX_SIDE, Math.sqrt(base) * (1 + 0.35 * Math.sqrt(site.count - 1)));
  const digits = String(site.count).length;
  const fitted = counted && site.count > 1 ? 2 * (markerOf(site.precision).fits(digits * DIGIT_WIDTH + 2, COUNT_FONT_SIZE) + 1) : 0;
  return Math.max(grown, fitted) ** 2;
}

/**
 * The points the items were placed at over the 12 district outlines, drawn with vega (not
 * vega-lite: the district names are placed by vega's label transform, off every marker, and left
 * out where no place is free). One marker per point: its shape says how precise the point is (a
 * street's point, a quarter's, mahalla's or district's centre), its size and the count written in
 * it how many items share it; its colour the mean value there, grey where there is none.
 */
export function mapSpec(outlines: DistrictOutlines, sites: readonly MapSite[], options: MapOptions): VegaSpec {
  const field = options.colourBy;
  const base = sites.length <= 500 ? 70 : sites.length <= 5000 ? 24 : 8;
  const present = [...new Set(sites.map((site) => site.precision))].sort((a, b) => rank(a) - rank(b));
  const values = sites.map((site) => site[field]).filter((value): value is number => value !== null);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const rows = sites.map((site) => ({
    lon: site.lon,
    lat: site.lat,
    placedAt: capitalise(placedAt(site.precision)),
    size: markerSize(site, base, options.describe),
    value: site[field],
    count: site.count > 1 ? whole.format(site.count) : '',
    ...(options.describe && { description: siteDescription(site, options.currency) }),
  }));
  const labels = outlines.features
    .map((feature) => ({ name: feature.properties.name, at: labelPoint(feature.geometry) }))
    .filter((label): label is { name: string; at: [number, number] } => label.at !== null)
    .map(({ name, at }) => ({ name, lon: at[0], lat: at[1] }));
  const located = (name: string, rowsOf: unknown[]) => ({
    name,
    values: rowsOf,
    transform: [{ type: 'geopoint' as const, projection: 'projection', fields: ['lon', 'lat'], as: ['x', 'y'] }],
  });
  const font = PLOT_CONFIG.font;
  return {
    $schema: 'https://vega.github.io/schema/vega/v5.json',
    description: `Map of the points the job's items were placed at over the 12 districts of Tashkent, coloured by ${field === 'ppm2' ? 'price per m²' : 'location index'}`,
    width: 560,
    height: 500,
    background: 'white',
    padding: 8,
    autosize: 'pad',
    config: { legend: { ...PLOT_CONFIG.legend, labelFont: font, titleFont: font, titleFontWeight: 'normal' }, text: { font } },
    data: [
      { name: 'outline-data', values: outlines, format: { type: 'json', property: 'features' } },
      located('site-data', rows),
      { name: 'counted-data', source: 'site-data', transform: [{ type: 'filter', expr: "datum.count !== ''" }] },
      located('label-data', labels),
    ],
    projections: [{ name: 'projection', type: 'mercator', size: { signal: '[width, height]' }, fit: { signal: "data('outline-data')" } }],
    scales: [
      { name: 'shape', type: 'ordinal', domain: present.map((precision) => capitalise(placedAt(precision))), range: present.map((precision) => markerOf(precision).shape) },
      ...(values.length > 0
        ? [{ name: 'colour', type: 'linear' as const, domain: [low, high > low ? high : low + 1], zero: false, range: { scheme: field === 'ppm2' ? 'viridis' : 'redyellowgreen' } }]
        : []),
    ],
    legends: [
      ...(values.length > 0
        ? [{ fill: 'colour', type: 'gradient' as const, title: field === 'ppm2' ? `Price per m², ${options.currency}` : 'Location index (0–100)', format: field === 'ppm2' ? ',.0f' : '.0f', direction: 'horizontal', gradientLength: 240, labelOverlap: 'greedy' as const }]
        : []),
      { shape: 'shape', title: 'Placed at', direction: 'horizontal', symbolFillColor: '#6b7280', symbolStrokeColor: 'white', symbolSize: 110, labelLimit: 200 },
    ],
    marks: [
      {
        name: 'districts',
        type: 'shape',
        from: { data: 'outline-data' },
        encode: { update: { fill: { value: '#f3f4f6' }, stroke: { value: '#6b7280' }, strokeWidth: { value: 0.8 }, ariaRoleDescription: { value: 'district' }, description: { field: 'properties.name' } } },
        transform: [{ type: 'geoshape', projection: 'projection' }],
      },
      {
        name: 'sites',
        type: 'symbol',
        from: { data: 'site-data' },
        aria: options.describe,
        encode: {
          update: {
            x: { field: 'x' },
            y: { field: 'y' },
            shape: { scale: 'shape', field: 'placedAt' },
            size: { field: 'size' },
            fill: values.length > 0 ? [{ test: 'isValid(datum.value)', scale: 'colour', field: 'value' }, { value: NO_VALUE }] : { value: NO_VALUE },
            opacity: { value: 0.9 },
            stroke: { value: 'white' },
            strokeWidth: { value: base > 20 ? 0.8 : 0 },
            ariaRoleDescription: { value: 'point' },
            ...(options.describe && { description: { field: 'description' } }),
          },
        },
      },
      // The count of a point's items, written in its marker (sized to hold it).
      ...(options.describe
        ? [{
            name: 'site-counts',
            type: 'text' as const,
            from: { data: 'counted-data' },
            aria: false,
            encode: {
              update: {
                x: { field: 'x' },
                y: { field: 'y' },
                text: { field: 'count' },
                align: { value: 'center' as const },
                baseline: { value: 'middle' as const },
                fontSize: { value: COUNT_FONT_SIZE },
                fontWeight: { value: 'bold' as const },
                fill: { signal: values.length > 0 ? "isValid(datum.value) && luminance(scale('colour', datum.value)) < 0.3 ? 'white' : '#111827'" : "'#111827'" },
              },
            },
          }]
        : []),
      // District names where there is room off the markers (and their counts); none where there is not.
      {
        name: 'district-labels',
        type: 'text',
        from: { data: 'label-data' },
        aria: false,
        encode: { update: { x: { field: 'x' }, y: { field: 'y' }, text: { field: 'name' }, fontSize: { value: 10 }, fill: { value: '#6b7280' } } },
        transform: [{
          type: 'label',
          size: { signal: '[width, height]' },
          avoidMarks: ['sites', ...(options.describe ? ['site-counts'] : [])],
          avoidBaseMark: false,
          anchor: ['middle', 'top', 'bottom', 'left', 'right', 'top', 'bottom', 'left', 'right', 'top-left', 'top-right', 'bottom-left', 'bottom-right'],
          offset: [0, 3, 3, 3, 3, 10, 10, 10, 10, 6, 6, 6, 6],
        }],
      },
    ],
  } as VegaSpec;
}

const rank = (precision: string) => {
  const at = PRECISIONS.indexOf(precision as (typeof PRECISIONS)[number]);
  return at < 0 ? PRECISIONS.length : at;
};
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A count axis: whole numbers only (vega's tickMinStep still lets d3 pick halves on a short domain). */
function countAxis(max: number) {
  return { title: 'Homes', format: 'd', tickMinStep: 1, ...(max <= 8 && { values: Array.from({ length: max + 1 }, (_, i) => i) }) };
}

/** Homes per bin of a value, bars from each bin's start to its end. */
export function histogramSpec(bins: readonly Bin[], measure: ValueMeasure, currency: string): TopLevelSpec {
  const name = measure === 'ppm2' ? `Price per m², ${currency}` : `Estimate, ${currency}`;
  const format = ',.0f';
  return {
    $schema: SCHEMA,
    description: `Histogram of the valued homes by ${measure === 'ppm2' ? 'price per m²' : 'estimate'}`,
    width: 600,
    height: 200,
    background: 'white',
    padding: 8,
    config: PLOT_CONFIG,
    data: { values: bins },
    transform: [{ calculate: `format(datum.start, '${format}') + ' to ' + format(datum.end, '${format}') + ' ${currency.replace(/[^A-Za-z]/g, '')}: ' + datum.count + (datum.count === 1 ? ' home' : ' homes')`, as: 'description' }],
    mark: { type: 'bar', color: '#1f6feb', ariaRoleDescription: 'bar' },
    encoding: {
      x: { field: 'start', type: 'quantitative', bin: { binned: true }, axis: { title: name, format: measure === 'ppm2' ? ',.0f' : '~s', labelOverlap: true } },
      x2: { field: 'end' },
      y: { field: 'count', type: 'quantitative', axis: countAxis(Math.max(0, ...bins.map((b) => b.count))) },
      description: { field: 'description' },
    },
  } as TopLevelSpec;
}

/** Homes per confidence level, high to low. */
export function confidenceSpec(levels: readonly { level: string; count: number }[]): TopLevelSpec {
  const order = levels.map((l) => l.level);
  return {
    $schema: SCHEMA,
    description: 'Valued homes by confidence level',
    width: 600,
    height: { step: 28 },
    background: 'white',
    padding: 8,
    config: PLOT_CONFIG,
    data: { values: levels },
    transform: [{ calculate: "datum.level + ': ' + datum.count + (datum.count === 1 ? ' home' : ' homes')", as: 'description' }],
    mark: { type: 'bar', ariaRoleDescription: 'bar' },
    encoding: {
      y: { field: 'level', type: 'nominal', sort: order, axis: { title: 'Confidence' } },
      x: { field: 'count', type: 'quantitative', axis: countAxis(Math.max(0, ...levels.map((l) => l.count))) },
      color: { field: 'level', type: 'nominal', legend: null, scale: { domain: [...new Set([...CONFIDENCE_COLOURS.domain, ...order])], range: [...CONFIDENCE_COLOURS.range, NO_VALUE, NO_VALUE, NO_VALUE] } },
      description: { field: 'description' },
    },
  } as TopLevelSpec;
}
