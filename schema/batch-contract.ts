/**
 * The REST form of batch jobs (docs/ARCHITECTURE.md, "The REST contract" and "A batch job"): the submission body (JSON, CSV
 * or NDJSON) → batch items, with home fields named as the REST home route names them (snake_case,
 * from the home field table), and an item result in REST names and as the values of the results
 * CSV's columns. The limits, the item checks (one JSON item, one NDJSON line, one CSV row under its
 * header) and the JSON Schema; no I/O. The streaming readers of an upload are
 * gateway/rest/upload-readers.ts, the result writers gateway/rest/batch-result-lines.ts; the routes
 * are in gateway/rest/batch.ts.
 */
import { ApiError } from './errors';
import { parseJsonLine } from './json-line';
import { enumValue, fieldBounds, rangeMessage, requestJsonSchema, restBodyToInput, type FieldSpec } from './field-table';
import { HOME_FIELDS } from './home-contract';
import { checkNesting } from './nesting';
import { looksLikePersonalDataKey, looksLikePersonalDataValue } from './personal-data';
import { toMarketAdjustmentRest, type MarketAdjustmentView } from './home-rest';
import { snakeCaseKeys } from './snake-case';

/** Body limit of POST /api/batch with a JSON body, which is read whole. */
export const MAX_BATCH_BODY_BYTES = 20 * 1024 * 1024;
/**
 * Body limit of a CSV or NDJSON upload to POST /api/batch, which streams into the job and is never
 * held whole: what the largest plan's 1,000,000 items take at up to 1 KB a row (a 300-character
 * Cyrillic address with every home column). The plan's maxBatchItems is the real bound.
 */
export const MAX_BATCH_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** The longest row (CSV record or NDJSON line) of an upload, in characters: far above a real one, it bounds what a reader buffers. */
export const MAX_UPLOAD_ROW_CHARS = 64 * 1024;
/** Items per chunk when the submission names none (the batch engine's default). */
export const DEFAULT_CHUNK_SIZE = 1000;
/** As the location subgraph's geocode takes it. */
export const MAX_ADDRESS_LENGTH = 300;
/** Items per chunk, at most (the batch engine's bound too). */
export const MAX_CHUNK_SIZE = 10_000;

/** Home fields a batch item may carry: district and mahalla come from the geocoded address. */
export const BATCH_HOME_FIELDS: readonly FieldSpec[] = HOME_FIELDS.filter((f) => f.rest !== 'district' && f.rest !== 'mahalla');

const HOME_BY_REST_NAME = new Map<string, FieldSpec>();
for (const f of BATCH_HOME_FIELDS) for (const name of [f.rest, ...(f.restAliases ?? [])]) HOME_BY_REST_NAME.set(name, f);

/**
 * How an item's home names its fields: REST's snake_case (and aliases), or GraphQL's camelCase
 * (submitBatch, appendBatchItems). A field is checked, and its error named, in REST's words as
 * every subgraph's errors are: a REST item's by the name it was sent with (an alias stays one), a
 * GraphQL item's by the field's REST name (totalFloors → items[0].home.total_floors).
 */
interface HomeNaming {
  byName: ReadonlyMap<string, FieldSpec>;
  /** What follows an unknown name in its error: what the names are. */
  unknown: string;
  restName(sent: string, f: FieldSpec): string;
}
const REST_NAMING: HomeNaming = {
  byName: HOME_BY_REST_NAME,
  unknown: `is not a home field (${BATCH_HOME_FIELDS.map((f) => f.rest).join(', ')})`,
  restName: (sent) => sent,
};
const GRAPHQL_NAMING: HomeNaming = {
  byName: new Map(BATCH_HOME_FIELDS.map((f) => [f.graphql, f])),
  unknown: `is not a HomeValuationInput field a batch item takes (${BATCH_HOME_FIELDS.map((f) => f.graphql).join(', ')})`,
  restName: (_sent, f) => f.rest,
};

/** A submitBatch item: `home` in GraphQL (camelCase) names. */
export interface BatchItemInput {
  address: string;
  /** The bank's own id of the loan or collateral, echoed in the item's result so results join back by it, not by position. */
  reference?: string;
  home?: Record<string, unknown>;
}

/** How long an item's reference may be. */
export const MAX_REFERENCE_LENGTH = 100;
const REFERENCE_DESCRIPTION = `Optional: your own id of the loan or collateral (at most ${MAX_REFERENCE_LENGTH} characters, no personal data), echoed in the item's result line (NDJSON, CSV, GraphQL) so results join back by it`;

export interface BatchSubmission {
  items: BatchItemInput[];
  callbackUrl?: string;
  chunkSize?: number;
  /** The client's key for this submission: a retry with it gets the first job (REST also takes the Idempotency-Key header). */
  idempotencyKey?: string;
  /** The name of the file the portfolio came from, kept with the job so that a person finds it again. */
  fileName?: string;
}

/** The submitBatch GraphQL input of a submission. */
export function submitBatchInput(submission: BatchSubmission): Record<string, unknown> {
  const { items, callbackUrl, chunkSize, idempotencyKey, fileName } = submission;
  return { items, ...(callbackUrl !== undefined && { callbackUrl }), ...(chunkSize !== undefined && { chunkSize }), ...(idempotencyKey !== undefined && { idempotencyKey }), ...(fileName !== undefined && { fileName }) };
}

/** How long a job's file name may be (a file system's usual limit). */
export const MAX_FILE_NAME_LENGTH = 255;
export const FILE_NAME_DESCRIPTION = `Optional: the name of the file the portfolio came from (at most ${MAX_FILE_NAME_LENGTH} characters; a path is cut to its last part; no personal data), kept with the job and shown with it (GET /api/batch, the dashboard)`;

/**
 * A job's file name as kept: its last path part (a browser may send C:\\fakepath\\…), trimmed;
 * refused when empty, too long, holding control characters or looking like personal data.
 */
export function batchFileName(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ApiError('INVALID_PARAMETER', `${field} must be a string`, field);
  const name = value.split(/[\\/]/).pop()!.trim();
  if (name === '' || name.length > MAX_FILE_NAME_LENGTH) throw new ApiError('INVALID_PARAMETER', `${field} must be a file name of 1 to ${MAX_FILE_NAME_LENGTH} characters`, field);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new ApiError('INVALID_PARAMETER', `${field} must not hold control characters`, field);
  if (looksLikePersonalDataValue(name)) throw new ApiError('PERSONAL_DATA_NOT_ACCEPTED', `${field} looks like personal data (a phone number or an e-mail); name the file after the portfolio instead`, field);
  return name;
}

/** The JSON Schema of the JSON body (published in OpenAPI; the checks are batchItemsFromJson's). */
export function batchRequestJsonSchema(): Record<string, unknown> {
  const home = requestJsonSchema(BATCH_HOME_FIELDS);
  return {
    type: 'object',
    required: ['items'],
    properties: {
      items: {
        type: 'array',
        minItems: 1,
        description: "The portfolio; the plan's maxBatchItems bounds its size. As a file instead: Content-Type text/csv (header row: address, optionally reference, plus optional home columns in snake_case) or application/x-ndjson (one item per line), with callback_url and chunk_size as query parameters.",
        items: {
          type: 'object',
          required: ['address'],
          properties: {
            address: { type: 'string', minLength: 1, maxLength: MAX_ADDRESS_LENGTH, description: 'A Tashkent address in Russian, Uzbek Latin or Cyrillic, or English' },
            reference: { type: 'string', minLength: 1, maxLength: MAX_REFERENCE_LENGTH, description: REFERENCE_DESCRIPTION },
            home: { ...home, required: [], additionalProperties: false, description: 'Optional: the home at the address to value, with the fields of POST /api/predict/home except district and mahalla (they come from the geocoded address); a flat needs area, rooms, floor and total_floors for a valuation; a house (property_type house) needs area and rooms' },
          },
        },
      },
      callback_url: { type: 'string', format: 'uri', description: 'Receives a signed batch.completed webhook (Standard Webhooks) when the job ends' },
      chunk_size: { type: 'integer', minimum: 1, maximum: MAX_CHUNK_SIZE, description: 'Items per chunk (default 1000): the unit of work and of retry' },
      idempotency_key: { type: 'string', minLength: 1, maxLength: 200, description: 'Your key for this submission (a UUID, say), kept 24 hours: a retry with the same key and the same body gets the first job instead of a second; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. REST also takes it as the Idempotency-Key header' },
      file_name: { type: 'string', minLength: 1, maxLength: MAX_FILE_NAME_LENGTH, description: FILE_NAME_DESCRIPTION },
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One home field's value (from JSON, or a CSV cell when `fromText`), type- and range-checked. */
function homeValue(f: FieldSpec, value: unknown, field: string, fromText: boolean): unknown {
  if ((f.kind === 'number' || f.kind === 'integer') && fromText && typeof value === 'string') {
    const parsed = Number(value.trim().replace(',', '.'));
    if (value.trim() === '' || !Number.isFinite(parsed)) throw new ApiError('INVALID_PARAMETER', `${field} must be a number`, field);
    value = parsed;
  }
  switch (f.kind) {
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new ApiError('INVALID_PARAMETER', `${field} must be a number`, field);
      if (f.kind === 'integer' && !Number.isInteger(value)) throw new ApiError('INVALID_PARAMETER', `${field} must be an integer`, field);
      const { min, max } = fieldBounds(f);
      if ((min !== undefined && value < min) || (max !== undefined && value > max)) throw new ApiError('INVALID_PARAMETER', rangeMessage(field, min, max), field);
      return value;
    }
    case 'string':
      if (typeof value !== 'string' || value.trim() === '') throw new ApiError('INVALID_PARAMETER', `${field} must be a non-empty string`, field);
      return value;
    case 'yesno':
      if (typeof value !== 'string' && typeof value !== 'boolean') throw new ApiError('INVALID_PARAMETER', `${field} must be yes/no or true/false`, field);
      return value;
    case 'enum': {
      const spelled = enumValue(f, value);
      if (typeof spelled !== 'string' || !f.values?.includes(spelled)) throw new ApiError('INVALID_PARAMETER', `${field} must be one of ${f.values?.join(', ')}`, field);
      return spelled;
    }
  }
}

/** A home in `naming`'s names → its GraphQL names; `at` is the item's path (items[3]). */
function homeInput(home: unknown, at: string, fromText: boolean, naming: HomeNaming): Record<string, unknown> | undefined {
  if (home === undefined || home === null) return undefined;
  if (!isObject(home)) throw new ApiError('INVALID_PARAMETER', `${at}.home must be an object`, `${at}.home`);
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(home)) {
    const sent = `${at}.home.${name.slice(0, 40)}`;
    if (looksLikePersonalDataKey(name)) throw new ApiError('PERSONAL_DATA_NOT_ACCEPTED', `${sent} looks like personal data; the valuation needs none: remove it`, sent);
    if (name === 'district' || name === 'mahalla') throw new ApiError('INVALID_PARAMETER', `${sent} comes from the geocoded address: leave it out`, sent);
    const spec = naming.byName.get(name);
    if (!spec) throw new ApiError('INVALID_PARAMETER', `${sent} ${naming.unknown}`, sent);
    if (value === undefined || value === null || (fromText && value === '')) continue;
    const restName = naming.restName(name, spec);
    rest[restName] = homeValue(spec, value, `${at}.home.${restName.slice(0, 40)}`, fromText);
  }
  // A yes/no that reads as neither stays text: the worker values the home without it and says so in the item's warnings.
  const input = restBodyToInput(BATCH_HOME_FIELDS, rest, 'keep');
  return Object.keys(input).length > 0 ? input : undefined;
}

function itemInput(item: unknown, at: string, fromText = false, naming = REST_NAMING): BatchItemInput {
  if (!isObject(item)) throw new ApiError('INVALID_PARAMETER', `${at} must be an object with an address`, at);
  for (const [name, value] of Object.entries(item)) checkNesting(value, `${at}.${name.slice(0, 40)}`);
  const { address } = item;
  if (address === undefined || address === null || address === '') throw new ApiError('MISSING_PARAMETER', `${at}.address is required`, `${at}.address`);
  if (typeof address !== 'string' || address.trim() === '') throw new ApiError('INVALID_PARAMETER', `${at}.address must be a non-empty string`, `${at}.address`);
  if (address.length > MAX_ADDRESS_LENGTH) throw new ApiError('INVALID_PARAMETER', `${at}.address is longer than ${MAX_ADDRESS_LENGTH} characters`, `${at}.address`);
  for (const name of Object.keys(item)) {
    if (!ITEM_KEYS.has(name)) throw new ApiError('INVALID_PARAMETER', `${at}.${name.slice(0, 40)} is not an item field (address, reference, home)`, `${at}.${name.slice(0, 40)}`);
  }
  const reference = itemReference(item.reference, `${at}.reference`, fromText);
  const home = homeInput(item.home, at, fromText, naming);
  return { address, ...(reference !== undefined && { reference }), ...(home && { home }) };
}

const ITEM_KEYS = new Set(['address', 'reference', 'home']);

/**
 * A submitBatch or appendBatchItems item (its home in GraphQL names) → the item as stored, checked
 * as a REST item is: the batch subgraph refuses at submission what POST /api/batch and MCP
 * submit_batch refuse, with the same code and field (items[3].home.area). Words the service does
 * not know pass, as on REST, for the worker to value without them and warn.
 */
export function graphqlBatchItem(item: unknown, at: string): BatchItemInput {
  return itemInput(item, at, false, GRAPHQL_NAMING);
}

/** An item's reference: a short text (a number from a spreadsheet is read as its text), never personal data. */
export function itemReference(value: unknown, field: string, fromText: boolean): string | undefined {
  if (value === undefined || value === null || (fromText && value === '')) return undefined;
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || text.trim() === '') throw new ApiError('INVALID_PARAMETER', `${field} must be a non-empty string`, field);
  if (text.length > MAX_REFERENCE_LENGTH) throw new ApiError('INVALID_PARAMETER', `${field} is longer than ${MAX_REFERENCE_LENGTH} characters`, field);
  if (looksLikePersonalDataValue(text)) throw new ApiError('PERSONAL_DATA_NOT_ACCEPTED', `${field} looks like personal data (a phone, passport or PINFL number, an e-mail); use your own loan or collateral id`, field);
  return text.trim();
}

/** callback_url, chunk_size, idempotency_key and file_name, from the JSON body or (for uploads, batchUploadOptions) the query string. */
function options(source: Record<string, unknown>, fromText: boolean): Omit<BatchSubmission, 'items'> {
  const out: Omit<BatchSubmission, 'items'> = {};
  const callback = source.callback_url;
  if (callback !== undefined && callback !== null && callback !== '') {
    if (typeof callback !== 'string') throw new ApiError('INVALID_PARAMETER', 'callback_url must be a string', 'callback_url');
    out.callbackUrl = callback;
  }
  let chunk = source.chunk_size;
  if (chunk !== undefined && chunk !== null && chunk !== '') {
    if (fromText && typeof chunk === 'string') chunk = Number(chunk);
    if (typeof chunk !== 'number' || !Number.isInteger(chunk)) throw new ApiError('INVALID_PARAMETER', 'chunk_size must be an integer', 'chunk_size');
    if (chunk < 1 || chunk > MAX_CHUNK_SIZE) throw new ApiError('INVALID_PARAMETER', rangeMessage('chunk_size', 1, MAX_CHUNK_SIZE), 'chunk_size');
    out.chunkSize = chunk;
  }
  const key = source.idempotency_key;
  if (key !== undefined && key !== null) {
    if (typeof key !== 'string') throw new ApiError('INVALID_PARAMETER', 'idempotency_key must be a string', 'idempotency_key');
    out.idempotencyKey = key;
  }
  const fileName = batchFileName(source.file_name, 'file_name');
  if (fileName !== undefined) out.fileName = fileName;
  return out;
}

/** The JSON body → the submission; throws ApiError naming the field (items[3].home.area). */
export function batchFromJson(body: unknown): BatchSubmission {
  if (!isObject(body)) throw new ApiError('INVALID_PARAMETER', 'The body must be a JSON object with items');
  for (const [name, value] of Object.entries(body)) if (name !== 'items') checkNesting(value, name.slice(0, 40));
  const { items } = body;
  if (items === undefined || items === null) throw new ApiError('MISSING_PARAMETER', 'items is required', 'items');
  if (!Array.isArray(items)) throw new ApiError('INVALID_PARAMETER', 'items must be an array of { address, home? }', 'items');
  return { items: items.map((item, i) => itemInput(item, `items[${i}]`)), ...options(body, false) };
}

/** An upload's callback_url, chunk_size and file_name, from the query string. */
export function batchUploadOptions(query: Record<string, unknown>): Omit<BatchSubmission, 'items'> {
  return options(query, true);
}

/** One line of an NDJSON upload (`lineNumber` from 1) → the item at `index`; undefined for a blank line. */
export function ndjsonUploadItem(line: string, lineNumber: number, index: number): BatchItemInput | undefined {
  const trimmed = line.trim();
  if (trimmed === '') return undefined;
  if (trimmed.length > MAX_UPLOAD_ROW_CHARS) throw uploadRowTooLong(`Line ${lineNumber}`, `items[${index}]`);
  let parsed: unknown;
  try {
    parsed = parseJsonLine(trimmed);
  } catch {
    throw new ApiError('INVALID_JSON', `Line ${lineNumber} is not valid JSON (or carries a __proto__ or constructor.prototype key)`, `items[${index}]`);
  }
  return itemInput(parsed, `items[${index}]`);
}

/** A CSV upload's header row → its column names, lower-cased; refuses a file without an address column, and personal-data or unknown columns. */
export function csvUploadHeader(row: readonly string[] | undefined): string[] {
  const header = (row ?? []).map((name) => name.trim().toLowerCase());
  if (!header.includes('address')) throw new ApiError('MISSING_PARAMETER', 'The CSV header row must name an address column', 'address');
  for (const name of header) {
    if (name === 'address' || name === 'reference') continue;
    if (looksLikePersonalDataKey(name)) throw new ApiError('PERSONAL_DATA_NOT_ACCEPTED', `Column "${name.slice(0, 40)}" looks like personal data; the valuation needs none: remove it`, name.slice(0, 40));
    if (!HOME_BY_REST_NAME.has(name)) throw new ApiError('INVALID_PARAMETER', `Column "${name.slice(0, 40)}" is not address, reference or a home field (${BATCH_HOME_FIELDS.map((f) => f.rest).join(', ')})`, name.slice(0, 40));
  }
  return header;
}

/** One data row of a CSV upload, under its checked header (csvUploadHeader) → the item at `index`. */
export function csvUploadItem(header: readonly string[], row: readonly string[], index: number): BatchItemInput {
  const home: Record<string, unknown> = {};
  let address: unknown;
  let reference: unknown;
  header.forEach((name, column) => {
    if (name === 'address') address = row[column]?.trim();
    else if (name === 'reference') reference = row[column];
    else if (row[column] !== undefined && row[column].trim() !== '') home[name] = row[column].trim();
  });
  return itemInput({ address, ...(reference !== undefined && { reference }), ...(Object.keys(home).length > 0 && { home }) }, `items[${index}]`, true);
}

/** A row (CSV record or NDJSON line) of an upload longer than MAX_UPLOAD_ROW_CHARS, named by `what` (Line 3). */
export function uploadRowTooLong(what: string, field: string): ApiError {
  return new ApiError('INVALID_PARAMETER', `${what} is longer than ${MAX_UPLOAD_ROW_CHARS} characters; no real row is`, field);
}

/** One item result as GraphQL's batchResults gives it. */
export interface BatchItemResultView {
  index: number;
  reference?: string | null;
  ok: boolean;
  result: unknown;
  error: { code: string; message: string } | null;
}

/**
 * A result as REST (and MCP's get_batch_status) gives it: in snake_case like every other REST reply;
 * the home in the names of POST /api/predict/home's reply (market_adjustment's base_interval too).
 */
export function restResultItem(item: BatchItemResultView) {
  return { index: item.index, reference: item.reference ?? null, ok: item.ok, result: item.ok ? restResult(item.result as Record<string, unknown>) : null, error: item.error };
}

function restResult({ home, ...placed }: Record<string, unknown>): Record<string, unknown> {
  if (home === undefined || home === null) return snakeCaseKeys(placed);
  const { marketAdjustment, ...valuation } = home as Record<string, unknown>;
  return { ...snakeCaseKeys(placed), home: { ...snakeCaseKeys(valuation), ...(marketAdjustment !== undefined && { market_adjustment: toMarketAdjustmentRest(marketAdjustment as MarketAdjustmentView | null) }) } };
}

/** The CSV columns of the results: the item, where it was placed, its index, the valuation, or the error. */
export const RESULT_CSV_COLUMNS = [
  'index', 'ok', 'reference', 'address', 'lat', 'lon', 'precision', 'district', 'mahalla', 'composite',
  'property_type', 'estimate', 'currency', 'price_per_m2', 'land_price_per_sotka', 'interval_low', 'interval_high', 'fsd', 'confidence',
  'valuation_date', 'data_age_months', 'base_estimate', 'market_factor', 'new_build_probability', 'error_code', 'error_message',
] as const;

/** The values of a result's CSV row, in the order of RESULT_CSV_COLUMNS (written by gateway/rest/batch-result-lines.ts). */
export function resultCsvValues(item: BatchItemResultView): unknown[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const r = (item.ok ? item.result : {}) as any;
  const home = r?.home;
  const values: Record<(typeof RESULT_CSV_COLUMNS)[number], unknown> = {
    index: item.index,
    ok: item.ok,
    reference: item.reference,
    address: r?.address,
    lat: r?.geocode?.lat,
    lon: r?.geocode?.lon,
    precision: r?.geocode?.precision,
    district: r?.geocode?.district,
    mahalla: r?.geocode?.mahalla,
    composite: r?.locationIndex?.composite,
    property_type: home?.propertyType,
    estimate: home?.estimate,
    currency: home?.currency,
    price_per_m2: home?.pricePerM2,
    land_price_per_sotka: home?.landPricePerSotka,
    interval_low: home?.interval?.low,
    interval_high: home?.interval?.high,
    fsd: home?.fsd,
    confidence: home?.confidence?.level,
    valuation_date: home?.marketLevel?.valuationDate,
    data_age_months: home?.marketLevel?.dataAgeMonths,
    // The organisation's observations moved the estimate: the model's own, and the factor (blank: none).
    base_estimate: home?.marketAdjustment?.baseEstimate,
    market_factor: home?.marketAdjustment?.factor,
    // A flat sent without its market, valued as a mixture of new build and resale (blank: market given, or a house).
    new_build_probability: home?.marketMixture?.newBuildProbability,
    error_code: item.error?.code,
    error_message: item.error?.message,
  };
  return RESULT_CSV_COLUMNS.map((c) => values[c]);
}
