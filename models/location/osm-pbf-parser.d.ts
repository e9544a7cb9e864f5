/** osm-pbf-parser 2 ships no types: the parts ./osm-pbf.ts uses. */
declare module 'osm-pbf-parser' {
  namespace parseOsmPbf {
    /** Tags as the parser gives them: every element has an object, empty when untagged. */
    type OsmTags = Record<string, string>;
    interface OsmInfo { version: number; timestamp: number; changeset: number; uid: number; user: string; visible?: boolean }
    /** Degrees, as `granularity · n + offset` (not rounded: 41.311151 may come out as 41.311151000000004). */
    interface OsmNode { type: 'node'; id: number; lat: number; lon: number; tags: OsmTags; info?: OsmInfo }
    /** `refs`: the member node ids, in order (a closed way repeats its first node last). */
    interface OsmWay { type: 'way'; id: number; tags: OsmTags; refs: number[]; info?: OsmInfo }
    interface OsmRelation {
      type: 'relation'; id: number; tags: OsmTags;
      members: { type: 'node' | 'way' | 'relation' | '?'; id: number; role: string }[];
      info?: OsmInfo;
    }
    type OsmItem = OsmNode | OsmWay | OsmRelation;
  }

  /**
   * A transform stream (readable-stream 2, object mode on the readable side): write the bytes of an
   * .osm.pbf file, read one array of items per data block (DenseNodes, ways, relations; plain Node
   * messages are not decoded). The file must start with its OSMHeader block. Corrupt or non-zlib
   * blocks make the parser throw (a string, not an 'error' event); inflate errors are 'error' events.
   */
  function parseOsmPbf(): NodeJS.ReadWriteStream;
  export = parseOsmPbf;
}
