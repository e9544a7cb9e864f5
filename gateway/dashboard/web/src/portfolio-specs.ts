/**
 * The portfolio view's plots as vega-lite specs (drawn by ./plots.ts): the map of the placed items
 * over the district outlines, the histogram of values and the homes by confidence level. Every
 * mark says what it is (aria-roledescription) and, drawn as SVG, its values (aria-label).
 * No vega import here: the specs are plain data.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { DistrictOutlines } from './api';
import { PLOT_CONFIG } from './plot-config';
import type { Bin, MapPoint } from './portfolio-data';

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
  /** false for a canvas map: no per-mark descriptions to build. */
  describe: boolean;
}

/** The placed items as circles over the 12 district outlines; items without the colouring value are grey. */
export function mapSpec(outlines: DistrictOutlines, points: readonly MapPoint[], options: MapOptions): TopLevelSpec {
  const field = options.colourBy;
  const size = points.length <= 500 ? 70 : points.length <= 5000 ? 24 : 8;
  const labels = outlines.features
    .map((feature) => ({ name: feature.properties.name, at: labelPoint(feature.geometry) }))
    .filter((label): label is { name: string; at: [number, number] } => label.at !== null)
    .map(({ name, at }) => ({ name, lon: at[0], lat: at[1] }));
  const description =
    "'Item ' + datum.index + ', ' + datum.district + ': ' + " +
    "(isValid(datum.ppm2) ? format(datum.ppm2, ',.0f') + ' " + options.currency.replace(/[^A-Za-z]/g, '') + " per m²' : 'no home valued') + " +
    "', location index ' + (isValid(datum.composite) ? format(datum.composite, '.1f') : 'none')";
  const pointLayer = (valued: boolean) => ({
    data: { name: valued ? 'valued' : 'unvalued', values: points },
    transform: [
      { filter: valued ? `isValid(datum.${field})` : `!isValid(datum.${field})` },
      ...(options.describe ? [{ calculate: description, as: 'description' }] : []),
    ],
    mark: { type: 'circle', size, opacity: 0.85, stroke: 'white', strokeWidth: size > 20 ? 0.8 : 0, ariaRoleDescription: 'point', aria: options.describe },
    encoding: {
      longitude: { field: 'lon', type: 'quantitative' },
      latitude: { field: 'lat', type: 'quantitative' },
      ...(options.describe && { description: { field: 'description' } }),
      ...(valued
        ? {
            color: {
              field,
              type: 'quantitative',
              title: field === 'ppm2' ? `Price per m², ${options.currency}` : 'Location index (0–100)',
              scale: { scheme: field === 'ppm2' ? 'viridis' : 'redyellowgreen', zero: false },
              legend: { format: field === 'ppm2' ? ',.0f' : '.0f', gradientLength: 240, labelOverlap: 'greedy' },
            },
          }
        : { color: { value: NO_VALUE } }),
    },
  });
  return {
    $schema: SCHEMA,
    description: `Map of the job's placed items over the 12 districts of Tashkent, coloured by ${field === 'ppm2' ? 'price per m²' : 'location index'}`,
    width: 560,
    height: 500,
    background: 'white',
    padding: 8,
    config: { ...PLOT_CONFIG, view: { stroke: null } },
    projection: { type: 'mercator' },
    layer: [
      {
        data: { values: outlines, format: { type: 'json', property: 'features' } },
        mark: { type: 'geoshape', fill: '#f3f4f6', stroke: '#6b7280', strokeWidth: 0.8, ariaRoleDescription: 'district' },
        encoding: { description: { field: 'properties.name' } },
      },
      {
        data: { values: labels },
        mark: { type: 'text', fontSize: 10, color: '#6b7280', ariaRoleDescription: 'district name', aria: false },
        encoding: { longitude: { field: 'lon', type: 'quantitative' }, latitude: { field: 'lat', type: 'quantitative' }, text: { field: 'name' } },
      },
      pointLayer(false),
      pointLayer(true),
    ],
  } as TopLevelSpec;
}

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
