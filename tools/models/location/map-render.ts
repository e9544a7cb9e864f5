/**
 * The location map: Tashkent coloured by the composite location score, as a vega-lite spec rendered
 * to SVG by vega's headless renderer, the same way as the model cards' figures (tools/cards/card-kit.ts).
 * tools/models/location/map-cli.ts writes it to docs/location-map.svg.
 *
 * The map shows the bounding box of the 12 district polygons (with a 2% margin) to scale at latitude
 * 41.3° (a degree of longitude is cos 41.3° ≈ 0.75 of a degree of latitude), cut into square cells of
 * `cell` pixels. Each cell whose centre lies in a district is a rect coloured by the composite score
 * at that centre on vega's viridis scale (0–100); outside every district the grey background shows.
 * District boundaries are line marks drawn from the artifact's polygons, metro stations white points;
 * vega-lite lays out the title, the gradient legend and the station key. Nothing reads a clock or a
 * random source: the same artifact and options give the same SVG.
 */
import { BASE, malformedSvg, renderSvg, type Spec } from '../../cards/card-kit';
import type { LayersArtifact } from '../../../models/location/artifact';
import { LocationIndex, OutsideTashkentError } from '../../../models/location/index';

/** The latitude the map's aspect ratio is set for: one degree of longitude is cos(41.3°) of a degree of latitude. */
export const MAP_LATITUDE = 41.3;

/** Outside every district polygon (the view's background). */
export const BACKGROUND = '#ececec';
/** A cell in the city where no subindex has data (composite null): never happens with the shipped artifact. */
export const NO_DATA = '#aaaaaa';
export const BOUNDARY = '#191919';
export const STATION_OUTLINE = '#141414';

export interface MapOptions {
  /** Width of the map area in pixels (default 720), rounded to whole cells; the height follows from the city's shape. */
  width?: number;
  /** Cell side in pixels: each cell is coloured by the score at its centre (default 6). */
  cell?: number;
  /** Points per scoreMany call (default 4096). */
  chunk?: number;
}

export interface MapLayout {
  /** The map area (vega-lite's view) in pixels: columns × cell by rows × cell. */
  width: number;
  height: number;
  cell: number;
  columns: number;
  rows: number;
  /** The geographic box the map area shows: the districts' bounding box with a small margin, its latitude span stretched to whole rows. */
  box: { minLat: number; maxLat: number; minLon: number; maxLon: number };
}

/** One cell of the grid inside the city: its edges, its centre and the composite score there. */
export interface MapCell {
  west: number;
  east: number;
  south: number;
  north: number;
  lat: number;
  lon: number;
  score: number | null;
}

export interface RenderedMap {
  svg: string;
  /** The vega-lite spec the SVG was rendered from. */
  spec: Spec;
  layout: MapLayout;
  /** The cells drawn, row by row from the north-west corner. */
  cells: MapCell[];
  /** Cells in the grid, cells scored, cells outside the city, lowest and highest composite drawn. */
  stats: { cells: number; scored: number; outside: number; min: number; max: number };
  /** vega-lite warnings met while compiling the spec (none expected). */
  warnings: string[];
}

/** The districts' bounding box, from the artifact's flattened rings [lon, lat, lon, lat, …]. */
function districtBox(artifact: LayersArtifact): MapLayout['box'] {
  let [minLat, maxLat, minLon, maxLon] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const district of artifact.districts.districts) {
    for (const polygon of district.polygons) {
      for (const ring of polygon) {
        for (let i = 0; i + 1 < ring.length; i += 2) {
          minLon = Math.min(minLon, ring[i]); maxLon = Math.max(maxLon, ring[i]);
          minLat = Math.min(minLat, ring[i + 1]); maxLat = Math.max(maxLat, ring[i + 1]);
        }
      }
    }
  }
  return { minLat, maxLat, minLon, maxLon };
}

function positiveInteger(value: number, name: string, least = 1): number {
  if (!Number.isInteger(value) || value < least) throw new Error(`map ${name} must be an integer of at least ${least} px, not ${value}`);
  return value;
}

export function mapLayout(artifact: LayersArtifact, options: MapOptions = {}): MapLayout {
  const cell = positiveInteger(options.cell ?? 6, 'cell');
  const columns = Math.max(1, Math.round(positiveInteger(options.width ?? 720, 'width', 60) / cell));
  const width = columns * cell;
  const districts = districtBox(artifact);
  const marginLat = (districts.maxLat - districts.minLat) * 0.02;
  const marginLon = (districts.maxLon - districts.minLon) * 0.02;
  const [minLon, maxLon] = [districts.minLon - marginLon, districts.maxLon + marginLon];
  const cosLat = Math.cos((MAP_LATITUDE * Math.PI) / 180);
  const degreesPerPixel = (maxLon - minLon) / width; // of longitude; a pixel spans degreesPerPixel × cos(41.3°) of latitude
  const rows = Math.ceil((districts.maxLat - districts.minLat + 2 * marginLat) / (degreesPerPixel * cosLat * cell));
  const height = rows * cell;
  const midLat = (districts.minLat + districts.maxLat) / 2;
  const halfSpan = (height * degreesPerPixel * cosLat) / 2;
  return { width, height, cell, columns, rows, box: { minLat: midLat - halfSpan, maxLat: midLat + halfSpan, minLon, maxLon } };
}

/** The grid cell (column, row from the north-west corner) holding a coordinate, or null outside the map. */
export function cellOf(layout: MapLayout, lat: number, lon: number): { column: number; row: number } | null {
  const { box, columns, rows } = layout;
  const column = Math.floor(((lon - box.minLon) / (box.maxLon - box.minLon)) * columns);
  const row = Math.floor(((box.maxLat - lat) / (box.maxLat - box.minLat)) * rows);
  return column >= 0 && column < columns && row >= 0 && row < rows ? { column, row } : null;
}

/**
 * Composite scores at the given points, null where no district holds the point (or no subindex has
 * data). Points go to scoreMany in chunks; scoreMany throws OutsideTashkentError at the first point no
 * polygon holds, with that point's position in `index`: the point is marked outside and the rest of
 * the chunk is scored again from the next point. Callers filter with districtOf first, so this is
 * a fallback that keeps one odd point from stopping the render.
 */
export function compositeScores(index: LocationIndex, points: readonly { lat: number; lon: number }[], chunk = 4096): (number | null)[] {
  const scores: (number | null)[] = new Array(points.length).fill(null);
  let start = 0;
  while (start < points.length) {
    const end = Math.min(points.length, start + chunk);
    try {
      index.scoreMany(points.slice(start, end)).forEach((s, k) => { scores[start + k] = s.composite.score; });
      start = end;
    } catch (error) {
      if (!(error instanceof OutsideTashkentError) || error.index === undefined) throw error;
      const bad = start + error.index;
      if (bad > start) index.scoreMany(points.slice(start, bad)).forEach((s, k) => { scores[start + k] = s.composite.score; });
      scores[bad] = null;
      start = bad + 1;
    }
  }
  return scores;
}

/** The cells whose centre lies in a district, scored; row by row from the north-west corner. */
export function mapCells(index: LocationIndex, layout: MapLayout, chunk?: number): MapCell[] {
  const { box, columns, rows } = layout;
  const lonStep = (box.maxLon - box.minLon) / columns;
  const latStep = (box.maxLat - box.minLat) / rows;
  const cells: Omit<MapCell, 'score'>[] = [];
  for (let row = 0; row < rows; row++) {
    const north = box.maxLat - row * latStep;
    const south = box.maxLat - (row + 1) * latStep;
    for (let column = 0; column < columns; column++) {
      const west = box.minLon + column * lonStep;
      const east = box.minLon + (column + 1) * lonStep;
      const centre = { lat: (north + south) / 2, lon: (west + east) / 2 };
      if (index.districtOf(centre.lat, centre.lon) !== null) cells.push({ west, east, south, north, ...centre });
    }
  }
  const scores = compositeScores(index, cells, chunk);
  return cells.map((cell, k) => ({ ...cell, score: scores[k] }));
}

export const TITLE = 'Tashkent: composite location score';
/** Two short lines: without a canvas vega estimates text at 0.8 em a character, and one long line would widen the SVG. */
export const SUBTITLE = ['Each cell takes the colour of the composite score at its centre.', 'Lines: district boundaries. Grey: outside the 12 districts.'];
export const SCORE_LEGEND = 'Composite score (0–100)';
export const STATION_KEY = 'Metro station';

/** The vega-lite spec of the map: cells, district boundaries and metro stations on one lon/lat view. */
export function locationMapSpec(artifact: LayersArtifact, layout: MapLayout, cells: readonly MapCell[]): Spec {
  const { box, width, height } = layout;
  const lon = { field: 'lon', type: 'quantitative', scale: { domain: [box.minLon, box.maxLon], nice: false, zero: false }, axis: null };
  const lat = { field: 'lat', type: 'quantitative', scale: { domain: [box.minLat, box.maxLat], nice: false, zero: false }, axis: null };
  const rings = artifact.districts.districts.flatMap((district) => district.polygons.flatMap((polygon, p) => polygon.map((ring, r) => ({ id: `${district.id}/${p}/${r}`, ring }))));
  const boundaryPoints = rings.flatMap(({ id, ring }) => Array.from({ length: ring.length >> 1 }, (_, k) => ({ ring: id, k, lon: ring[2 * k], lat: ring[2 * k + 1] })));
  const stations = (artifact.points.metro_station ?? []).map(([lon, lat]) => ({ lon, lat }));
  const scored = cells.filter((c) => c.score !== null);
  const unscored = cells.filter((c) => c.score === null);
  const cellEncoding = { x: { ...lon, field: 'west' }, x2: { field: 'east' }, y: { ...lat, field: 'south' }, y2: { field: 'north' } };
  const dot = Math.max(12, Math.round((width / 720) ** 2 * 30));
  return {
    ...BASE,
    config: {
      ...BASE.config,
      view: { fill: BACKGROUND, stroke: null },
      legend: { ...BASE.config.legend, direction: 'horizontal', gradientLength: Math.round(width * 0.5), gradientThickness: 12, titleLimit: 400 },
    },
    title: { text: TITLE, subtitle: SUBTITLE },
    width,
    height,
    layer: [
      {
        data: { values: scored.map(({ west, east, south, north, score }) => ({ west, east, south, north, score })) },
        mark: { type: 'rect', clip: true, aria: false },
        encoding: {
          ...cellEncoding,
          color: {
            field: 'score', type: 'quantitative', title: SCORE_LEGEND,
            scale: { scheme: 'viridis', domain: [0, 100] },
            legend: { values: [0, 25, 50, 75, 100], orient: 'bottom' },
          },
        },
      },
      {
        data: { values: unscored.map(({ west, east, south, north }) => ({ west, east, south, north })) },
        mark: { type: 'rect', clip: true, aria: false, color: NO_DATA },
        encoding: cellEncoding,
      },
      {
        data: { values: boundaryPoints },
        mark: { type: 'line', stroke: BOUNDARY, strokeWidth: 0.8, strokeJoin: 'round', clip: true },
        encoding: { x: lon, y: lat, detail: { field: 'ring', type: 'nominal' }, order: { field: 'k', type: 'quantitative' } },
      },
      {
        data: { values: stations },
        mark: { type: 'point', shape: 'circle', filled: true, fill: 'white', stroke: STATION_OUTLINE, strokeWidth: 1, opacity: 1, size: dot, clip: true },
        encoding: {
          x: lon,
          y: lat,
          shape: {
            datum: STATION_KEY, type: 'nominal', scale: { range: ['circle'] }, legend: {
              title: null, orient: 'bottom', symbolSize: dot,
              encode: { symbols: { update: { fill: { value: 'white' }, stroke: { value: STATION_OUTLINE }, strokeWidth: { value: 1 } } } },
            },
          },
        },
      },
    ],
  };
}

/** Path coordinates to 1/100 px: the cell edges come out of the lon/lat scales as 236.00000000000276 and the like. */
const roundPathData = (svg: string): string =>
  svg.replace(/ d="([^"]*)"/g, (_, d: string) => ` d="${d.replace(/-?\d+\.\d{3,}/g, (n) => String(Math.round(Number(n) * 100) / 100))}"`);

/** Renders the map: the SVG, the spec behind it, where the map sits and what was drawn. */
export async function renderLocationMap(index: LocationIndex, artifact: LayersArtifact, options: MapOptions = {}): Promise<RenderedMap> {
  const layout = mapLayout(artifact, options);
  const cells = mapCells(index, layout, options.chunk);
  const spec = locationMapSpec(artifact, layout, cells);
  const warnings: string[] = [];
  const svg = roundPathData(await renderSvg(spec, warnings));
  const problem = malformedSvg(svg);
  if (problem) throw new Error(`location map: the SVG ${problem}`);
  let [scored, min, max] = [0, Infinity, -Infinity];
  for (const { score } of cells) {
    if (score === null) continue;
    scored++;
    min = Math.min(min, score);
    max = Math.max(max, score);
  }
  const total = layout.columns * layout.rows;
  return { svg, spec, layout, cells, warnings, stats: { cells: total, scored, outside: total - cells.length, min, max } };
}
