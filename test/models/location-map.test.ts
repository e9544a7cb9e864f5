/** The location map (tools/models/location/map-render.ts): a vega-lite spec rendered to SVG; deterministic, to scale, each cell coloured by its score. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vega from 'vega';
import { malformedSvg } from '../../tools/cards/card-kit';
import { CITY_CENTRE, LocationIndex } from '../../models/location';
import { readArtifact, type LayersArtifact } from '../../models/location/artifact';
import {
  BACKGROUND, cellOf, compositeScores, MAP_LATITUDE, mapLayout, renderLocationMap, SCORE_LEGEND, STATION_KEY, TITLE, type MapCell, type RenderedMap,
} from '../../tools/models/location/map-render';
import { PROJECT_ROOT } from '../../models/paths';

const SERGELI_SOUTH_EDGE = { lat: 41.2, lon: 69.26 };
const SAMARKAND = { lat: 39.6542, lon: 66.9597 };

let artifact: LayersArtifact;
let index: LocationIndex;
let map: RenderedMap;
beforeAll(async () => {
  artifact = readArtifact();
  index = LocationIndex.fromArtifact(artifact);
  map = await renderLocationMap(index, artifact, { width: 180, cell: 3 });
});

/** The inside of the first <g> whose class starts with `mark`: a mark's items. */
function markGroup(svg: string, mark: string): string {
  const found = svg.match(new RegExp(`<g class="${mark}"[^>]*>(.*?)</g>`));
  if (found === null) throw new Error(`no <g class="${mark}"> in the SVG`);
  return found[1];
}

const rgb = (colour: string): number[] => {
  const parts = colour.match(/^rgb\((\d+), (\d+), (\d+)\)$/);
  if (parts === null) throw new Error(`not an rgb() colour: ${colour}`);
  return parts.slice(1).map(Number);
};

/** The drawn cell holding a coordinate, or undefined when that cell is not drawn. */
function cellAt(lat: number, lon: number): MapCell | undefined {
  const at = cellOf(map.layout, lat, lon);
  if (at === null) return undefined;
  const { box, rows, columns } = map.layout;
  const centreLat = box.maxLat - ((at.row + 0.5) * (box.maxLat - box.minLat)) / rows;
  const centreLon = box.minLon + ((at.column + 0.5) * (box.maxLon - box.minLon)) / columns;
  return map.cells.find((c) => Math.abs(c.lat - centreLat) < 1e-9 && Math.abs(c.lon - centreLon) < 1e-9);
}

describe('map render', () => {
  test('the same inputs give the same SVG, and vega-lite compiles the spec without warnings', async () => {
    const again = await renderLocationMap(index, artifact, { width: 180, cell: 3 });
    expect(again.svg).toBe(map.svg);
    expect(map.warnings).toEqual([]);
  });

  test('the SVG is well formed, with the title, the score legend from 0 to 100 and the station key', () => {
    expect(malformedSvg(map.svg)).toBeNull();
    expect(map.svg).toContain(`>${TITLE}</text>`);
    expect(map.svg).toContain(`>${SCORE_LEGEND}</text>`);
    expect(map.svg).toContain(`>${STATION_KEY}</text>`);
    const labels = [...markGroup(map.svg, 'mark-text role-legend-label').matchAll(/>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual(['0', '25', '50', '75', '100']);
    for (const [, d] of map.svg.matchAll(/ d="([^"]*)"/g)) expect(d).not.toMatch(/\d\.\d{3}/); // path coordinates to 1/100 px
  });

  test('the map area is whole cells with the aspect ratio of latitude 41.3°', () => {
    const { layout } = map;
    expect(layout.width).toBe(layout.columns * layout.cell);
    expect(layout.height).toBe(layout.rows * layout.cell);
    const { box } = layout;
    const expected = (layout.width * (box.maxLat - box.minLat)) / ((box.maxLon - box.minLon) * Math.cos((MAP_LATITUDE * Math.PI) / 180));
    expect(Math.abs(layout.height - expected)).toBeLessThan(1e-6);
    expect(layout.height).toBeLessThan(layout.width); // Tashkent is wider than tall once longitude is shrunk
    const [, width, height] = map.svg.match(/^<svg[^>]* width="(\d+)" height="(\d+)"/)!.map(Number);
    expect(width).toBeGreaterThan(layout.width); // vega-lite adds the padding, title and legends around the map area
    expect(height).toBeGreaterThan(layout.height);
    expect(map.svg).toContain(`d="M0,0h${layout.width}v${layout.height}h-${layout.width}Z" fill="${BACKGROUND}"`); // the grey map area
  });

  test('one rect per scored cell, coloured on vega\'s viridis scale by the score at its centre', () => {
    const scored = map.cells.filter((c) => c.score !== null);
    expect(scored.length).toBe(map.stats.scored);
    expect(scored.length).toBe(map.cells.length); // the shipped artifact has data everywhere in the city
    const fills = [...markGroup(map.svg, 'mark-rect role-mark layer_0_marks').matchAll(/<path [^>]*fill="([^"]*)"/g)].map((m) => m[1]);
    expect(fills.length).toBe(scored.length);
    const viridis = vega.scheme('viridis') as (t: number) => string;
    scored.forEach((cell, k) => {
      const expected = rgb(viridis(cell.score! / 100));
      rgb(fills[k]).forEach((channel, c) => expect(Math.abs(channel - expected[c])).toBeLessThanOrEqual(1));
    });
    for (const cell of scored.filter((_, k) => k % 97 === 0)) {
      expect(cell.score).toBe(index.score(cell.lat, cell.lon).composite.score);
    }
  });

  test('the centre near Amir Timur Square is high on the scale, the southern edge of Sergeli low', () => {
    const centre = cellAt(CITY_CENTRE.lat, CITY_CENTRE.lon);
    const edge = cellAt(SERGELI_SOUTH_EDGE.lat, SERGELI_SOUTH_EDGE.lon);
    expect(centre?.score).toBeGreaterThan(65);
    expect(edge?.score).toBeLessThan(20);
    expect(centre!.score! - edge!.score!).toBeGreaterThan(50);
  });

  test('cells outside the city are not drawn: the grey background shows there', () => {
    for (const cell of map.cells) expect(index.districtOf(cell.lat, cell.lon)).not.toBeNull();
    const { box } = map.layout;
    const outside = { lat: box.minLat + 0.01, lon: box.maxLon - 0.01 }; // the south-east corner of the box, well outside the city line
    expect(index.districtOf(outside.lat, outside.lon)).toBeNull();
    expect(cellOf(map.layout, outside.lat, outside.lon)).not.toBeNull();
    expect(cellAt(outside.lat, outside.lon)).toBeUndefined();
    expect(map.stats.outside).toBe(map.stats.cells - map.cells.length);
    expect(map.stats.outside).toBeGreaterThan(0);
    expect(map.stats.scored).toBeGreaterThan(0);
  });

  test('district boundaries are one line per polygon ring, metro stations one point each', () => {
    const rings = artifact.districts.districts.reduce((n, d) => n + d.polygons.reduce((m, p) => m + p.length, 0), 0);
    expect(map.svg.match(/<g class="mark-line role-mark layer_2_marks"/g)?.length).toBe(rings);
    const stations = markGroup(map.svg, 'mark-symbol role-mark layer_3_marks').match(/<path /g)?.length;
    expect(stations).toBe(artifact.points.metro_station!.length);
  });

  test('a width under 60 px or a cell that is not a positive integer is refused', () => {
    expect(() => mapLayout(artifact, { width: 40 })).toThrow(/width/);
    expect(() => mapLayout(artifact, { cell: 0 })).toThrow(/cell/);
    expect(() => mapLayout(artifact, { cell: 2.5 })).toThrow(/cell/);
  });
});

describe('map CLI', () => {
  test('writes the SVG where --out says and reports what it drew', () => {
    const dir = mkdtempSync(join(tmpdir(), 'location-map-'));
    try {
      const out = join(dir, 'map.svg');
      const printed = execFileSync(process.execPath, [join(PROJECT_ROOT, 'dist/tools/models/location/map-cli.js'), '--out', out, '--width', '120', '--cell', '4'], { encoding: 'utf8' });
      expect(printed).toMatch(/map area 120×\d+ px in 4-px cells/);
      expect(printed).toMatch(/\d+ of \d+ cells scored/);
      expect(malformedSvg(readFileSync(out, 'utf8'))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('compositeScores', () => {
  test('scores in chunks and leaves a point outside the city null instead of stopping', () => {
    const points = [CITY_CENTRE, SAMARKAND, SERGELI_SOUTH_EDGE, SAMARKAND, CITY_CENTRE];
    const scores = compositeScores(index, points, 2);
    expect(scores[1]).toBeNull();
    expect(scores[3]).toBeNull();
    expect(scores[0]).toBe(index.score(CITY_CENTRE.lat, CITY_CENTRE.lon).composite.score);
    expect(scores[4]).toBe(scores[0]);
    expect(scores[2]).toBe(index.score(SERGELI_SOUTH_EDGE.lat, SERGELI_SOUTH_EDGE.lon).composite.score);
  });
});
