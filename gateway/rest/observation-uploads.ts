/**
 * Observation files as the REST doors and the backtest CLI read them: a CSV (a header row of the
 * item's names) or NDJSON file of observation items, read as it streams in. Each row becomes an item
 * as a JSON body has it (or the ApiError that refuses it in its place), which
 * `toObservationInput` (gateway/operations/observation-items.ts) reads as any other. One reader for
 * POST /api/observations, POST /api/backtest and `npm run backtest`.
 */
import { MAX_UPLOAD_ROW_CHARS } from '../../schema/batch-contract';
import { ApiError } from '../../schema/errors';
import { parseJsonLine } from '../../schema/json-line';
import type { FieldSpec } from '../../schema/field-table';
import { HOME_FIELDS } from '../../schema/home-contract';
import { VEHICLE_FIELDS } from '../../schema/vehicle-contract';
import { csvRows, linesOf } from './upload-readers';

export type UploadType = 'text/csv' | 'application/x-ndjson';

/** Columns read as numbers in a CSV upload: the envelope's price and every numeric field of either kind. */
const NUMERIC_COLUMNS = new Set([
  'price_usd',
  ...[...HOME_FIELDS, ...VEHICLE_FIELDS].filter((f: FieldSpec) => f.kind === 'number' || f.kind === 'integer').flatMap((f) => [f.rest, ...(f.restAliases ?? [])]),
]);

/**
 * A number whose commas group thousands ("72,000", "1,250,000"): refused, not read as 72 or 1.25
 * (issue 33, finding 6). One comma before exactly three digits could be either; neither is guessed.
 */
const GROUPED_THOUSANDS = /^[+-]?\d{1,3}(,\d{3})+$/;

/**
 * A CSV row under its header → an item as a JSON body has it: empty cells left out, numeric columns
 * read as numbers where they are (a decimal comma taken: "65,5"), or the refusal of the row in its
 * place when a numeric cell groups thousands.
 */
function csvObservation(header: readonly string[], row: readonly string[]): Record<string, unknown> | ApiError {
  const item: Record<string, unknown> = {};
  for (const [column, name] of header.entries()) {
    const cell = row[column]?.trim();
    if (cell === undefined || cell === '') continue;
    const numeric = NUMERIC_COLUMNS.has(name);
    if (numeric && GROUPED_THOUSANDS.test(cell)) {
      const meant = cell.split(',').length === 2 ? `${cell.replace(',', '')} or ${cell.replace(',', '.')}` : cell.replace(/,/g, '');
      return new ApiError('INVALID_PARAMETER', `${name} "${cell}" has a thousands separator (or a decimal comma before three digits): write the number without one, ${meant}`, name);
    }
    const number = Number(cell.replace(',', '.'));
    item[name] = numeric && Number.isFinite(number) ? number : cell;
  }
  return item;
}

/** An item of a file with the line it starts on (1-based; a CSV's header is line 1), as a refusal names it. */
export interface NumberedItem {
  line: number;
  item: unknown;
}

/** The items of a CSV (header row: kind, price_usd, observed_at, … and the valuation fields) or NDJSON file, with their lines, as they stream in. */
export async function* numberedObservations(source: AsyncIterable<Buffer | string>, type: UploadType): AsyncGenerator<NumberedItem> {
  let line = 0;
  if (type === 'text/csv') {
    let header: string[] | undefined;
    for await (const row of csvRows(source)) {
      line++;
      if (header) yield { line, item: csvObservation(header, row) };
      else header = row.map((name) => name.trim().toLowerCase());
    }
    return;
  }
  for await (const text of linesOf(source, MAX_UPLOAD_ROW_CHARS, () => new ApiError('INVALID_PARAMETER', `Line ${line + 1} is longer than ${MAX_UPLOAD_ROW_CHARS} characters`, 'observations'))) {
    line++;
    if (text.trim() === '') continue;
    try {
      yield { line, item: parseJsonLine(text) };
    } catch {
      yield { line, item: new ApiError('INVALID_JSON', `Line ${line} is not JSON (or carries a __proto__ or constructor.prototype key)`, 'observations') }; // refused in its place
    }
  }
}

/** The items of a CSV or NDJSON upload, as they stream in. */
export async function* uploadedObservations(source: AsyncIterable<Buffer>, type: UploadType): AsyncGenerator<unknown> {
  for await (const { item } of numberedObservations(source, type)) yield item;
}
