/**
 * Reading an OpenStreetMap PBF extract (`.osm.pbf`, a whole city is tens of MB) into a point layer,
 * streaming it through osm-pbf-parser: the items of one block at a time, never the whole file.
 *
 * The same classification as the Overpass reader (./layers.ts, `categoryOf`: the tag table with the
 * layer's `keep` or `category`), and the same point per place: a node's own position, a way's
 * bounding-box centre over its member nodes (what Overpass's `out center` gives), so a school mapped
 * as a building polygon lands on the same point from a PBF as from Overpass JSON. Coordinates are
 * rounded to OSM's 1e-7° (the parser's `granularity · n` has float noise), as Overpass prints them.
 *
 * Two passes over the file, because a way lists node ids and its nodes come earlier in the file:
 *   1. classify tagged nodes (kept as points at once) and tagged ways (kept as a category, a name and
 *      their member node ids as slots into two coordinate arrays); count classified relations;
 *   2. fill in the coordinates of those member nodes only, stopping at the first way when the header
 *      says the file is sorted (nodes first, osmium's and Geofabrik's extracts are) or once all are found.
 * Memory is what the layer keeps (its points, and one id → slot entry and two float64s per member node
 * of a classified way: tens of thousands for a city), independent of the extract's size and order.
 * Holding every node's coordinates instead (one pass) would take ~24 bytes × every node (millions in a
 * city, a country extract would not fit) and rely on the file's sort order; the second pass costs time
 * (the parser decodes the file again), not memory, and only for the node blocks when sorted.
 *
 * Relations (multipolygon parks, schools mapped as several buildings) are not read: they are counted
 * (`relationsNotRead`, those the table would classify) so the importer can say so in the layer's note.
 *
 * Features: the elements the table classifies for this layer (a full extract's roads, buildings and
 * untagged geometry are not features of it); skipped: those that could not be placed (a way whose member
 * nodes are all missing from the extract). An Overpass export also counts tagged elements the table
 * does not classify as skipped, because its query asked for them.
 */
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { inflateSync } from 'node:zlib';
import { Reader } from 'protobufjs/minimal';
import parseOsmPbf = require('osm-pbf-parser');
import type { Category } from './categories';
import type { Tags } from './classify';
import {
  boxCentre, featureName, PointCollector, UnsupportedLayerFormatError,
  type LayerOptions, type LoadedLayer, type Position,
} from './layers';

type OsmItem = parseOsmPbf.OsmItem;

export interface OsmPbfLayer extends LoadedLayer {
  format: 'osm-pbf';
  /** Elements in the file, by type. */
  read: { nodes: number; ways: number; relations: number };
  /** Relations the tag table classifies for this layer: not read, so missing from the points. */
  relationsNotRead: number;
  /** Member nodes of classified ways whose coordinates were kept (pass 2). */
  wayNodes: number;
}

export const isOsmPbf = (file: string): boolean => basename(file).toLowerCase().endsWith('.pbf');

/** The required features osm-pbf-parser decodes (plain Node messages too, in principle, but it skips them with a warning). */
const READABLE_FEATURES = ['OsmSchema-V0.6', 'DenseNodes'];
/** Limits from the format's specification: a BlobHeader under 64 KiB, a Blob under 32 MiB. */
const MAX_BLOB_HEADER = 64 * 1024;
const MAX_BLOB = 32 * 1024 * 1024;

interface OsmHeader {
  /** Nodes come before ways (optional feature Sort.Type_then_ID). */
  sorted: boolean;
  /** The replication timestamp, when the extract states it (Geofabrik's do): ISO 8601 to the second. */
  timestamp: string | null;
}

class NotPbfError extends UnsupportedLayerFormatError {
  constructor(file: string, why: string) {
    super(file, `not an OpenStreetMap PBF file (${why})`);
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer | null> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return bytesRead === length ? buffer : null;
}

/** The fields of one protobuf message, by field number (strings and bytes as bytes, varints as numbers). */
function messageFields(bytes: Uint8Array, wanted: Record<number, 'bytes' | 'varint'>): Map<number, (Uint8Array | number)[]> {
  const reader = Reader.create(bytes);
  const fields = new Map<number, (Uint8Array | number)[]>();
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const kind = wanted[field];
    if (kind === undefined) {
      reader.skipType(tag & 7);
      continue;
    }
    const values = fields.get(field) ?? [];
    values.push(kind === 'bytes' ? reader.bytes() : Number(reader.int64().toString()));
    fields.set(field, values);
  }
  return fields;
}

const text = (value: Uint8Array | number | undefined): string | undefined =>
  (typeof value === 'object' ? Buffer.from(value).toString('utf8') : undefined);

/**
 * The file's first block, which must be its OSMHeader: checked here so that another file, a history
 * file or a compression osm-pbf-parser does not read is refused with a reason (the parser would throw
 * or read garbage), and for the header's sort order and replication timestamp.
 */
async function readOsmHeader(file: string): Promise<OsmHeader> {
  const handle = await open(file, 'r');
  let header: Map<number, (Uint8Array | number)[]>;
  try {
    const size = await readAt(handle, 0, 4);
    const headerLength = size === null ? 0 : size.readUInt32BE(0);
    if (headerLength === 0 || headerLength > MAX_BLOB_HEADER) throw new NotPbfError(file, 'no block header at the start');
    const blobHeaderBytes = await readAt(handle, 4, headerLength);
    if (blobHeaderBytes === null) throw new NotPbfError(file, 'truncated');
    let blobHeader: Map<number, (Uint8Array | number)[]>;
    try {
      blobHeader = messageFields(blobHeaderBytes, { 1: 'bytes', 3: 'varint' });
    } catch {
      throw new NotPbfError(file, 'no block header at the start');
    }
    const type = text(blobHeader.get(1)?.[0]);
    const dataSize = Number(blobHeader.get(3)?.[0] ?? 0);
    if (type !== 'OSMHeader' || dataSize <= 0 || dataSize > MAX_BLOB) throw new NotPbfError(file, 'the first block is not an OSMHeader');
    const blobBytes = await readAt(handle, 4 + headerLength, dataSize);
    if (blobBytes === null) throw new NotPbfError(file, 'truncated');
    // Blob: 1 raw, 3 zlib_data, 4 lzma_data, 5 bzip2 (obsolete), 6 lz4_data, 7 zstd_data.
    const blob = messageFields(blobBytes, { 1: 'bytes', 3: 'bytes', 4: 'bytes', 5: 'bytes', 6: 'bytes', 7: 'bytes' });
    const zlibData = blob.get(3)?.[0];
    if (typeof zlibData !== 'object') {
      const kind = blob.has(1) ? 'uncompressed' : blob.has(6) ? 'LZ4' : blob.has(7) ? 'zstd' : blob.has(4) ? 'LZMA' : 'bzip2';
      throw new UnsupportedLayerFormatError(file, `its blocks are ${kind}; the PBF parser reads zlib-compressed blocks only: `
        + 'rewrite it with `osmium cat FILE -o city.osm.pbf -f pbf,pbf_compression=zlib`');
    }
    // HeaderBlock: 4 required_features, 5 optional_features, 32 osmosis_replication_timestamp (seconds).
    header = messageFields(inflateSync(zlibData), { 4: 'bytes', 5: 'bytes', 32: 'varint' });
  } catch (error) {
    if (error instanceof UnsupportedLayerFormatError) throw error;
    throw new NotPbfError(file, `its header block does not decode: ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
  const required = (header.get(4) ?? []).map(text);
  const optional = (header.get(5) ?? []).map(text);
  if (required.includes('HistoricalInformation')) {
    throw new UnsupportedLayerFormatError(file, 'a history file (old and deleted versions of every element): import a current extract');
  }
  const unknown = required.filter((feature) => !READABLE_FEATURES.includes(feature ?? ''));
  if (unknown.length > 0) throw new UnsupportedLayerFormatError(file, `it needs features the PBF parser does not read: ${unknown.join(', ')}`);
  const seconds = Number(header.get(32)?.[0] ?? 0);
  return {
    sorted: optional.includes('Sort.Type_then_ID'),
    timestamp: seconds > 0 ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z') : null,
  };
}

/**
 * Streams the file through the parser, calling `visit` on each item; resolves at the end, or as soon
 * as `enough()` (asked after each block) says so, leaving the rest of the file unread.
 */
function eachItem(file: string, visit: (item: OsmItem) => void, enough: () => boolean = () => false): Promise<void> {
  return new Promise((resolve, reject) => {
    const input = createReadStream(file);
    const parser = parseOsmPbf();
    let finished = false;
    const finish = (error?: unknown): void => {
      if (finished) return;
      finished = true;
      input.unpipe(parser);
      input.destroy();
      if (error === undefined) resolve();
      else reject(error);
    };
    input.on('error', finish);
    parser.on('error', finish);
    parser.on('end', () => finish());
    parser.on('data', (items: OsmItem[]) => {
      if (finished) return;
      try {
        for (const item of items) visit(item);
      } catch (error) {
        finish(error);
        return;
      }
      if (enough()) finish();
    });
    input.pipe(parser);
  });
}

/** Degrees on OSM's 1e-7° grid: the value Overpass prints and JSON.parse reads back. */
const osmDegrees = (degrees: number): number => Math.round(degrees * 1e7) / 1e7;

const hasTags = (tags: Tags): boolean => Object.keys(tags).length > 0;

interface KeptWay { category: Category; name: string | undefined; slots: Int32Array }

/** Reads an .osm.pbf file (two streaming passes, see above) into a layer for `options`. */
export async function readOsmPbf(file: string, options: LayerOptions): Promise<OsmPbfLayer> {
  const header = await readOsmHeader(file);
  const collector = new PointCollector(options);
  const read = { nodes: 0, ways: 0, relations: 0 };
  let relationsNotRead = 0;
  /** Member node id → its slot in `lons`/`lats`. */
  const slotOf = new Map<number, number>();
  const ways: KeptWay[] = [];
  const slot = (id: number): number => {
    let index = slotOf.get(id);
    if (index === undefined) {
      index = slotOf.size;
      slotOf.set(id, index);
    }
    return index;
  };

  // Pass 1: classify.
  await eachItem(file, (item) => {
    if (item.type === 'node') read.nodes++;
    else if (item.type === 'way') read.ways++;
    else read.relations++;
    if (!hasTags(item.tags)) return; // geometry of other elements, not a feature
    const category = collector.categoryOf(item.tags);
    if (category === null) return;
    if (item.type === 'node') {
      const placed = Number.isFinite(item.lon) && Number.isFinite(item.lat);
      collector.add(placed ? [osmDegrees(item.lon), osmDegrees(item.lat)] : null, category, featureName(item.tags));
    } else if (item.type === 'way') {
      ways.push({ category, name: featureName(item.tags), slots: Int32Array.from(item.refs, slot) });
    } else {
      relationsNotRead++;
    }
  });

  // Pass 2: the coordinates of the kept ways' member nodes.
  const lons = new Float64Array(slotOf.size).fill(Number.NaN);
  const lats = new Float64Array(slotOf.size).fill(Number.NaN);
  let missing = slotOf.size;
  let pastNodes = false;
  if (missing > 0) {
    await eachItem(file, (item) => {
      if (item.type !== 'node') {
        pastNodes = true;
        return;
      }
      const index = slotOf.get(item.id);
      if (index === undefined || !Number.isNaN(lons[index]) || !Number.isFinite(item.lon) || !Number.isFinite(item.lat)) return;
      lons[index] = osmDegrees(item.lon);
      lats[index] = osmDegrees(item.lat);
      missing--;
    }, () => missing === 0 || (header.sorted && pastNodes));
  }
  for (const way of ways) {
    const vertices: Position[] = [];
    for (const index of way.slots) if (!Number.isNaN(lons[index])) vertices.push([lons[index], lats[index]]);
    collector.add(boxCentre(vertices), way.category, way.name);
  }

  return {
    ...collector.finish('osm-pbf', null, header.timestamp),
    format: 'osm-pbf',
    read,
    relationsNotRead,
    wayNodes: slotOf.size - missing,
  };
}
