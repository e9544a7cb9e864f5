/** The location map (models/location/map-render.ts): deterministic bytes, the right shape, scores read back from the colours. */
import { PNG } from 'pngjs';
import { CITY_CENTRE, LocationIndex } from '../../models/location';
import { readArtifact, type LayersArtifact } from '../../models/location/artifact';
import {
  BACKGROUND, colourOf, compositeScores, MAP_LATITUDE, pixelOf, renderLocationMap, scoreOfColour, type MapLayout, type RenderedMap, type Rgb,
} from '../../models/location/map-render';

const SERGELI_SOUTH_EDGE = { lat: 41.2, lon: 69.26 };
const SAMARKAND = { lat: 39.6542, lon: 66.9597 };

let artifact: LayersArtifact;
let index: LocationIndex;
let map: RenderedMap;
let image: PNG;
beforeAll(() => {
  artifact = readArtifact();
  index = LocationIndex.fromArtifact(artifact);
  map = renderLocationMap(index, artifact, { width: 120, cell: 2 });
  image = PNG.sync.read(map.png);
});

const rgbAt = (png: PNG, x: number, y: number): Rgb => {
  const i = (y * png.width + x) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
};

/** The median score of the scale-coloured pixels within `radius` of a coordinate's pixel (lines and station dots are skipped). */
function medianScoreNear(layout: MapLayout, lat: number, lon: number, radius = 6): number {
  const { x, y } = pixelOf(layout, lat, lon);
  const scores: number[] = [];
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const read = scoreOfColour(rgbAt(image, x + dx, y + dy));
      if (read.distance <= 1) scores.push(read.score);
    }
  }
  expect(scores.length).toBeGreaterThan(10);
  return scores.sort((a, b) => a - b)[Math.floor(scores.length / 2)];
}

describe('colour scale', () => {
  test('runs from viridis purple at 0 to yellow at 100 and reads back to within 0.5', () => {
    expect(colourOf(0)).toEqual([68, 1, 84]);
    expect(colourOf(100)).toEqual([253, 231, 37]);
    for (const score of [0, 7.3, 25, 50, 66.6, 82.8, 100]) expect(Math.abs(scoreOfColour(colourOf(score)).score - score)).toBeLessThanOrEqual(0.5);
    expect(scoreOfColour(BACKGROUND).distance).toBeGreaterThan(20); // the background is not on the scale
  });
});

describe('map render', () => {
  test('the same inputs give identical bytes', () => {
    expect(renderLocationMap(index, artifact, { width: 120, cell: 2 }).png.equals(map.png)).toBe(true);
  });

  test('the PNG has the layout dimensions, and the map area the aspect ratio of latitude 41.3°', () => {
    const { layout } = map;
    expect(image.width).toBe(120);
    expect(image.height).toBe(layout.height);
    expect(layout.mapY + layout.mapHeight).toBeLessThan(layout.height); // the legend is below the map
    const { box } = layout;
    const expected = (layout.mapWidth * (box.maxLat - box.minLat)) / ((box.maxLon - box.minLon) * Math.cos((MAP_LATITUDE * Math.PI) / 180));
    expect(Math.abs(layout.mapHeight - expected)).toBeLessThanOrEqual(0.5);
    expect(layout.mapHeight).toBeLessThan(layout.mapWidth); // Tashkent is wider than tall once longitude is shrunk
  });

  test('the centre near Amir Timur Square is high on the scale, the southern edge of Sergeli low', () => {
    const centre = medianScoreNear(map.layout, CITY_CENTRE.lat, CITY_CENTRE.lon);
    const edge = medianScoreNear(map.layout, SERGELI_SOUTH_EDGE.lat, SERGELI_SOUTH_EDGE.lon);
    expect(centre).toBeGreaterThan(65);
    expect(edge).toBeLessThan(20);
    expect(centre - edge).toBeGreaterThan(50);
  });

  test('pixels outside the city are the background colour', () => {
    const { mapX, mapY, mapWidth, mapHeight, box } = map.layout;
    const corners = [[mapX, mapY], [mapX + mapWidth - 1, mapY], [mapX, mapY + mapHeight - 1], [mapX + mapWidth - 1, mapY + mapHeight - 1]];
    for (const [x, y] of corners) expect(rgbAt(image, x, y)).toEqual(BACKGROUND);
    // The south-east corner of the box is well outside the city line.
    const outside = { lat: box.minLat + 0.01, lon: box.maxLon - 0.01 };
    expect(index.districtOf(outside.lat, outside.lon)).toBeNull();
    const { x, y } = pixelOf(map.layout, outside.lat, outside.lon);
    expect(rgbAt(image, x, y)).toEqual(BACKGROUND);
    expect(map.stats.outside).toBeGreaterThan(0);
    expect(map.stats.scored).toBeGreaterThan(0);
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
