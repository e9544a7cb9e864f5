/**
 * OpenStreetMap PBF layers: a tiny .osm.pbf written here (protobufjs + zlib, no network) is imported
 * through osm-pbf-parser and gives the same points as the equivalent Overpass JSON.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import * as protobuf from 'protobufjs';
import type { LayersArtifact } from '../../models/location/artifact';
import { loadLayer, parseOverpassJson, UnsupportedLayerFormatError, type LayerPoint } from '../../models/location/layers';
import { readOsmPbf } from '../../models/location/osm-pbf';

/**
 * The parts of the OSM PBF format the fixture uses, field numbers as in OSM-binary's
 * osmpbf/fileformat.proto and osmpbf/osmformat.proto. Packed fields must be written packed (the
 * parser's decoder reads them only so): protobufjs applies `packed` once the root is resolved.
 */
const OSM_PBF_PROTO = `
syntax = "proto2";
message Blob {
  optional bytes raw = 1;
  optional int32 raw_size = 2;
  optional bytes zlib_data = 3;
  optional bytes zstd_data = 7;
}
message BlobHeader { required string type = 1; optional bytes indexdata = 2; required int32 datasize = 3; }
message HeaderBlock {
  repeated string required_features = 4;
  repeated string optional_features = 5;
  optional string writingprogram = 16;
  optional int64 osmosis_replication_timestamp = 32;
}
message PrimitiveBlock {
  required StringTable stringtable = 1;
  repeated PrimitiveGroup primitivegroup = 2;
  optional int32 granularity = 17 [default = 100];
  optional int64 lat_offset = 19 [default = 0];
  optional int64 lon_offset = 20 [default = 0];
  optional int32 date_granularity = 18 [default = 1000];
}
message PrimitiveGroup { optional DenseNodes dense = 2; repeated Way ways = 3; repeated Relation relations = 4; }
message StringTable { repeated bytes s = 1; }
message DenseNodes {
  repeated sint64 id = 1 [packed = true];
  repeated sint64 lat = 8 [packed = true];
  repeated sint64 lon = 9 [packed = true];
  repeated int32 keys_vals = 10 [packed = true];
}
message Way {
  required int64 id = 1;
  repeated uint32 keys = 2 [packed = true];
  repeated uint32 vals = 3 [packed = true];
  repeated sint64 refs = 8 [packed = true];
}
message Relation {
  required int64 id = 1;
  repeated uint32 keys = 2 [packed = true];
  repeated uint32 vals = 3 [packed = true];
  repeated int32 roles_sid = 8 [packed = true];
  repeated sint64 memids = 9 [packed = true];
  repeated int32 types = 10 [packed = true];
}
`;
const root = protobuf.parse(OSM_PBF_PROTO, { keepCase: true }).root;
root.resolveAll();
const encode = (type: string, message: object): Uint8Array => {
  const messageType = root.lookupType(type);
  return messageType.encode(messageType.fromObject(message)).finish();
};

/** One file block: [4-byte big-endian length][BlobHeader][Blob with the zlib-compressed message]. */
function fileBlock(type: 'OSMHeader' | 'OSMData', message: Uint8Array, compression: 'zlib' | 'zstd' = 'zlib'): Buffer {
  const blob = encode('Blob', compression === 'zlib'
    ? { raw_size: message.length, zlib_data: deflateSync(message) }
    : { raw_size: message.length, zstd_data: message });
  const header = encode('BlobHeader', { type, datasize: blob.length });
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, blob]);
}

type Tags = Record<string, string>;
interface FixtureNode { id: number; lat: number; lon: number; tags?: Tags }
interface FixtureWay { id: number; refs: number[]; tags: Tags }
interface FixtureRelation { id: number; members: number[]; tags: Tags }

const deltas = (values: readonly number[]): number[] => values.map((value, i) => value - (i === 0 ? 0 : values[i - 1]));
const nanodegrees = (degrees: number): number => Math.round(degrees * 1e7); // granularity 100 nanodegrees

/** A PrimitiveBlock: its own string table, and one group per kind (DenseNodes, ways, relations). */
function primitiveBlock(nodes: readonly FixtureNode[], ways: readonly FixtureWay[], relations: readonly FixtureRelation[] = []): Uint8Array {
  const strings = [''];
  const sid = (text: string): number => {
    if (!strings.includes(text)) strings.push(text);
    return strings.indexOf(text);
  };
  const keysVals = (tags: Tags = {}): { keys: number[]; vals: number[] } => ({ keys: Object.keys(tags).map(sid), vals: Object.values(tags).map(sid) });
  const groups: object[] = [];
  if (nodes.length > 0) {
    groups.push({ dense: {
      id: deltas(nodes.map((n) => n.id)),
      lat: deltas(nodes.map((n) => nanodegrees(n.lat))),
      lon: deltas(nodes.map((n) => nanodegrees(n.lon))),
      keys_vals: nodes.flatMap((n) => [...Object.entries(n.tags ?? {}).flatMap(([k, v]) => [sid(k), sid(v)]), 0]),
    } });
  }
  if (ways.length > 0) groups.push({ ways: ways.map((w) => ({ id: w.id, ...keysVals(w.tags), refs: deltas(w.refs) })) });
  if (relations.length > 0) {
    groups.push({ relations: relations.map((r) => ({
      id: r.id, ...keysVals(r.tags), roles_sid: r.members.map(() => sid('outer')), memids: deltas(r.members), types: r.members.map(() => 1),
    })) });
  }
  return encode('PrimitiveBlock', { stringtable: { s: strings.map((s) => Buffer.from(s)) }, granularity: 100, primitivegroup: groups });
}

function headerBlock(options: { sorted?: boolean; required?: string[]; timestamp?: number } = {}): Uint8Array {
  return encode('HeaderBlock', {
    required_features: options.required ?? ['OsmSchema-V0.6', 'DenseNodes'],
    optional_features: options.sorted === false ? [] : ['Sort.Type_then_ID'],
    writingprogram: 'location-pbf.test',
    ...(options.timestamp === undefined ? {} : { osmosis_replication_timestamp: options.timestamp }),
  });
}

// Node ids above 2^32, as current OSM ids are.
const N = 11_000_000_000;
const NODES: FixtureNode[] = [
  { id: N + 1, lat: 41.311151, lon: 69.279737, tags: { amenity: 'school', name: 'School No. 1' } },
  { id: N + 2, lat: 41.3001234, lon: 69.2409876, tags: { amenity: 'pharmacy', 'name:en': 'Dori-Darmon' } },
  { id: N + 3, lat: 41.305, lon: 69.25, tags: { highway: 'traffic_signals' } }, // tagged, not in the table: not a feature
  { id: N + 4, lat: 41.32, lon: 69.29, tags: { shop: 'supermarket' } }, // no name
  // An L-shaped school building: its bounding-box centre is not its vertices' mean.
  { id: N + 10, lat: 41.28, lon: 69.26 },
  { id: N + 11, lat: 41.28, lon: 69.27 },
  { id: N + 12, lat: 41.282, lon: 69.27 },
  { id: N + 13, lat: 41.282, lon: 69.262 },
  { id: N + 14, lat: 41.29, lon: 69.262 },
  { id: N + 15, lat: 41.29, lon: 69.26 },
  // A park triangle, one of whose nodes is outside the extract.
  { id: N + 20, lat: 41.3, lon: 69.3 },
  { id: N + 21, lat: 41.31, lon: 69.3 },
  // A road's nodes.
  { id: N + 30, lat: 41.3, lon: 69.2 },
  { id: N + 31, lat: 41.301, lon: 69.201 },
];
const W = 5_000_000_000;
const WAYS: FixtureWay[] = [
  { id: W + 1, refs: [N + 10, N + 11, N + 12, N + 13, N + 14, N + 15, N + 10], tags: { building: 'school', amenity: 'school', name: 'School No. 2' } },
  { id: W + 2, refs: [N + 20, N + 21, N + 99, N + 20], tags: { leisure: 'park', name: 'Triangle park' } },
  { id: W + 3, refs: [N + 30, N + 31], tags: { highway: 'residential', name: 'Some street' } }, // not a feature
  { id: W + 4, refs: [N + 97, N + 98], tags: { amenity: 'kindergarten' } }, // no node in the extract: skipped
  { id: W + 5, refs: [N + 30, N + 31], tags: {} }, // untagged: geometry, not a feature
];
const RELATIONS: FixtureRelation[] = [{ id: 7, members: [W + 3], tags: { type: 'multipolygon', leisure: 'park', name: 'Big park' } }];

/** The expected points: nodes at their own position, ways at their bounding-box centre (Overpass's `out center`). */
const EXPECTED: LayerPoint[] = [
  { lon: 69.279737, lat: 41.311151, category: 'school', name: 'School No. 1', source: 'city' },
  { lon: 69.2409876, lat: 41.3001234, category: 'pharmacy', name: 'Dori-Darmon', source: 'city' },
  { lon: 69.29, lat: 41.32, category: 'grocery', source: 'city' },
  { lon: (69.26 + 69.27) / 2, lat: (41.28 + 41.29) / 2, category: 'school', name: 'School No. 2', source: 'city' },
  { lon: 69.3, lat: (41.3 + 41.31) / 2, category: 'park', name: 'Triangle park', source: 'city' },
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'location-pbf-'));
});

function writePbf(name: string, blocks: Buffer[]): string {
  const file = join(dir, name);
  writeFileSync(file, Buffer.concat(blocks));
  return file;
}

/** The city fixture: header, then one data block with the nodes, the ways and the relation. */
const cityPbf = (name = 'city.osm.pbf'): string => writePbf(name, [
  fileBlock('OSMHeader', headerBlock({ timestamp: 1_700_000_000 })),
  fileBlock('OSMData', primitiveBlock(NODES, WAYS, RELATIONS)),
]);

/** The same data as Overpass returns it for `nwr(...); out geom;`: untagged member nodes, ways with their geometry. */
function overpassEquivalent(): Parameters<typeof parseOverpassJson>[0] {
  const byId = new Map(NODES.map((n) => [n.id, n]));
  return {
    osm3s: { timestamp_osm_base: '2023-11-14T22:13:20Z' },
    elements: [
      ...NODES.map((n) => ({ type: 'node' as const, lat: n.lat, lon: n.lon, ...(n.tags === undefined ? {} : { tags: n.tags }) })),
      ...WAYS.filter((w) => Object.keys(w.tags).length > 0).map((w) => ({
        type: 'way' as const,
        tags: w.tags,
        geometry: w.refs.map((id) => (byId.has(id) ? { lat: byId.get(id)!.lat, lon: byId.get(id)!.lon } : null)),
      })),
    ],
  };
}

const byPlace = (points: readonly LayerPoint[]): LayerPoint[] =>
  [...points].sort((a, b) => a.lon - b.lon || a.lat - b.lat || a.category.localeCompare(b.category));

describe('OpenStreetMap PBF layers', () => {
  test('nodes and ways are classified by the tag table; a way is the centre of its bounding box; relations are counted, not read', async () => {
    const layer = await readOsmPbf(cityPbf(), { id: 'city' });
    expect(layer.points).toEqual(EXPECTED);
    expect(layer).toMatchObject({
      format: 'osm-pbf',
      features: 6, // 3 classified nodes, 3 classified ways (the kindergarten cannot be placed)
      skipped: 1,
      statedLicence: null,
      dataTimestamp: '2023-11-14T22:13:20Z',
      read: { nodes: NODES.length, ways: WAYS.length, relations: 1 },
      relationsNotRead: 1,
      wayNodes: 8, // 6 of the school, 2 of the park: the road's are not kept
    });
    // Not the mean of the school's six vertices (41.284, 69.264): the same point as Overpass's `out center`.
    expect(layer.points[3].lat).toBeCloseTo(41.285, 9);
    expect(layer.points[3].lon).toBeCloseTo(69.265, 9);
  });

  test('a PBF and the equivalent Overpass JSON give the same points', async () => {
    const fromPbf = await readOsmPbf(cityPbf(), { id: 'city' });
    const fromOverpass = parseOverpassJson(overpassEquivalent(), { id: 'city' });
    expect(byPlace(fromPbf.points)).toEqual(byPlace(fromOverpass.points));
    expect(fromPbf.dataTimestamp).toBe(fromOverpass.dataTimestamp);
    // Restricted to some categories, both keep the same ones.
    const keep = ['school', 'park'] as const;
    const pbfKept = await readOsmPbf(cityPbf(), { id: 'city', keep });
    expect(byPlace(pbfKept.points)).toEqual(byPlace(parseOverpassJson(overpassEquivalent(), { id: 'city', keep }).points));
    expect(pbfKept.points.map((p) => p.category).sort()).toEqual(['park', 'school', 'school']);
  });

  test('order does not matter: ways before their nodes, in separate blocks, without the sorted flag', async () => {
    const file = writePbf('unsorted.osm.pbf', [
      fileBlock('OSMHeader', headerBlock({ sorted: false })),
      fileBlock('OSMData', primitiveBlock([], WAYS, RELATIONS)),
      fileBlock('OSMData', primitiveBlock(NODES.slice(8), [])),
      fileBlock('OSMData', primitiveBlock(NODES.slice(0, 8), [])),
    ]);
    const layer = await readOsmPbf(file, { id: 'city' });
    expect(byPlace(layer.points)).toEqual(byPlace(EXPECTED));
    expect(layer).toMatchObject({ features: 6, skipped: 1, wayNodes: 8, dataTimestamp: null });
    // Sorted, in several blocks: the second pass stops at the ways and still has every node.
    const sorted = writePbf('sorted.osm.pbf', [
      fileBlock('OSMHeader', headerBlock()),
      fileBlock('OSMData', primitiveBlock(NODES.slice(0, 8), [])),
      fileBlock('OSMData', primitiveBlock(NODES.slice(8), [])),
      fileBlock('OSMData', primitiveBlock([], WAYS)),
      fileBlock('OSMData', primitiveBlock([], [], RELATIONS)),
    ]);
    expect((await readOsmPbf(sorted, { id: 'city' })).points).toEqual(EXPECTED);
  });

  test('loadLayer returns a PBF layer read beforehand; other files named .pbf are refused with a reason', async () => {
    const file = cityPbf();
    const layer = await readOsmPbf(file, { id: 'city' });
    expect(loadLayer(file, { id: 'city', preloaded: layer })).toBe(layer);
    expect(() => loadLayer(file, { id: 'city' })).toThrow(/read it with readOsmPbf\(\)/);

    const json = writePbf('overpass.osm.pbf', [Buffer.from(JSON.stringify(overpassEquivalent()))]);
    await expect(readOsmPbf(json, { id: 'x' })).rejects.toThrow(UnsupportedLayerFormatError);
    await expect(readOsmPbf(json, { id: 'x' })).rejects.toThrow(/not an OpenStreetMap PBF file/);
    const tiny = writePbf('tiny.osm.pbf', [Buffer.from([0, 1, 2])]);
    await expect(readOsmPbf(tiny, { id: 'x' })).rejects.toThrow(/not an OpenStreetMap PBF file/);
    const dataFirst = writePbf('data-first.osm.pbf', [fileBlock('OSMData', primitiveBlock(NODES, []))]);
    await expect(readOsmPbf(dataFirst, { id: 'x' })).rejects.toThrow(/first block is not an OSMHeader/);
    const history = writePbf('history.osh.pbf', [
      fileBlock('OSMHeader', headerBlock({ required: ['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation'] })),
    ]);
    await expect(readOsmPbf(history, { id: 'x' })).rejects.toThrow(/history file/);
    const zstd = writePbf('zstd.osm.pbf', [fileBlock('OSMHeader', headerBlock(), 'zstd')]);
    await expect(readOsmPbf(zstd, { id: 'x' })).rejects.toThrow(/zstd.*pbf_compression=zlib/);
    await expect(readOsmPbf(join(dir, 'missing.osm.pbf'), { id: 'x' })).rejects.toThrow(/ENOENT/);
  });

  test('the import command takes a .osm.pbf and records it in the artifact', () => {
    const file = cityPbf('tashkent_extract.osm.pbf');
    const out = join(dir, 'layers.json');
    const cli = join(__dirname, '../../tools/models/location/import-cli.js');
    const stdout = execFileSync(process.execPath, [cli, file, '--coverage', 'city', '--keep', 'school,park,pharmacy', '--out', out], { encoding: 'utf8' });
    expect(stdout).toMatch(/tashkent_extract\.osm\.pbf: read 14 nodes, 5 ways, 1 relations; 8 way nodes located; 1 classified relations not read/);
    const artifact = JSON.parse(readFileSync(out, 'utf8')) as LayersArtifact;
    const layer = artifact.layers.find((l) => l.id === 'tashkent_extract')!;
    expect(layer).toMatchObject({
      format: 'osm-pbf', features: 4, skipped: 0, points: { park: 1, pharmacy: 1, school: 2 },
      licence: 'not stated', dataTimestamp: '2023-11-14T22:13:20Z', coverage: 'city',
    });
    expect(layer.note).toBe('imported from tashkent_extract.osm.pbf; OSM PBF: nodes and ways only, relations not read (1 would have been features)');
    const layerIndex = artifact.layers.indexOf(layer);
    expect(artifact.points.school?.filter((p) => p[2] === layerIndex)).toEqual([
      [69.265, 41.285, layerIndex, 'School No. 2'],
      [69.279737, 41.311151, layerIndex, 'School No. 1'],
    ]);
  });
});
