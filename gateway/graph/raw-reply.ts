/**
 * A subgraph's reply written to the client as the bytes it came in (issue 34, item 2: large bulk
 * replies). When the single-subgraph path (./single-fetch.ts) answers an HTTP /graphql query with a
 * subgraph's reply, the gateway's own work on a 100-item homeValuations was mostly turning 200 KB of
 * JSON into objects (undici's `json()`) and back into JSON (Apollo Server's `prettyJSONStringify`),
 * to write the same characters it read: the reply is the subgraph's, key for key.
 *
 * So the reply's `data` travels through Apollo Server as a `RawData`, which serialises as a token;
 * the /graphql handler (gateway/http/app.ts) then writes the response with the subgraph's bytes in
 * the token's place. Apollo Server's own pipeline (plugins, status, headers, anything it adds
 * beside `data`) runs as for any reply. Only a request that carries a `RawReplySlot` (HTTP /graphql)
 * gets one: REST routes and MCP tools read `data` as objects.
 */

/** Never in a JSON text a client can make us write: a NUL character is always escaped, and the key precedes it. */
const TOKEN = '\u0000subgraph-reply';
const DATA_KEY = '"data":';
const DATA_TOKEN = `${DATA_KEY}${JSON.stringify(TOKEN)}`;
/** A reply of data alone starts with this; its data object starts at the last brace. */
const DATA_PREFIX = Buffer.from(`{${DATA_KEY}{`);
const EXTENSIONS_KEY = Buffer.from('"extensions":');
const CLOSE = 0x7d; // }

/** A reply's `data` kept as the subgraph's JSON bytes; JSON.stringify writes its token, which `RawReplySlot.write` replaces. */
export class RawData {
  constructor(readonly json: Buffer) {}

  toJSON(): string {
    return TOKEN;
  }
}

/** Where the single-subgraph path leaves the bytes of a request's reply for the HTTP handler. */
export class RawReplySlot {
  data: RawData | null = null;

  /** The response body Apollo Server wrote, with the subgraph's bytes in place of the token. */
  write(body: string): string | Buffer {
    const data = this.data;
    if (!data) return body;
    this.data = null;
    const at = body.indexOf(DATA_TOKEN);
    if (at < 0) throw new Error('a raw subgraph reply lost its place in the response');
    const start = at + DATA_KEY.length;
    return Buffer.concat([Buffer.from(body.slice(0, start)), data.json, Buffer.from(body.slice(at + DATA_TOKEN.length))]);
  }
}

/**
 * The `data` of a subgraph reply body as bytes when the body is `{"data":{…}}` and nothing else,
 * else null (the caller parses it). Our subgraphs answer with Apollo Server, which writes `errors`
 * before `data` and `extensions` after it: a body starting `{"data":{` has no errors, and one
 * without `"extensions":` anywhere has no extensions (inside data that text can only be a response
 * key named extensions, since quotes in strings are escaped: such a reply is parsed, as before).
 */
export function dataBytesOf(body: Buffer): Buffer | null {
  if (body.length < DATA_PREFIX.length + 2 || body.compare(DATA_PREFIX, 0, DATA_PREFIX.length, 0, DATA_PREFIX.length) !== 0) return null;
  let end = body.length - 1;
  while (end > 0 && (body[end] === 0x0a || body[end] === 0x0d || body[end] === 0x20 || body[end] === 0x09)) end--;
  // The data object's close and the reply's: a body cut short is parsed (and refused) as before.
  if (body[end] !== CLOSE || body[end - 1] !== CLOSE || body.includes(EXTENSIONS_KEY)) return null;
  return body.subarray(DATA_PREFIX.length - 1, end);
}
