/**
 * The readers of a CSV or NDJSON upload, as its bytes stream in (docs/ARCHITECTURE.md, "A batch job"):
 * the rows of a CSV through csv-parse's streaming parser, the lines of a stream of UTF-8 bytes, and
 * on them the items of a batch upload, each row checked by the batch contract
 * (schema/batch-contract.ts: csvUploadHeader, csvUploadItem, ndjsonUploadItem). No I/O: the readers
 * take whatever bytes they are given; POST /api/batch (gateway/rest/batch.ts) and the observation
 * uploads (gateway/rest/observation-uploads.ts) read with them.
 */
import { StringDecoder } from 'node:string_decoder';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse as parseCsvStream, type Options as CsvOptions } from 'csv-parse';
import { ApiError } from '../../schema/errors';
import { csvUploadHeader, csvUploadItem, MAX_UPLOAD_ROW_CHARS, ndjsonUploadItem, uploadRowTooLong, type BatchItemInput } from '../../schema/batch-contract';

/** How uploads are read as CSV. */
const CSV_READ_OPTIONS: CsvOptions = { bom: true, skip_empty_lines: true, relax_column_count: false, trim: false };

const csvUnreadable = (error: Error) => new ApiError('INVALID_PARAMETER', `The CSV cannot be read: ${error.message.slice(0, 200)}`, 'items');

/**
 * A CSV upload's items as its bytes stream in, through csv-parse's streaming parser: the header
 * row checked first (csvUploadHeader), then each row as it comes (csvUploadItem). Holds
 * one record at a time (at most MAX_UPLOAD_ROW_CHARS); what `source` throws comes out unchanged.
 */
export async function* csvUploadItems(source: AsyncIterable<Buffer | string>): AsyncGenerator<BatchItemInput> {
  let header: string[] | undefined;
  let index = 0;
  for await (const row of csvRows(source)) {
    if (!header) header = csvUploadHeader(row);
    else yield csvUploadItem(header, row, index++);
  }
  if (!header) csvUploadHeader(undefined); // an empty file: no address column
}

/**
 * The rows of a CSV upload (the header row first) as its bytes stream in, through csv-parse's
 * streaming parser: one record held at a time (at most MAX_UPLOAD_ROW_CHARS); an unreadable file
 * is INVALID_PARAMETER; what `source` throws comes out unchanged.
 */
export async function* csvRows(source: AsyncIterable<Buffer | string>): AsyncGenerator<string[]> {
  const parser = parseCsvStream({ ...CSV_READ_OPTIONS, max_record_size: MAX_UPLOAD_ROW_CHARS });
  // Its failures (and the source's) reach the loop below through the parser, which they destroy.
  pipeline(source, parser).catch(() => undefined);
  try {
    yield* parser as AsyncIterable<string[]>;
  } catch (error) {
    // A record longer than MAX_UPLOAD_ROW_CHARS is one of these too, its line named.
    throw error instanceof CsvError ? csvUnreadable(error) : error;
  }
}

/**
 * An NDJSON upload's items as its bytes stream in, line by line (UTF-8 split across chunks
 * included), each line checked by ndjsonUploadItem. Holds one line at a time (a longer
 * one than MAX_UPLOAD_ROW_CHARS is refused); what `source` throws comes out unchanged.
 */
export async function* ndjsonUploadItems(source: AsyncIterable<Buffer | string>): AsyncGenerator<BatchItemInput> {
  let lineNumber = 0;
  let index = 0;
  for await (const line of linesOf(source, MAX_UPLOAD_ROW_CHARS, () => uploadRowTooLong(`Line ${lineNumber + 1}`, `items[${index}]`))) {
    const item = ndjsonUploadItem(line, ++lineNumber, index);
    if (item) {
      index++;
      yield item;
    }
  }
}

/** The lines of a stream of UTF-8 bytes, without their newlines; `tooLong()` is thrown for a line over `maxChars`. */
export async function* linesOf(source: AsyncIterable<Buffer | string>, maxChars: number, tooLong: () => Error): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  for await (const chunk of source) {
    const text = partial + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      if (end - start > maxChars) throw tooLong();
      yield text.slice(start, end);
      start = end + 1;
    }
    partial = text.slice(start);
    if (partial.length > maxChars) throw tooLong();
  }
  partial += decoder.end();
  if (partial !== '') yield partial;
}
