/**
 * The upload readers of gateway/rest/upload-readers.ts: a file read as it streams in, in slices of any
 * size (UTF-8 characters and CSV quotes cut in two), gives the items, and the errors, that the same
 * file read whole (in one slice) gives. And the persisted operations the streamed upload sends are valid against
 * the batch subgraph's checked-in SDL, which they are sent to directly.
 */
import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, validate } from 'graphql';
import { APPEND_BATCH_ITEMS_OPERATION, CANCEL_BATCH_OPERATION, OPEN_BATCH_OPERATION } from '../../gateway/operations/batch';
import { csvUploadItems, ndjsonUploadItems } from '../../gateway/rest/upload-readers';
import { ndjsonUploadItem, type BatchItemInput } from '../../schema/batch-contract';
import { ApiError } from '../../schema/errors';
import { SUBGRAPHS } from '../../tools/subgraphs';

async function* slices(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

type Outcome = { items: BatchItemInput[] } | { error: { code: string; field?: string; message: string } };

function errorOf(error: unknown): Outcome {
  if (!(error instanceof ApiError)) throw error;
  return { error: { code: error.code, field: error.field, message: error.message } };
}

async function streamed(read: (source: AsyncIterable<Buffer>) => AsyncGenerator<BatchItemInput>, text: string, size: number): Promise<Outcome> {
  const items: BatchItemInput[] = [];
  try {
    for await (const item of read(slices(text, size))) items.push(item);
    return { items };
  } catch (error) {
    return errorOf(error);
  }
}

/** The file read whole: in one slice. */
const whole = (read: Parameters<typeof streamed>[0], text: string): Promise<Outcome> => streamed(read, text, Math.max(1, Buffer.byteLength(text)));

const CSV_FILES: Record<string, string> = {
  'homes and blanks, BOM, CRLF': '\uFEFFAddress,Area,rooms,floor,total_floors,renovation,mebel\r\n"Юнусабад 8-й квартал, 12",65,3,4,9,Evro,ha\r\n\r\nChilonzor 13-kvartal,,,,,,\r\n"Куйлюк-5, ""A"" blok","80,5",4,2,5,,\r\n',
  'no address column': 'street,area\nx,1\n',
  'a personal-data column': 'address,passport\nx,AA123\n',
  'an unknown column': 'address,colour\nx,red\n',
  'a bad number in row 3': 'address,area\na,50\nb,60\nc,big\nd,70\n',
  'rooms out of range': 'address,rooms\na,99\n',
  'a missing address': 'address,area\n,50\n',
  'a row of the wrong length': 'address,area\na,50\nb\n',
  'an empty file': '',
  'a header alone': 'address\n',
};

const NDJSON_FILES: Record<string, string> = {
  'items with homes and blank lines': '{"address":"Юнусабад 8-й квартал"}\n\n{"address":"Куйлюк-5","home":{"area":65,"rooms":3,"total_floors":9,"floor":4}}\r\n  \n{"address":"Сергели-IV"}',
  'a line that is not JSON': '{"address":"a"}\n{"address":"b"}\n{oops\n',
  'an item without an address': '{"address":"a"}\n{"home":{}}\n',
  'district in a home': '{"address":"a","home":{"district":"Chilanzar"}}\n',
  'personal data in a home': '{"address":"a","home":{"full_name":"x"}}\n',
  'an array instead of an item': '[1,2]\n',
  'a __proto__ key': '{"address":"a"}\n{"__proto__":{"isAdmin":true},"address":"b"}\n',
};

it('refuses an NDJSON line with a __proto__ or constructor.prototype key as the JSON routes do (issue 33, finding 12)', () => {
  expect(() => ndjsonUploadItem('{"__proto__":{"isAdmin":true},"address":"b"}', 2, 1)).toThrow(expect.objectContaining({ code: 'INVALID_JSON', field: 'items[1]' }));
  expect(() => ndjsonUploadItem('{"constructor":{"prototype":{"x":1}},"address":"b"}', 3, 2)).toThrow(expect.objectContaining({ code: 'INVALID_JSON' }));
  // A plain "constructor" key is valid JSON, and so reaches the item's own check: not an item field.
  expect(() => ndjsonUploadItem('{"address":"b","constructor":"ok"}', 4, 3)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER', field: 'items[3].constructor' }));
});

describe.each(Object.entries(CSV_FILES))('CSV: %s', (_name, text) => {
  it.each([1, 2, 3, 7, 64, 65_536])('read in slices of %i bytes gives what the file read whole gives', async (size) => {
    expect(await streamed(csvUploadItems, text, size)).toEqual(await whole(csvUploadItems, text));
  });
});

describe.each(Object.entries(NDJSON_FILES))('NDJSON: %s', (_name, text) => {
  it.each([1, 2, 3, 7, 64, 65_536])('read in slices of %i bytes gives what the file read whole gives', async (size) => {
    expect(await streamed(ndjsonUploadItems, text, size)).toEqual(await whole(ndjsonUploadItems, text));
  });
});

it('the CSV read whole keeps its items, homes in GraphQL names', async () => {
  expect(await whole(csvUploadItems, CSV_FILES['homes and blanks, BOM, CRLF'])).toEqual({
    items: [
      { address: 'Юнусабад 8-й квартал, 12', home: { area: 65, rooms: 3, floor: 4, totalFloors: 9, renovation: 'Evro', furniture: true } },
      { address: 'Chilonzor 13-kvartal' },
      { address: 'Куйлюк-5, "A" blok', home: { area: 80.5, rooms: 4, floor: 2, totalFloors: 5 } },
    ],
  });
});

it('a row longer than 64 K characters is refused by the streamed readers without holding more of it', async () => {
  const long = 'y'.repeat(70_000);
  expect(await streamed(csvUploadItems, `address\n${long}\n`, 4096)).toMatchObject({ error: { code: 'INVALID_PARAMETER', field: 'items', message: expect.stringMatching(/Max Record Size.*65536/) } });
  expect(await streamed(ndjsonUploadItems, `{"address":"a"}\n{"address":"${long}"}\n`, 4096)).toMatchObject({ error: { code: 'INVALID_PARAMETER', field: 'items[1]', message: expect.stringMatching(/Line 2 is longer than 65536/) } });
});

it('what the source throws comes out unchanged', async () => {
  async function* broken(text: string): AsyncGenerator<Buffer> {
    yield Buffer.from(text);
    throw new ApiError('PAYLOAD_TOO_LARGE');
  }
  for (const [read, text] of [[csvUploadItems, 'address\na\nb\n'], [ndjsonUploadItems, '{"address":"a"}\n{"address":"b"}\n']] as const) {
    const seen: string[] = [];
    await expect((async () => {
      for await (const item of read(broken(text))) seen.push(item.address);
    })()).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  }
});

it.each([
  ['open', OPEN_BATCH_OPERATION],
  ['append', APPEND_BATCH_ITEMS_OPERATION],
  ['cancel', CANCEL_BATCH_OPERATION],
])("the upload's %s operation is valid against the batch subgraph's checked-in SDL alone", (_name, operation) => {
  const owner = SUBGRAPHS.find((s) => s.name === operation.owner);
  expect(owner?.name).toBe('batch');
  const schema = buildSubgraphSchema(parse(readFileSync(owner!.sdlPath, 'utf8')));
  expect(validate(schema, parse(operation.query))).toEqual([]);
});
