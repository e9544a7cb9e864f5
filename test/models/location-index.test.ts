/** The location index on the committed artifact: decay, scores, coverage flags, districts, errors, the artifact and its inputs. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_DIR } from '../../models/paths';
import { CITY_CENTRE, DEFAULT_ARTIFACT_PATH, LOCATION_PARAMETERS, LocationIndex, OutsideTashkentError, SUBINDEXES } from '../../models/location';
import { readArtifact, serialiseArtifact, type LayersArtifact } from '../../models/location/artifact';
import { buildShippedArtifact } from '../../models/location/build';
import { categoryOfLandmark, categoryOfTags } from '../../models/location/classify';
import { loadLayer, parseGeoJson, parseOverpassJson, UnsupportedLayerFormatError } from '../../models/location/layers';
import { fillGeneratedSections, generatedSections, LOCATION_DOC_PATH } from '../../models/location/report';
import { decay, rankedCredit } from '../../models/location/scoring';
import { metresBetween } from '../../models/location/spatial';

const CHILONZOR_METRO = { lat: 41.274359, lon: 69.2049735 };
const MIRABAD_CAFES = { lat: 41.302, lon: 69.27 };
const SERGELI_SOUTH_EDGE = { lat: 41.2, lon: 69.26 };
const BEKTEMIR_CENTRE = { lat: 41.2545, lon: 69.374 };
const SAMARKAND = { lat: 39.6542, lon: 66.9597 };

let artifact: LayersArtifact;
let index: LocationIndex;
beforeAll(() => {
  artifact = readArtifact();
  index = LocationIndex.fromArtifact(artifact);
});

describe('decay and ranked credit', () => {
  test('full credit up to d_full, none from d_zero, half a cosine between', () => {
    expect(decay(0, 500, 2000)).toBe(1);
    expect(decay(500, 500, 2000)).toBe(1);
    expect(decay(875, 500, 2000)).toBeCloseTo(0.5 * (1 + Math.SQRT1_2), 12); // a quarter of the way
    expect(decay(1250, 500, 2000)).toBeCloseTo(0.5, 12);
    expect(decay(2000, 500, 2000)).toBe(0);
    expect(decay(5000, 500, 2000)).toBe(0);
    const samples = [500, 700, 900, 1100, 1300, 1500, 1700, 1900, 2000].map((d) => decay(d, 500, 2000));
    samples.slice(1).forEach((value, i) => expect(value).toBeLessThan(samples[i]));
  });

  test('the k-th nearest earns the k-th rank weight; features past the list earn nothing', () => {
    const component = { rankWeights: [1, 0.5, 0.25], dFull: 500, dZero: 2000 };
    // 1000 m is a third of the way from 500 to 2000: 0.5 · (1 + cos(π/3)) = 0.75.
    expect(rankedCredit([100, 1000, 5000], component)).toBeCloseTo(1 + 0.5 * 0.75 + 0, 12);
    expect(rankedCredit([100, 100, 100, 100, 100], component)).toBeCloseTo(1.75, 12);
    expect(rankedCredit([], component)).toBe(0);
  });

  test('the parameter table is consistent: weights sum to 1, d_full < d_zero, rank weights never grow', () => {
    expect(SUBINDEXES.reduce((sum, id) => sum + LOCATION_PARAMETERS[id].compositeWeight, 0)).toBeCloseTo(1, 12);
    for (const id of SUBINDEXES) {
      for (const component of LOCATION_PARAMETERS[id].components) {
        expect(component.dFull).toBeLessThan(component.dZero);
        expect(component.why.length).toBeGreaterThan(20);
        if (component.kind === 'nearest') component.rankWeights.slice(1).forEach((w, i) => expect(w).toBeLessThanOrEqual(component.rankWeights[i]));
      }
    }
  });
});

describe('districts', () => {
  test('known places fall in the right district polygon', () => {
    expect(index.districtOf(CHILONZOR_METRO.lat, CHILONZOR_METRO.lon)).toBe('chilanzar');
    expect(index.districtOf(CITY_CENTRE.lat, CITY_CENTRE.lon)).toBe('yunusabad'); // the square is on Yunusabad's side of the OSM line
    expect(index.districtOf(41.3278521, 69.2251963)).toBe('shaykhantakhur'); // Chorsu bazaar
    expect(index.districtOf(MIRABAD_CAFES.lat, MIRABAD_CAFES.lon)).toBe('mirabad');
    expect(index.districtOf(BEKTEMIR_CENTRE.lat, BEKTEMIR_CENTRE.lon)).toBe('bektemir');
    expect(index.districtOf(SERGELI_SOUTH_EDGE.lat, SERGELI_SOUTH_EDGE.lon)).toBe('sergeli');
    expect(index.districtOf(SAMARKAND.lat, SAMARKAND.lon)).toBeNull();
  });

  test('outside the city is a typed error, with the batch position and a swapped-coordinates hint', () => {
    expect(() => index.score(SAMARKAND.lat, SAMARKAND.lon)).toThrow(OutsideTashkentError);
    expect(() => index.score(Number.NaN, 69.28)).toThrow(OutsideTashkentError);
    const swapped = (() => { try { index.score(CITY_CENTRE.lon, CITY_CENTRE.lat); } catch (e) { return e; } })() as OutsideTashkentError;
    expect(swapped).toBeInstanceOf(OutsideTashkentError);
    expect(swapped.code).toBe('OUTSIDE_TASHKENT');
    expect(swapped.swapped).toBe(true);
    const batch = (() => { try { index.scoreMany([CHILONZOR_METRO, SAMARKAND]); } catch (e) { return e; } })() as OutsideTashkentError;
    expect(batch).toBeInstanceOf(OutsideTashkentError);
    expect(batch.index).toBe(1);
    expect(batch.swapped).toBe(false);
  });
});

describe('scores', () => {
  test('the centre beats an outskirt on centrality and transport', () => {
    const centre = index.score(CITY_CENTRE.lat, CITY_CENTRE.lon);
    const outskirt = index.score(SERGELI_SOUTH_EDGE.lat, SERGELI_SOUTH_EDGE.lon);
    expect(centre.subindexes.centrality.score).toBe(100);
    expect(centre.subindexes.transport.score).toBe(100);
    expect(outskirt.subindexes.centrality.score).toBeLessThan(10);
    expect(outskirt.subindexes.transport.score).toBeLessThan(10);
    expect(centre.composite.score!).toBeGreaterThan(outskirt.composite.score! + 50);
  });

  test('next to a metro station transport is at least 80; 5 km from any station it is far lower', () => {
    expect(index.score(CHILONZOR_METRO.lat, CHILONZOR_METRO.lon).subindexes.transport.score).toBeGreaterThanOrEqual(80);
    // Western Uchtepa: housing, 5 km from the nearest station.
    const far = { lat: 41.305, lon: 69.16 };
    const nearestStation = Math.min(...artifact.points.metro_station!.map(([lon, lat]) => metresBetween(far.lon, far.lat, lon, lat)));
    expect(nearestStation).toBeGreaterThan(4_900);
    expect(nearestStation).toBeLessThan(5_100);
    expect(index.districtOf(far.lat, far.lon)).toBe('uchtepa');
    expect(index.score(far.lat, far.lon).subindexes.transport.score).toBe(0);
  });

  test('next to a bus stop 3.7 km from any metro station, transport gets the surface-stop credit', () => {
    // The OSM stop "Журжоний" in Uchtepa, and its twin across the street 63 m away.
    const [lon, lat] = artifact.points.surface_stop!.find((p) => p[3] === 'Журжоний')!;
    const nearestStation = Math.min(...artifact.points.metro_station!.map(([x, y]) => metresBetween(lon, lat, x, y)));
    expect(nearestStation).toBeGreaterThan(3_500);
    const beside = { lat: lat + 0.0003, lon }; // about 33 m north of the stop
    expect(index.districtOf(beside.lat, beside.lon)).toBe('uchtepa');
    const transport = index.score(beside.lat, beside.lon).subindexes.transport;
    // Metro: nothing within 2 km. Stops: the nearest within 150 m (0.3) and the twin (0.1): 100 × 0.4 / 1.2.
    expect(transport.score).toBeCloseTo(33.3, 1);
    expect(transport).toMatchObject({ coverage: 'full', complete: true });
    // Without the stop layer the same point scored nothing on transport.
    const withoutStops: LayersArtifact = { ...artifact, points: Object.fromEntries(Object.entries(artifact.points).filter(([category]) => category !== 'surface_stop')) };
    expect(LocationIndex.fromArtifact(withoutStops).score(beside.lat, beside.lon).subindexes.transport.score).toBe(0);
  });

  test('market liquidity counts listings: the Chilonzor estates are deep, the southern edge nearly empty', () => {
    expect(index.score(CHILONZOR_METRO.lat, CHILONZOR_METRO.lon).subindexes.market_liquidity.score).toBe(100);
    // One 2026 uybor listing lies within reach of the edge (the 2021 olx file had none there).
    expect(index.score(SERGELI_SOUTH_EDGE.lat, SERGELI_SOUTH_EDGE.lon).subindexes.market_liquidity.score).toBeLessThan(5);
  });

  test('scoreMany gives what score gives, point by point', () => {
    const points = [CHILONZOR_METRO, MIRABAD_CAFES, BEKTEMIR_CENTRE];
    expect(index.scoreMany(points)).toEqual(points.map((p) => index.score(p.lat, p.lon)));
  });
});

describe('coverage', () => {
  test('culture is complete in Mirabad, partial elsewhere, because cafes were exported for Mirabad only', () => {
    const inside = index.score(MIRABAD_CAFES.lat, MIRABAD_CAFES.lon).subindexes.culture;
    const outside = index.score(CHILONZOR_METRO.lat, CHILONZOR_METRO.lon).subindexes.culture;
    expect(inside).toMatchObject({ coverage: 'full', complete: true });
    expect(outside).toMatchObject({ coverage: 'partial', complete: false });
    const cafes = (s: typeof inside) => s.components.find((c) => c.feature === 'cafe')!;
    expect(cafes(inside).coverage).toBe('full');
    expect(cafes(outside).coverage).toBe('none');
    expect(cafes(outside).layers).toEqual([expect.objectContaining({ layer: 'cafes_mirabad', features: 152, coverage: 'partial', completeIn: ['mirabad'] })]);
  });

  test('partial layers are never presented as complete; the city-wide ones are', () => {
    const score = index.score(CHILONZOR_METRO.lat, CHILONZOR_METRO.lon);
    expect(score.subindexes.transport).toMatchObject({ coverage: 'full', complete: true });
    expect(score.subindexes.market_liquidity).toMatchObject({ coverage: 'full', complete: true });
    for (const id of ['education', 'healthcare', 'daily_needs', 'green', 'safety', 'centrality'] as const) {
      expect(score.subindexes[id]).toMatchObject({ coverage: 'partial', complete: false });
    }
    expect(score.composite.complete).toBe(false);
    expect(score.composite.renormalised).toBe(false);
    // Schools are required and have no layer: named in the basis, with no layers behind them.
    const schools = score.subindexes.education.components.find((c) => c.feature === 'school')!;
    expect(schools).toMatchObject({ required: true, used: true, coverage: 'none', layers: [] });
    // Bus stops are optional, and the OpenStreetMap layer covers the whole city: used, and transport stays complete.
    const stops = score.subindexes.transport.components.find((c) => c.feature === 'surface_stop')!;
    expect(stops).toMatchObject({ required: false, used: true, coverage: 'full' });
    expect(stops.layers).toEqual([expect.objectContaining({ layer: 'transit_stops_osm', features: 1509, coverage: 'city' })]);
  });

  test('the bus-stop layer backs transport as complete in every district', () => {
    for (const district of artifact.districts.districts) {
      const [lon, lat] = artifact.points.surface_stop!.find(([x, y]) => index.districtOf(y, x) === district.id)!;
      const transport = index.score(lat, lon).subindexes.transport;
      expect(transport).toMatchObject({ coverage: 'full', complete: true });
      expect(transport.components.find((c) => c.feature === 'surface_stop')).toMatchObject({ used: true, coverage: 'full' });
    }
  });

  test('a subindex with no layer scores null, not 0, and the composite renormalises over the rest', () => {
    const withoutEducation: LayersArtifact = {
      ...artifact,
      points: Object.fromEntries(Object.entries(artifact.points).filter(([category]) => category !== 'higher_education')),
      layers: artifact.layers.map((layer) => ({
        ...layer,
        points: Object.fromEntries(Object.entries(layer.points).filter(([category]) => category !== 'higher_education')),
      })),
    };
    const score = LocationIndex.fromArtifact(withoutEducation).score(CHILONZOR_METRO.lat, CHILONZOR_METRO.lon);
    expect(score.subindexes.education).toMatchObject({ score: null, coverage: 'none', complete: false });
    expect(score.composite.renormalised).toBe(true);
    expect(score.composite.missing).toEqual(['education']);
    expect(score.composite.weights.education).toBe(0);
    const weights = SUBINDEXES.map((id) => score.composite.weights[id]);
    expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(score.composite.weights.transport).toBeCloseTo(0.18 / 0.88, 12);
    const mean = SUBINDEXES.filter((id) => id !== 'education').reduce((sum, id) => sum + score.composite.weights[id] * score.subindexes[id].score!, 0);
    expect(score.composite.score).toBeCloseTo(mean, 1);
  });
});

describe('categories', () => {
  test('OSM tags map through the one table, first rule first', () => {
    expect(categoryOfTags({ amenity: 'school' })).toBe('school');
    expect(categoryOfTags({ amenity: 'doctors' })).toBe('clinic');
    expect(categoryOfTags({ railway: 'station', station: 'subway' })).toBe('metro_station');
    expect(categoryOfTags({ railway: 'station' })).toBeNull(); // an intercity station is not daily transport
    expect(categoryOfTags({ amenity: 'cafe', leisure: 'playground' })).toBe('cafe');
    expect(categoryOfTags({ tourism: 'museum', historic: 'yes' })).toBe('cultural_venue');
    expect(categoryOfTags({ leisure: 'park', tourism: 'attraction' })).toBe('park');
    expect(categoryOfTags({ leisure: 'park', tourism: 'attraction' }, ['cultural_venue', 'heritage'])).toBe('heritage');
    expect(categoryOfTags({ office: 'company' })).toBe('business_centre');
    expect(categoryOfTags({ building: 'yes' })).toBeNull();
  });

  test('the landmark Category column maps to categories; stations and the airport are deliberately unscored', () => {
    expect(categoryOfLandmark('Educational institutions')).toBe('higher_education');
    expect(categoryOfLandmark(' Markets ')).toBe('marketplace');
    expect(categoryOfLandmark('Stations')).toBeNull();
    expect(categoryOfLandmark('Airport')).toBeNull();
    expect(categoryOfLandmark('constructor')).toBeNull();
  });
});

describe('layers and the artifact', () => {
  const fireStations = () => JSON.parse(readFileSync(join(DATA_DIR, 'geo/poi/fire_stations.geojson'), 'utf8'));

  test('Overpass JSON and GeoJSON of the same features load to the same points', () => {
    const geojson = fireStations();
    // The Overpass JSON those overpass-turbo features came from: nodes keep lat/lon, ways and relations carry `center`.
    const overpass = {
      osm3s: { copyright: geojson.copyright, timestamp_osm_base: geojson.timestamp },
      elements: geojson.features.map((feature: { id: string; properties: Record<string, string>; geometry: { coordinates: [number, number] } }) => {
        const [type, id] = feature.id.split('/');
        const [lon, lat] = feature.geometry.coordinates;
        const tags = Object.fromEntries(Object.entries(feature.properties).filter(([key]) => !key.startsWith('@')));
        return type === 'node' ? { type, id: Number(id), lat, lon, tags } : { type, id: Number(id), center: { lat, lon }, tags };
      }),
    };
    const options = { id: 'fire_stations', keep: ['fire_station' as const] };
    const fromGeoJson = parseGeoJson(geojson, options);
    const fromOverpass = parseOverpassJson(overpass, options);
    expect(fromGeoJson.points).toHaveLength(24);
    expect(fromOverpass.points).toEqual(fromGeoJson.points);
    expect(fromOverpass.statedLicence).toBe('ODbL (OpenStreetMap contributors)');
    expect(fromOverpass.dataTimestamp).toBe(fromGeoJson.dataTimestamp);
  });

  test('an area loads to its bounding-box centre from either format, as Overpass `out center` places it', () => {
    // Binary fractions, so the box centre is exact: lon 69.25–69.28125, lat 41.25–41.3125.
    const ring = [[69.25, 41.25], [69.28125, 41.25], [69.28125, 41.28125], [69.265625, 41.3125], [69.25, 41.25]];
    const geojson = { type: 'FeatureCollection' as const, features: [{ properties: { leisure: 'park', name: 'Test park' }, geometry: { type: 'Polygon', coordinates: [ring] } }] };
    const overpassWithGeometry = { elements: [
      { type: 'way' as const, tags: { leisure: 'park', name: 'Test park' }, geometry: ring.map(([lon, lat]) => ({ lat, lon })) },
      { type: 'node' as const, lat: 41.25, lon: 69.25 }, // an untagged member node: geometry, not a feature
    ] };
    const overpassWithCentre = { elements: [{ type: 'way' as const, tags: { leisure: 'park', name: 'Test park' }, center: { lat: 41.28125, lon: 69.265625 } }] };
    const expected = [{ lon: 69.265625, lat: 41.28125, category: 'park', name: 'Test park', source: 'parks' }];
    expect(parseGeoJson(geojson, { id: 'parks' }).points).toEqual(expected);
    const loaded = parseOverpassJson(overpassWithGeometry, { id: 'parks' });
    expect(loaded.points).toEqual(expected);
    expect(loaded.features).toBe(1);
    expect(parseOverpassJson(overpassWithCentre, { id: 'parks' }).points).toEqual(expected);
  });

  test('files are told apart by name and content; PBF is refused with a way out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'location-layers-'));
    const overpassFile = join(dir, 'stations.json');
    writeFileSync(overpassFile, JSON.stringify({ elements: [{ type: 'node', lat: 41.3, lon: 69.25, tags: { amenity: 'fire_station' } }] }));
    expect(loadLayer(overpassFile, { id: 'stations' })).toMatchObject({ format: 'overpass-json', features: 1, skipped: 0 });
    const csvFile = join(dir, 'stops.csv');
    writeFileSync(csvFile, 'name,lat,lon\nA,41.3,69.25\nB,,69.26\n');
    expect(loadLayer(csvFile, { id: 'stops', category: 'surface_stop' })).toMatchObject({ format: 'csv', features: 2, skipped: 1 });
    expect(() => loadLayer(csvFile, { id: 'stops' })).toThrow(/Category column/);
    const typedFile = join(dir, 'transit.csv');
    writeFileSync(typedFile, 'name,line,lat,lon,type\nChilonzor,,41.274359,69.2049735,metro\n,,41.2755387,69.1936997,bus\nX,,41.3,69.2,ferry\n');
    const typed = loadLayer(typedFile, { id: 'transit' });
    expect(typed.points.map((p) => p.category)).toEqual(['metro_station', 'surface_stop']);
    expect(typed).toMatchObject({ features: 3, skipped: 1 });
    expect(loadLayer(typedFile, { id: 'transit', keep: ['surface_stop'] })).toMatchObject({ features: 3, skipped: 2, points: [expect.objectContaining({ category: 'surface_stop' })] });
    const pbf = join(dir, 'tashkent.osm.pbf');
    writeFileSync(pbf, Buffer.from([0, 1, 2]));
    expect(() => loadLayer(pbf, { id: 'tashkent' })).toThrow(UnsupportedLayerFormatError);
    expect(() => loadLayer(pbf, { id: 'tashkent' })).toThrow(/PBF needs a protocol-buffer OSM parser/);
  });

  test('the committed artifact holds what scoring needs and nothing more', () => {
    expect(artifact.districts.districts.map((d) => d.id)).toHaveLength(12);
    expect(artifact.layers.map((l) => l.id)).toEqual(['metro_stations', 'supermarkets_korzinka', 'culture_tourism', 'fire_stations', 'cafes_mirabad', 'landmarks_mixed', 'transit_stops_osm']);
    expect(artifact.points.metro_station).toHaveLength(49);
    expect(artifact.points.surface_stop).toHaveLength(1509);
    expect(artifact.points.grocery).toHaveLength(111);
    expect(artifact.points.cafe).toHaveLength(152);
    expect(artifact.points.fire_station).toHaveLength(24);
    // Listings: coordinates and a count per point only, no prices.
    expect(artifact.listings.points.every((p) => p.length === 3 && Number.isInteger(p[2]) && p[2] >= 1)).toBe(true);
    expect(artifact.listings.points.reduce((sum, p) => sum + p[2], 0)).toBe(Object.values(artifact.listings.records).reduce((sum, n) => sum + (n ?? 0), 0));
    expect(artifact.listings.records.olx_2021).toBeGreaterThan(5_000);
    // Coordinates carry at most six decimals.
    const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;
    expect(Object.values(artifact.points).flat().every((p) => decimals(p[0]) <= 6 && decimals(p[1]) <= 6)).toBe(true);
    expect(artifact.layers.find((l) => l.id === 'landmarks_mixed')).toMatchObject({ features: 102, skipped: 4, duplicates: 1 });
  });

  test('the metro stations of the transit file are those of the metro layer: skipped, not counted twice', () => {
    expect(artifact.layers.find((l) => l.id === 'transit_stops_osm')).toMatchObject({ features: 1558, skipped: 49, duplicates: 0, points: { surface_stop: 1509 }, coverage: 'city' });
    const all = loadLayer(join(DATA_DIR, 'geo/poi/transit_stops_osm.csv'), { id: 'transit_stops_osm' });
    const stations = all.points.filter((p) => p.category === 'metro_station');
    expect(stations).toHaveLength(49);
    for (const station of stations) {
      const nearest = Math.min(...artifact.points.metro_station!.map(([lon, lat]) => metresBetween(station.lon, station.lat, lon, lat)));
      expect(nearest).toBeLessThan(5); // the same OSM stations, placed within 3.6 m
    }
  });

  test('rebuilding the artifact is deterministic and gives the committed file byte for byte', () => {
    const first = serialiseArtifact(buildShippedArtifact());
    const second = serialiseArtifact(buildShippedArtifact());
    expect(second).toBe(first);
    expect(first).toBe(readFileSync(DEFAULT_ARTIFACT_PATH, 'utf8'));
  });

  test('the tables in docs/LOCATION_INDEX.md are what the code computes', () => {
    const doc = readFileSync(LOCATION_DOC_PATH, 'utf8');
    expect(fillGeneratedSections(doc, generatedSections(index, artifact))).toBe(doc);
  });
});
