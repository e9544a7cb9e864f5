/**
 * Batch jobs over REST (X-API-Key; docs/ARCHITECTURE.md, "The REST contract" and "A batch job"), translated into the batch
 * subgraph's operations (gateway/operations/batch.ts):
 * - POST /api/batch with a JSON body → `submitBatch` → 202 { id, status }.
 * - POST /api/batch with a CSV or NDJSON file: read as it streams in, row by row, and sent on in
 *   parts of whole chunks (`openBatch` once the first part is read and valid, then
 *   `appendBatchItems`, the final part with last), so no hop ever holds the whole file → 202.
 * - GET /api/batch/{id}: `batchJob` → the job in snake_case; another organisation's id is NOT_FOUND.
 * - GET /api/batch/{id}/results: `batchResults`, paged 1000 at a time and written page by page as
 *   NDJSON (or CSV with Accept: text/csv or ?format=csv), so memory does not grow with the job.
 */
import type { IncomingMessage } from 'node:http';
import { Readable, Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import {
  DEFAULT_CHUNK_SIZE,
  MAX_BATCH_BODY_BYTES,
  MAX_BATCH_UPLOAD_BYTES,
  batchFromJson,
  batchRequestJsonSchema,
  batchUploadOptions,
  type BatchItemInput,
  type BatchItemResultView,
} from '../../schema/batch-contract';
import { csvUploadItems, ndjsonUploadItems } from './upload-readers';
import { resultCsvHeader, resultCsvRow, resultNdjsonLine } from './batch-result-lines';
import { ApiError, formatBytes, payloadTooLarge } from '../../schema/errors';
import type { Graph } from '../graph/apollo';
import { registerUploadScope } from './upload-scope';
import { SECURITY, withExample } from '../ops/openapi';
import { gatewayExecutor, type GraphExecutor } from '../graph/executor';
import {
  APPEND_BATCH_ITEMS_OPERATION,
  batchJobOf,
  batchResultsPage,
  CANCEL_BATCH_OPERATION,
  OPEN_BATCH_OPERATION,
  submitBatch,
  toAcceptedJobResponse,
  toJobResponse,
  type AcceptedJob,
  type BatchResultsData,
} from '../operations/batch';
import { batchAcceptedResponseJsonSchema, batchJobResponseJsonSchema, batchResultLineJsonSchema, errorResponseJsonSchema } from '../operations/response-schemas';
import { unpaced } from '../http/bulk-pacing';

/** Results per batchResults page (the most the query gives). */
export const RESULTS_PAGE_SIZE = 1000;

/** Items per appendBatchItems call of an upload, about: each a few hundred KB of variables. */
const UPLOAD_PART_ITEMS = 5000;

/** Items per part of an upload: whole chunks of the job, as many as make about UPLOAD_PART_ITEMS (one at least). */
export function uploadPartSize(chunkSize: number): number {
  return chunkSize * Math.max(1, Math.floor(UPLOAD_PART_ITEMS / chunkSize));
}

const errors = { '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() };
const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };

const SUBMIT_DESCRIPTION = `202 with { id, status: "queued" } and a Location header; poll GET /api/batch/{id}, read GET /api/batch/{id}/results, or subscribe to batchProgress(id) over graphql-ws on /graphql. The body is JSON as below (up to ${formatBytes(MAX_BATCH_BODY_BYTES)}), or a file: Content-Type text/csv (header row: address plus optional home columns in snake_case, e.g. area,rooms,floor,total_floors,renovation) or application/x-ndjson (one { "address", "home" } a line), with callback_url and chunk_size as query parameters, up to ${formatBytes(MAX_BATCH_UPLOAD_BYTES)} (enough for the enterprise plan's 1,000,000 rows): a file is read as it streams in and its job fills while it uploads. Past the size: 413 PAYLOAD_TOO_LARGE; more items than the plan's maxBatchItems: 400 INVALID_PARAMETER on items. A file's bad row answers 400 naming it (items[1234].home.area); found after the job was opened, it also cancels the job, whose id the message gives.`;
const SUBMIT_EXAMPLE = { items: [{ address: 'Chilonzor tumani, Qatortol MFY', home: { area: 65, rooms: 3, floor: 4, total_floors: 9 } }, { address: 'Юнусабад 8-й квартал' }] };
const RESULTS_DESCRIPTION = 'application/x-ndjson: one { index, reference, ok, result, error } a line in snake_case (the schema below is one line); ?offset=N&limit=M: the results of items N to N+M-1 only (a Batch-Next-Offset header gives the next page\'s offset while the job holds more items). With Accept: text/csv or ?format=csv: CSV with a header row (index, ok, reference, address, lat, lon, precision, district, mahalla, composite, property_type, estimate, currency, price_per_m2, land_price_per_sotka, interval_low, interval_high, fsd, confidence, valuation_date, data_age_months, base_estimate, market_factor, new_build_probability, error_code, error_message; base_estimate and market_factor are filled when your organisation\'s observations moved the estimate, as home.marketAdjustment in a line; new_build_probability when a flat was sent without its market and valued as new build and resale mixed, as home.marketMixture in a line); a text cell starting with =, +, -, @, tab or carriage return is prefixed with a single quote, so that a spreadsheet shows it rather than running it as a formula. While the job runs, the results recorded so far.';

/** The Idempotency-Key header, where one was sent. */
function idempotencyHeader(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return Array.isArray(value) ? value[0] : value;
}

/** A JSON body: read whole (by fastify, within MAX_BATCH_BODY_BYTES), submitted in one call. */
async function submitJson(graph: Graph, request: FastifyRequest): Promise<AcceptedJob> {
  const submission = batchFromJson(request.body);
  const header = idempotencyHeader(request);
  if (header !== undefined && submission.idempotencyKey !== undefined && header !== submission.idempotencyKey) {
    throw new ApiError('INVALID_PARAMETER', 'The Idempotency-Key header and the body\'s idempotency_key differ: send one', 'Idempotency-Key');
  }
  return submitBatch(gatewayExecutor(graph, request), { ...submission, ...(header !== undefined && { idempotencyKey: header }) });
}

/**
 * A CSV or NDJSON upload, read as it streams in and sent on a part at a time: the job is opened
 * once the first part is read and every row of it valid (a bad header, a bad first row or an empty
 * file creates none), and each part is held back until the next row shows it is not the last. A
 * refusal once the job is open (a bad row, the plan's limit, the quota, the key revoked meanwhile) cancels the job and names
 * it in the message. A client that disconnects leaves the job open: the stalled-submission sweep
 * fails it (BATCH_SUBMISSION_TIMEOUT_MS), as it does when the gateway dies mid-upload.
 */
async function submitUpload(graph: Graph, request: FastifyRequest, reply: FastifyReply, type: 'text/csv' | 'application/x-ndjson'): Promise<AcceptedJob> {
  const { callbackUrl, chunkSize = DEFAULT_CHUNK_SIZE, idempotencyKey, fileName } = batchUploadOptions((request.query ?? {}) as Record<string, unknown>);
  // A file is read as it streams: its job is made before the file is whole, so a retry could not be told from another file.
  if (idempotencyKey !== undefined || idempotencyHeader(request) !== undefined) {
    throw new ApiError('INVALID_PARAMETER', 'Idempotency-Key is taken with a JSON body (or GraphQL submitBatch, MCP submit_batch), not with a file upload: a file\'s job fills while it streams. To retry an upload safely, read GET /api/batch first', 'Idempotency-Key');
  }
  if (Number(request.headers['content-length']) > MAX_BATCH_UPLOAD_BYTES) {
    reply.header('connection', 'close'); // not a byte of it will be read
    throw uploadTooLarge();
  }
  const body = new UploadBody(request.raw, MAX_BATCH_UPLOAD_BYTES);
  const executor = gatewayExecutor(graph, request);
  const partSize = uploadPartSize(chunkSize);
  const pace = request.bulkLane ?? unpaced;
  let id: string | undefined;
  let part: BatchItemInput[] = [];
  const send = async (last: boolean): Promise<AcceptedJob> => {
    // A key revoked mid-upload stops it before its next part (issue 33, finding 7); the job is cancelled below.
    const revoked = await request.credentialsRecheck?.();
    if (revoked) throw revoked;
    id ??= (await executor.execute<{ openBatch: { id: string } }>(OPEN_BATCH_OPERATION, { input: { chunkSize, ...(callbackUrl !== undefined && { callbackUrl }), ...(fileName !== undefined && { fileName }) } })).openBatch.id;
    const { appendBatchItems } = await pace.run(() => executor.execute<{ appendBatchItems: AcceptedJob }>(APPEND_BATCH_ITEMS_OPERATION, { id, items: part, last }));
    part = [];
    return appendBatchItems;
  };
  try {
    for await (const item of (type === 'text/csv' ? csvUploadItems : ndjsonUploadItems)(body.stream)) {
      if (part.length === partSize) await send(false);
      part.push(item);
    }
    if (part.length === 0) throw new ApiError('MISSING_PARAMETER', 'items must hold at least one item', 'items');
    return await send(true);
  } catch (error) {
    if (body.clientGone) throw error; // no one to answer; the job, if any, waits for the sweep
    if (body.discardRest() === 'close') reply.header('connection', 'close');
    if (id !== undefined) await cancelAbandoned(executor, id, error);
    throw error;
  }
}

/** Cancels the job of an upload refused part-way, and says so in the refusal (an ApiError's message names the job). */
async function cancelAbandoned(executor: GraphExecutor, id: string, error: unknown): Promise<void> {
  let outcome = 'could not be cancelled: cancel it, or let it run';
  try {
    const { status } = (await executor.execute<{ cancelBatch: { status: string } }>(CANCEL_BATCH_OPERATION, { id })).cancelBatch;
    outcome = status === 'cancelled' ? 'was cancelled: fix the file and upload it again' : `is ${status}`;
  } catch {
    // The refusal still goes out, with the job named.
  }
  if (error instanceof ApiError && !error.message.includes(id)) error.message = `${error.message} (batch job ${id} ${outcome})`;
}

export const uploadTooLarge = () => payloadTooLarge(MAX_BATCH_UPLOAD_BYTES, 'split the file');

/**
 * An upload's body as it streams in, counted: past `maxBytes` it fails with 413
 * PAYLOAD_TOO_LARGE. The request is read through `stream` and never destroyed by it, so that a
 * refusal can still be answered.
 */
export class UploadBody {
  readonly stream: Transform;
  /** The client disconnected before the body ended. */
  clientGone = false;
  private received = 0;

  constructor(
    private readonly raw: IncomingMessage,
    private readonly maxBytes: number,
  ) {
    this.stream = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.received += chunk.length;
        done(this.received > maxBytes ? uploadTooLarge() : null, chunk);
      },
    });
    const cutOff = (error?: Error) => {
      if (raw.complete && !error) return;
      this.clientGone = true;
      this.stream.destroy(new ApiError('INVALID_PARAMETER', 'The connection closed before the upload ended'));
    };
    raw.once('error', cutOff);
    raw.once('close', () => cutOff());
    raw.pipe(this.stream);
  }

  /**
   * After a refusal: the rest of the body is read and dropped, counted against the limit, so that
   * a client sending the whole file before it reads the answer still gets it. 'close' when the
   * connection must close after the answer (the body is over the limit: it is not read on).
   */
  discardRest(): 'keep' | 'close' {
    this.raw.unpipe(this.stream);
    if (this.received > this.maxBytes) return 'close';
    if (this.raw.complete) return 'keep';
    this.raw.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      if (this.received > this.maxBytes) this.raw.destroy();
    });
    this.raw.resume();
    return 'keep';
  }
}

function wantsCsv(request: FastifyRequest): boolean {
  const format = (request.query as Record<string, unknown> | undefined)?.format;
  if (format === 'csv') return true;
  if (format === 'ndjson' || format === 'json') return false;
  const accept = String(request.headers.accept ?? '').toLowerCase();
  return accept.includes('text/csv') && !accept.includes('application/x-ndjson');
}

/** The recorded results from item `from` on, at most `limit` of them (all without), a page at a time (paced: gateway/http/bulk-pacing.ts): only one page is held at once. */
async function* resultPages(graph: Graph, request: FastifyRequest, id: string, from = 0, limit = Infinity): AsyncGenerator<BatchItemResultView[]> {
  const executor = gatewayExecutor(graph, request);
  const pace = request.bulkLane ?? unpaced;
  let left = limit;
  for (let offset: number | null = from; offset !== null && left > 0; ) {
    const at: number = offset;
    const page: BatchResultsData = await pace.run(() => batchResultsPage(executor, id, at, Math.min(RESULTS_PAGE_SIZE, left)));
    yield page.items;
    left -= page.items.length;
    offset = page.nextOffset;
  }
}

/** ?offset and ?limit of the results route. */
const resultsQuery = {
  type: 'object',
  properties: {
    format: { type: 'string', enum: ['csv', 'ndjson', 'json'], description: 'csv for CSV (as Accept: text/csv); ndjson or json for NDJSON (the default)' },
    offset: { type: 'integer', minimum: 0, description: 'Index of the first item whose result to send (default 0)' },
    limit: { type: 'integer', minimum: 1, description: 'At most this many results (default: all recorded)' },
  },
};

export function registerBatchRoutes(app: FastifyInstance, graph: Graph, auth: { apiKey: preHandlerAsyncHookHandler }): void {
  // The request stream is read as it comes (submitUpload); a JSON body over the limit gets advice for portfolios.
  registerUploadScope(app, 'split the portfolio', (scope) => {

    const submitSchema = {
      tags: ['batch'],
      summary: 'Submit a batch of addresses (optionally with homes) for background valuation (API key)',
      description: SUBMIT_DESCRIPTION,
      security: SECURITY.apiKey,
      body: {
        content: {
          'application/json': { schema: withExample(batchRequestJsonSchema(), SUBMIT_EXAMPLE) },
          'text/csv': { schema: { type: 'string', description: 'Header row: address plus optional home columns in snake_case' } },
          'application/x-ndjson': { schema: { type: 'string', description: 'One { "address", "home" } object a line' } },
        },
      },
      response: { 202: batchAcceptedResponseJsonSchema(), ...errors },
    };
    scope.post('/api/batch', { bodyLimit: MAX_BATCH_BODY_BYTES, onRequest: auth.apiKey, schema: submitSchema, config: { bulk: true } }, async (request, reply) => {
      const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const job = type === 'text/csv' || type === 'application/x-ndjson' ? await submitUpload(graph, request, reply, type) : await submitJson(graph, request);
      reply.code(202).header('location', `/api/batch/${encodeURIComponent(job.id)}`);
      // As Stripe says it: this answer is the first submission's job, nothing new was submitted or charged.
      if (job.idempotentReplay) reply.header('idempotent-replayed', 'true');
      return toAcceptedJobResponse(job);
    });

    const jobSchema = {
      tags: ['batch'],
      summary: 'A batch job: status, progress, timestamps and webhook deliveries (API key)',
      description: "Another organisation's job, or an unknown id: 404 NOT_FOUND.",
      security: SECURITY.apiKey,
      params: idParam,
      response: { 200: batchJobResponseJsonSchema(), ...errors },
    };
    scope.get('/api/batch/:id', { preHandler: auth.apiKey, schema: jobSchema }, async (request) => {
      const { id } = request.params as { id: string };
      return toJobResponse(await batchJobOf(gatewayExecutor(graph, request), id));
    });

    const resultsSchema = {
      tags: ['batch'],
      summary: "A batch job's item results, in item order, streamed (API key)",
      description: RESULTS_DESCRIPTION,
      security: SECURITY.apiKey,
      params: idParam,
      querystring: resultsQuery,
      response: {
        // A stream: fastify sends it as it is; the schema is one NDJSON line.
        200: { content: { 'application/x-ndjson': { schema: batchResultLineJsonSchema() }, 'text/csv': { schema: { type: 'string', description: 'CSV with a header row' } } } },
        ...errors,
      },
    };
    scope.get('/api/batch/:id/results', { preHandler: auth.apiKey, schema: resultsSchema, config: { bulk: true } }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const job = await batchJobOf(gatewayExecutor(graph, request), id); // 404 before anything is streamed
      const csv = wantsCsv(request);
      const { offset = 0, limit } = request.query as { offset?: number; limit?: number };
      async function* body(): AsyncGenerator<string> {
        if (csv) yield resultCsvHeader();
        for await (const page of resultPages(graph, request, id, offset, limit)) {
          if (page.length === 0) continue;
          yield page.map((item) => (csv ? resultCsvRow(item) : `${resultNdjsonLine(item)}\n`)).join('');
        }
      }
      reply
        .type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('batch-status', job.status)
        .header('batch-total', String(job.total));
      if (limit !== undefined && offset + limit < job.total) reply.header('batch-next-offset', String(offset + limit));
      if (csv) reply.header('content-disposition', `attachment; filename="batch-${id.replace(/[^\w.-]/g, '_')}.csv"`);
      return reply.send(Readable.from(body(), { objectMode: false }));
    });
  });
}
