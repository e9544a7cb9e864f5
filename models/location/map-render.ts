/**
 * A raster map of Tashkent coloured by the composite location score (./map-cli.ts writes it to
 * docs/location-map.png). The map covers the bounding box of the 12 district polygons with the right
 * aspect ratio at latitude 41.3° (a degree of longitude is cos 41.3° ≈ 0.75 of a degree of latitude);
 * each cell of `cell`×`cell` pixels takes the viridis colour of the composite score at its centre,
 * cells outside every district the background grey. District boundaries are drawn as thin dark lines,
 * metro stations as white dots with a dark outline, and a title and a 0–100 legend are lettered in a
 * built-in 3×5 pixel font. Everything is integer pixel work on fixed inputs: the same artifact and
 * options give the same bytes.
 */
import { PNG } from 'pngjs';
import type { LayersArtifact } from './artifact';
import { LocationIndex, OutsideTashkentError } from './index';

export type Rgb = readonly [number, number, number];

/** Outside every district polygon, and the page behind the title and legend. */
export const BACKGROUND: Rgb = [236, 236, 236];
/** Inside the city but no subindex has data (composite null): never happens with the shipped artifact. */
export const NO_DATA: Rgb = [170, 170, 170];
export const BOUNDARY: Rgb = [25, 25, 25];
export const INK: Rgb = [30, 30, 30];
export const STATION_FILL: Rgb = [255, 255, 255];
export const STATION_OUTLINE: Rgb = [20, 20, 20];

/** The latitude the map's aspect ratio is set for: one degree of longitude is cos(41.3°) of a degree of latitude. */
export const MAP_LATITUDE = 41.3;

/** matplotlib's viridis at 0, 0.1, …, 1 (perceptually uniform, readable in greyscale and by colour-blind readers). */
const VIRIDIS: readonly Rgb[] = [
  [68, 1, 84], [72, 36, 117], [65, 68, 135], [53, 95, 141], [42, 120, 142], [33, 145, 140],
  [34, 168, 132], [68, 191, 112], [122, 209, 81], [189, 223, 38], [253, 231, 37],
];

/** The colour of a 0–100 score: viridis stops, linearly interpolated, rounded to integers. */
export function colourOf(score: number): Rgb {
  const t = Math.min(1, Math.max(0, score / 100)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(t));
  const f = t - i;
  const [a, b] = [VIRIDIS[i], VIRIDIS[i + 1]];
  const mix = (c: number) => Math.round(a[c] + (b[c] - a[c]) * f);
  return [mix(0), mix(1), mix(2)];
}

/** The score (to 0.1) whose colour is nearest to `rgb`, and how far that colour is (Euclidean RGB): the legend read backwards. */
export function scoreOfColour(rgb: Rgb): { score: number; distance: number } {
  let best = { score: 0, distance: Infinity };
  for (let tenth = 0; tenth <= 1000; tenth++) {
    const c = colourOf(tenth / 10);
    const distance = Math.hypot(c[0] - rgb[0], c[1] - rgb[1], c[2] - rgb[2]);
    if (distance < best.distance) best = { score: tenth / 10, distance };
  }
  return best;
}

/** 3×5 glyphs, rows top to bottom. Lower case is drawn as upper case; a character not here throws. */
const FONT: Readonly<Record<string, readonly string[]>> = {
  '0': ['111', '101', '101', '101', '111'], '1': ['010', '110', '010', '010', '111'],
  '2': ['111', '001', '111', '100', '111'], '3': ['111', '001', '111', '001', '111'],
  '4': ['101', '101', '111', '001', '001'], '5': ['111', '100', '111', '001', '111'],
  '6': ['111', '100', '111', '101', '111'], '7': ['111', '001', '001', '010', '010'],
  '8': ['111', '101', '111', '101', '111'], '9': ['111', '101', '111', '001', '111'],
  A: ['010', '101', '111', '101', '101'], B: ['110', '101', '110', '101', '110'],
  C: ['011', '100', '100', '100', '011'], D: ['110', '101', '101', '101', '110'],
  E: ['111', '100', '110', '100', '111'], F: ['111', '100', '110', '100', '100'],
  G: ['011', '100', '101', '101', '011'], H: ['101', '101', '111', '101', '101'],
  I: ['111', '010', '010', '010', '111'], J: ['001', '001', '001', '101', '010'],
  K: ['101', '101', '110', '101', '101'], L: ['100', '100', '100', '100', '111'],
  M: ['101', '111', '111', '101', '101'], N: ['110', '101', '101', '101', '101'],
  O: ['010', '101', '101', '101', '010'], P: ['110', '101', '110', '100', '100'],
  Q: ['010', '101', '101', '110', '011'], R: ['110', '101', '110', '101', '101'],
  S: ['011', '100', '010', '001', '110'], T: ['111', '010', '010', '010', '010'],
  U: ['101', '101', '101', '101', '111'], V: ['101', '101', '101', '101', '010'],
  W: ['101', '101', '111', '111', '101'], X: ['101', '101', '010', '101', '101'],
  Y: ['101', '101', '010', '010', '010'], Z: ['111', '001', '010', '100', '111'],
  ' ': ['000', '000', '000', '000', '000'], '-': ['000', '000', '111', '000', '000'],
  '.': ['000', '000', '000', '000', '010'], ',': ['000', '000', '000', '010', '100'],
  ':': ['000', '010', '000', '010', '000'], '(': ['001', '010', '010', '010', '001'],
  ')': ['100', '010', '010', '010', '100'], '/': ['001', '001', '010', '100', '100'],
};

/** Width in pixels of `text` at `scale` (3 px per glyph and 1 px between glyphs, times the scale). */
export const textWidth = (text: string, scale: number): number => (text.length === 0 ? 0 : (text.length * 4 - 1) * scale);

export interface MapOptions {
  /** Image width in pixels (default 900); the height follows from the city's aspect ratio. */
  width?: number;
  /** Cell side in pixels: each cell is coloured by the score at its centre (default 3). */
  cell?: number;
  /** Points per scoreMany call (default 4096). */
  chunk?: number;
}

export interface MapLayout {
  width: number;
  height: number;
  /** The map area inside the image. */
  mapX: number;
  mapY: number;
  mapWidth: number;
  mapHeight: number;
  /** The geographic box the map area shows: the districts' bounding box with a small margin. */
  box: { minLat: number; maxLat: number; minLon: number; maxLon: number };
  /** Size of the lettering: 3×5 glyphs times this. */
  textScale: number;
}

export interface RenderedMap {
  png: Buffer;
  layout: MapLayout;
  /** Cells scored, cells outside the city, lowest and highest composite drawn. */
  stats: { cells: number; scored: number; outside: number; min: number; max: number };
}

/** The image pixel (column, row) holding a coordinate. May fall outside the map area. */
export function pixelOf(layout: MapLayout, lat: number, lon: number): { x: number; y: number } {
  const { box, mapX, mapY, mapWidth, mapHeight } = layout;
  return {
    x: mapX + Math.floor(((lon - box.minLon) / (box.maxLon - box.minLon)) * mapWidth),
    y: mapY + Math.floor(((box.maxLat - lat) / (box.maxLat - box.minLat)) * mapHeight),
  };
}

/** The coordinate at a fractional position of the map area (0,0 = top-left corner of the map area). */
function coordinateAt(layout: MapLayout, px: number, py: number): { lat: number; lon: number } {
  const { box, mapWidth, mapHeight } = layout;
  return {
    lon: box.minLon + (px / mapWidth) * (box.maxLon - box.minLon),
    lat: box.maxLat - (py / mapHeight) * (box.maxLat - box.minLat),
  };
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

/** The longest title that fits the width is used. */
const TITLES = ['TASHKENT: COMPOSITE LOCATION SCORE', 'TASHKENT: LOCATION SCORE', 'LOCATION SCORE'] as const;
const SUBTITLE = 'WHITE DOTS: METRO STATIONS. LINES: DISTRICTS. GREY: OUTSIDE THE CITY.';
const TICKS = [0, 25, 50, 75, 100] as const;

export function mapLayout(artifact: LayersArtifact, options: MapOptions = {}): MapLayout {
  const width = options.width ?? 900;
  if (!Number.isInteger(width) || width < 60) throw new Error(`map width must be an integer of at least 60 px, not ${width}`);
  const textScale = Math.max(1, Math.floor(width / 300));
  const pad = 3 * textScale;
  const districts = districtBox(artifact);
  const marginLat = (districts.maxLat - districts.minLat) * 0.02;
  const marginLon = (districts.maxLon - districts.minLon) * 0.02;
  const box = { minLat: districts.minLat - marginLat, maxLat: districts.maxLat + marginLat, minLon: districts.minLon - marginLon, maxLon: districts.maxLon + marginLon };
  const mapWidth = width - 2 * pad;
  const cosLat = Math.cos((MAP_LATITUDE * Math.PI) / 180);
  const mapHeight = Math.round((mapWidth * (box.maxLat - box.minLat)) / ((box.maxLon - box.minLon) * cosLat));
  const titleHeight = titleLines(width, textScale).length * 7 * textScale + pad;
  const legendHeight = pad + legendBarHeight(textScale) + 2 * textScale + 7 * textScale + pad;
  return { width, height: titleHeight + mapHeight + legendHeight, mapX: pad, mapY: titleHeight, mapWidth, mapHeight, box, textScale };
}

/** The title, and the subtitle when it fits the width. */
function titleLines(width: number, scale: number): string[] {
  const room = width - 6 * scale;
  const lines: string[] = [TITLES.find((title) => textWidth(title, scale) <= room) ?? TITLES[TITLES.length - 1]];
  if (textWidth(SUBTITLE, Math.max(1, scale - 1)) <= room) lines.push(SUBTITLE);
  return lines;
}

const legendBarHeight = (scale: number): number => 4 * scale;

/** An RGBA canvas with the few drawing operations the map needs. */
class Canvas {
  readonly data: Buffer;

  constructor(readonly width: number, readonly height: number, fill: Rgb) {
    this.data = Buffer.alloc(width * height * 4);
    for (let i = 0; i < width * height; i++) this.data.set([fill[0], fill[1], fill[2], 255], i * 4);
  }

  set(x: number, y: number, [r, g, b]: Rgb, clip?: MapLayout): void {
    if (clip !== undefined && (x < clip.mapX || y < clip.mapY || x >= clip.mapX + clip.mapWidth || y >= clip.mapY + clip.mapHeight)) return;
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.data[i] = r; this.data[i + 1] = g; this.data[i + 2] = b; this.data[i + 3] = 255;
  }

  rect(x: number, y: number, w: number, h: number, colour: Rgb): void {
    for (let dy = 0; dy < h; dy++) for (let dx = 0; dx < w; dx++) this.set(x + dx, y + dy, colour);
  }

  /** Bresenham between two pixels. */
  line(x0: number, y0: number, x1: number, y1: number, colour: Rgb, clip: MapLayout): void {
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    for (;;) {
      this.set(x0, y0, colour, clip);
      if (x0 === x1 && y0 === y1) return;
      const e2 = 2 * err;
      if (e2 >= dy) { err += dy; x0 += sx; }
      if (e2 <= dx) { err += dx; y0 += sy; }
    }
  }

  /** A filled disc of radius r (pixel centres within r of the centre pixel's centre) with a 1-px outline. */
  dot(cx: number, cy: number, r: number, fill: Rgb, outline: Rgb, clip?: MapLayout): void {
    const outer = r + 1;
    for (let dy = -Math.ceil(outer); dy <= Math.ceil(outer); dy++) {
      for (let dx = -Math.ceil(outer); dx <= Math.ceil(outer); dx++) {
        const d2 = dx * dx + dy * dy;
        if (d2 <= r * r) this.set(cx + dx, cy + dy, fill, clip);
        else if (d2 <= outer * outer) this.set(cx + dx, cy + dy, outline, clip);
      }
    }
  }

  text(x: number, y: number, text: string, scale: number, colour: Rgb): void {
    [...text.toUpperCase()].forEach((char, k) => {
      const glyph = FONT[char];
      if (glyph === undefined) throw new Error(`no glyph for ${JSON.stringify(char)} in the map font`);
      glyph.forEach((row, gy) => {
        for (let gx = 0; gx < 3; gx++) if (row[gx] === '1') this.rect(x + (k * 4 + gx) * scale, y + gy * scale, scale, scale, colour);
      });
    });
  }
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

/** Renders the map: the PNG bytes, where the map sits in the image, and what was drawn. */
export function renderLocationMap(index: LocationIndex, artifact: LayersArtifact, options: MapOptions = {}): RenderedMap {
  const cell = options.cell ?? 3;
  if (!Number.isInteger(cell) || cell < 1) throw new Error(`cell must be a positive integer, not ${cell}`);
  const layout = mapLayout(artifact, options);
  const { width, height, mapX, mapY, mapWidth, mapHeight, textScale: s } = layout;
  const canvas = new Canvas(width, height, BACKGROUND);

  // Score raster: one point per cell centre; the last row and column of cells may be clipped by the map edge.
  const columns = Math.ceil(mapWidth / cell);
  const rows = Math.ceil(mapHeight / cell);
  const inside: { lat: number; lon: number }[] = [];
  const cellOf: number[] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const px = Math.min(column * cell + cell / 2, mapWidth - 0.5);
      const py = Math.min(row * cell + cell / 2, mapHeight - 0.5);
      const point = coordinateAt(layout, px, py);
      if (index.districtOf(point.lat, point.lon) === null) continue;
      inside.push(point);
      cellOf.push(row * columns + column);
    }
  }
  const scores = compositeScores(index, inside, options.chunk);
  let [min, max] = [Infinity, -Infinity];
  scores.forEach((score, k) => {
    const colour = score === null ? NO_DATA : colourOf(score);
    if (score !== null) { min = Math.min(min, score); max = Math.max(max, score); }
    const row = Math.floor(cellOf[k] / columns);
    const column = cellOf[k] % columns;
    for (let dy = 0; dy < cell; dy++) {
      for (let dx = 0; dx < cell; dx++) canvas.set(mapX + column * cell + dx, mapY + row * cell + dy, colour, layout);
    }
  });

  // District boundaries: every ring edge, rasterised.
  for (const district of artifact.districts.districts) {
    for (const polygon of district.polygons) {
      for (const ring of polygon) {
        for (let i = 0; i + 3 < ring.length; i += 2) {
          const a = pixelOf(layout, ring[i + 1], ring[i]);
          const b = pixelOf(layout, ring[i + 3], ring[i + 2]);
          canvas.line(a.x, a.y, b.x, b.y, BOUNDARY, layout);
        }
      }
    }
  }

  // Metro stations, in the artifact's order (a fixed order keeps overlapping dots deterministic).
  const radius = Math.max(1, Math.round(width / 300));
  for (const [lon, lat] of artifact.points.metro_station ?? []) {
    const { x, y } = pixelOf(layout, lat, lon);
    canvas.dot(x, y, radius, STATION_FILL, STATION_OUTLINE, layout);
  }

  // Title (and subtitle when it fits).
  const lines = titleLines(width, s);
  canvas.text(mapX, 3 * s, lines[0], s, INK);
  if (lines.length > 1) canvas.text(mapX, 3 * s + 7 * s, lines[1], Math.max(1, s - 1), INK);

  // Legend: a 0–100 gradient bar with ticks and numbers, then a station symbol when there is room.
  const barY = mapY + mapHeight + 3 * s;
  const barHeight = legendBarHeight(s);
  const barX = mapX + textWidth('0', s); // room for the "0" centred under the first tick
  const barWidth = Math.min(Math.round(mapWidth * 0.55), mapWidth - 2 * textWidth('100', s));
  for (let dx = 0; dx < barWidth; dx++) {
    const colour = colourOf((100 * dx) / (barWidth - 1));
    for (let dy = 0; dy < barHeight; dy++) canvas.set(barX + dx, barY + dy, colour);
  }
  for (const tick of TICKS) {
    const x = barX + Math.round(((barWidth - 1) * tick) / 100);
    canvas.rect(x, barY + barHeight, Math.max(1, Math.floor(s / 2)), 2 * s, INK);
    const label = String(tick);
    canvas.text(x - Math.floor(textWidth(label, s) / 2), barY + barHeight + 3 * s, label, s, INK);
  }
  const key = 'METRO STATION';
  const keyX = barX + barWidth + textWidth('100', s) + 6 * s;
  if (keyX + 2 * radius + 4 * s + textWidth(key, s) <= width - mapX) {
    const keyY = barY + Math.floor(barHeight / 2);
    canvas.dot(keyX + radius, keyY, radius, STATION_FILL, STATION_OUTLINE);
    canvas.text(keyX + 2 * radius + 4 * s, keyY - Math.floor((5 * s) / 2), key, s, INK);
  }

  const png = new PNG({ width, height });
  canvas.data.copy(png.data);
  const bytes = PNG.sync.write(png, { colorType: 2, inputHasAlpha: true, deflateLevel: 9 });
  return {
    png: bytes,
    layout,
    stats: { cells: rows * columns, scored: scores.filter((v) => v !== null).length, outside: rows * columns - inside.length, min, max },
  };
}
