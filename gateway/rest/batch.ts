/**
 * Batch jobs over REST (X-API-Key; ARCHITECTURE.md sections 2 and 4), translated into the location
 * subgraph's batch operations:
 * - POST /api/batch: a JSON body, or a CSV or NDJSON file → `submitBatch` → 202 { id, status }.
 * - GET /api/batch/{id}: `batchJob` → the job in snake_case; another organisation's id is NOT_FOUND.
 * - GET /api/batch/{id}/results: `batchResults`, paged 1000 at a time and written page by page as
 *   NDJSON (or CSV with Accept: text/csv or ?format=csv), so memory does not grow with the job.
 */
import { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import {
  MAX_BATCH_BODY_BYTES,
  batchFromCsv,
  batchFromJson,
  batchFromNdjson,
  batchRequestJsonSchema,
  resultCsvHeader,
  resultCsvRow,
  resultNdjsonLine,
  type BatchItemResultView,
  type BatchSubmission,
} from '../../schema/batch-contract';
import { ApiError, formatBytes, payloadTooLarge } from '../../schema/errors';
import type { Graph } from '../graph/apollo';
import { sendError } from '../http/errors';
import { documentRoute } from '../ops/openapi';
import { gatewayExecutor } from '../graph/executor';
import { batchAcceptedResponseJsonSchema, batchJobResponseJsonSchema, batchResultLineJsonSchema, errorResponseJsonSchema } from './response-schemas';

const JOB_SELECTION = 'id status total processed succeeded failed chunkSize createdAt startedAt completedAt callbackUrl resultsUrl error deliveries { number at statusCode error durationMs }';

/** Persisted operations of the batch routes; every field is owned by the location subgraph. */
export const SUBMIT_BATCH_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  mutation RestSubmitBatch($input: SubmitBatchInput!) {
    submitBatch(input: $input) { id status total createdAt resultsUrl }
  }` };

export const BATCH_JOB_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  query RestBatchJob($id: ID!) {
    batchJob(id: $id) { ${JOB_SELECTION} }
  }` };

export const BATCH_RESULTS_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  query RestBatchResults($id: ID!, $offset: Int, $limit: Int) {
    batchResults(id: $id, offset: $offset, limit: $limit) { items { index ok result error { code message } } nextOffset }
  }` };

/** Results per batchResults page (the most the query gives). */
export const RESULTS_PAGE_SIZE = 1000;

/** What BATCH_JOB_OPERATION selects. */
export interface BatchJobData {
  id: string;
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  chunkSize: number;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  callbackUrl: string | null;
  resultsUrl: string;
  error: string | null;
  deliveries: { number: number; at: string; statusCode: number | null; error: string | null; durationMs: number }[] | null;
}

/** GET /api/batch/{id}'s body (MCP's get_batch_status tool answers with it too). */
export function toJobResponse(job: BatchJobData) {
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    processed: job.processed,
    succeeded: job.succeeded,
    failed: job.failed,
    chunk_size: job.chunkSize,
    created_at: job.createdAt,
    started_at: job.startedAt,
    completed_at: job.completedAt,
    callback_url: job.callbackUrl,
    results_url: job.resultsUrl,
    error: job.error,
    deliveries: (job.deliveries ?? []).map((d) => ({ number: d.number, at: d.at, status_code: d.statusCode, error: d.error, duration_ms: d.durationMs })),
  };
}

const errors = { '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() };
const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };

documentRoute({
  method: 'post',
  path: '/api/batch',
  summary: 'Submit a batch of addresses (optionally with homes) for background valuation (API key)',
  description: `202 with { id, status: "queued" } and a Location header; poll GET /api/batch/{id}, read GET /api/batch/{id}/results, or subscribe to batchProgress(id) over graphql-ws on /graphql. The body is JSON as below, or a file: Content-Type text/csv (header row: address plus optional home columns in snake_case, e.g. area,rooms,floor,total_floors,renovation) or application/x-ndjson (one { "address", "home" } a line), with callback_url and chunk_size as query parameters. Up to ${formatBytes(MAX_BATCH_BODY_BYTES)} (413 PAYLOAD_TOO_LARGE); more items than the plan's maxBatchItems: 400 INVALID_PARAMETER on items.`,
  security: 'apiKey',
  requestBody: batchRequestJsonSchema(),
  example: { items: [{ address: 'Chilonzor tumani, Qatortol MFY', home: { area: 65, rooms: 3, floor: 4, total_floors: 9 } }, { address: 'Юнусабад 8-й квартал' }] },
  responses: { 202: batchAcceptedResponseJsonSchema(), ...errors },
  tag: 'batch',
});
documentRoute({
  method: 'get',
  path: '/api/batch/{id}',
  summary: 'A batch job: status, progress, timestamps and webhook deliveries (API key)',
  description: "Another organisation's job, or an unknown id: 404 NOT_FOUND.",
  security: 'apiKey',
  responses: { 200: batchJobResponseJsonSchema(), ...errors },
  tag: 'batch',
});
documentRoute({
  method: 'get',
  path: '/api/batch/{id}/results',
  summary: "A batch job's item results, in item order, streamed (API key)",
  description: 'application/x-ndjson: one { index, ok, result, error } a line (the schema below is one line). With Accept: text/csv or ?format=csv: CSV with a header row (index, ok, address, lat, lon, precision, district, mahalla, composite, property_type, estimate, currency, price_per_m2, land_price_per_sotka, interval_low, interval_high, confidence, valuation_date, data_age_months, error_code, error_message); a text cell starting with =, +, -, @, tab or carriage return is prefixed with a single quote, so that a spreadsheet shows it rather than running it as a formula. While the job runs, the results recorded so far.',
  security: 'apiKey',
  responses: { 200: batchResultLineJsonSchema(), ...errors },
  tag: 'batch',
});

function submissionOf(request: FastifyRequest): BatchSubmission {
  const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (type === 'text/csv') return batchFromCsv(String(request.body ?? ''), query);
  if (type === 'application/x-ndjson') return batchFromNdjson(String(request.body ?? ''), query);
  return batchFromJson(request.body);
}

async function jobOf(graph: Graph, request: FastifyRequest, id: string): Promise<BatchJobData> {
  const data = await gatewayExecutor(graph, request).execute<{ batchJob: BatchJobData | null }>(BATCH_JOB_OPERATION, { id });
  if (!data.batchJob) throw new ApiError('NOT_FOUND', `No batch job ${id.slice(0, 100)}`, 'id');
  return data.batchJob;
}

function wantsCsv(request: FastifyRequest): boolean {
  const format = (request.query as Record<string, unknown> | undefined)?.format;
  if (format === 'csv') return true;
  if (format === 'ndjson' || format === 'json') return false;
  const accept = String(request.headers.accept ?? '').toLowerCase();
  return accept.includes('text/csv') && !accept.includes('application/x-ndjson');
}

/** Every recorded result, a page at a time: only one page is held at once. */
async function* resultPages(graph: Graph, request: FastifyRequest, id: string): AsyncGenerator<BatchItemResultView[]> {
  for (let offset: number | null = 0; offset !== null; ) {
    const data: { batchResults: { items: BatchItemResultView[]; nextOffset: number | null } } = await gatewayExecutor(graph, request).execute(BATCH_RESULTS_OPERATION, { id, offset, limit: RESULTS_PAGE_SIZE });
    yield data.batchResults.items;
    offset = data.batchResults.nextOffset;
  }
}

export function registerBatchRoutes(app: FastifyInstance, graph: Graph, auth: { apiKey: preHandlerAsyncHookHandler }): void {
  // In their own scope: the CSV and NDJSON parsers accept uploads here and nowhere else.
  void app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv', 'application/x-ndjson'], { parseAs: 'string', bodyLimit: MAX_BATCH_BODY_BYTES }, (_request, body, done) => done(null, body));
    // PAYLOAD_TOO_LARGE with advice for portfolios; everything else goes to the app's handler.
    scope.setErrorHandler((error, request, reply) => {
      if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendError(request, reply, payloadTooLarge(MAX_BATCH_BODY_BYTES, 'split the portfolio'));
      }
      throw error;
    });

    scope.post('/api/batch', { bodyLimit: MAX_BATCH_BODY_BYTES, preHandler: auth.apiKey, schema: { response: { 202: batchAcceptedResponseJsonSchema(), ...errors } } }, async (request, reply) => {
      const submission = submissionOf(request);
      const input = { items: submission.items, ...(submission.callbackUrl !== undefined && { callbackUrl: submission.callbackUrl }), ...(submission.chunkSize !== undefined && { chunkSize: submission.chunkSize }) };
      const data = await gatewayExecutor(graph, request).execute<{ submitBatch: { id: string; status: string; total: number; createdAt: string; resultsUrl: string } }>(SUBMIT_BATCH_OPERATION, { input });
      const job = data.submitBatch;
      reply.code(202).header('location', `/api/batch/${encodeURIComponent(job.id)}`);
      // The contract's 202 says the submission is queued; GET /api/batch/{id} has the live status (in-process workers may have started already).
      return { id: job.id, status: 'queued', total: job.total, created_at: job.createdAt, results_url: job.resultsUrl };
    });

    scope.get('/api/batch/:id', { preHandler: auth.apiKey, schema: { params: idParam, response: { 200: batchJobResponseJsonSchema(), ...errors } } }, async (request) => {
      const { id } = request.params as { id: string };
      return toJobResponse(await jobOf(graph, request, id));
    });

    scope.get('/api/batch/:id/results', { preHandler: auth.apiKey, schema: { params: idParam } }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const job = await jobOf(graph, request, id); // 404 before anything is streamed
      const csv = wantsCsv(request);
      async function* body(): AsyncGenerator<string> {
        if (csv) yield resultCsvHeader();
        for await (const page of resultPages(graph, request, id)) {
          if (page.length === 0) continue;
          yield page.map((item) => (csv ? resultCsvRow(item) : `${resultNdjsonLine(item)}\n`)).join('');
        }
      }
      reply
        .type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('batch-status', job.status)
        .header('batch-total', String(job.total));
      if (csv) reply.header('content-disposition', `attachment; filename="batch-${id.replace(/[^\w.-]/g, '_')}.csv"`);
      return reply.send(Readable.from(body(), { objectMode: false }));
    });
  });
}
