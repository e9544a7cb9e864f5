/**
 * A bank's backtest over REST (issue 31), translated into the batch subgraph's backtest operations
 * (gateway/operations/backtest.ts):
 * - POST /api/backtest?kind=home|vehicle: observed prices as POST /api/observations takes them (JSON
 *   { observations: [ … ] }, or a CSV or NDJSON file streamed in parts through openBacktest and
 *   appendBacktestObservations), or the export GET /api/observations gives → 202 with the job's id.
 *   A bad item does not stop the others: it goes on as a refusal and is the job's failed item in
 *   its place, so the report counts it and the results say why.
 * - GET /api/backtest/{id}: the job's status and, once completed, its report (JSON); ?format=csv
 *   for the per-observation rows, ?format=summary-csv for the tables, ?format=pdf for the
 *   committee's document, in English, Russian or Uzbek (?lang=en|ru|uz, as the valuation
 *   reports). Progress: batchProgress(id), GET /api/batch/{id}, as any job.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { DEFAULT_CHUNK_SIZE, MAX_BATCH_BODY_BYTES, MAX_BATCH_UPLOAD_BYTES } from '../../schema/batch-contract';
import { ApiError } from '../../schema/errors';
import type { Graph } from '../graph/apollo';
import { gatewayExecutor } from '../graph/executor';
import { registerUploadScope } from './upload-scope';
import { SECURITY } from '../ops/openapi';
import { backtestRowsCsv, backtestSummaryCsv } from '../reports/backtest-csv';
import { REPORT_LANGUAGES, type ReportLanguage } from '../reports/report-data';
import { toJobResponse } from '../operations/batch';
import {
  APPEND_BACKTEST_OPERATION,
  BACKTEST_ACCEPTED_SCHEMA,
  backtestKind,
  backtestObservation,
  backtestOf,
  KINDS,
  OPEN_BACKTEST_OPERATION,
  submitBacktestBody,
  toAcceptedBacktestResponse,
  type AcceptedBacktest,
  type Kind,
} from '../operations/backtest';
import { uploadPartSize, uploadTooLarge, UploadBody } from './batch';
import { numberedObservations, type UploadType } from './observation-uploads';
import { errorResponseJsonSchema } from '../operations/response-schemas';
import type { ReportServices } from './valuation-report';
import { unpaced } from '../http/bulk-pacing';

/**
 * A CSV or NDJSON file, read as it streams in and sent on in parts of whole chunks, as a batch
 * upload is (gateway/rest/batch.ts): the job is opened with the first part; a refusal of the whole
 * (the plan's size, the quota) leaves the job to the stalled-submission sweep, which fails it.
 */
async function submitUpload(graph: Graph, request: FastifyRequest, reply: FastifyReply, kind: Kind, type: UploadType): Promise<AcceptedBacktest> {
  if (Number(request.headers['content-length']) > MAX_BATCH_UPLOAD_BYTES) {
    reply.header('connection', 'close');
    throw uploadTooLarge();
  }
  const body = new UploadBody(request.raw, MAX_BATCH_UPLOAD_BYTES);
  const executor = gatewayExecutor(graph, request);
  const partSize = uploadPartSize(DEFAULT_CHUNK_SIZE);
  const pace = request.bulkLane ?? unpaced;
  let id: string | undefined;
  let part: Record<string, unknown>[] = [];
  const send = async (last: boolean): Promise<AcceptedBacktest> => {
    // A key revoked mid-upload stops it before its next part, as batch and observation uploads do (issue 33, finding 7).
    const revoked = await request.credentialsRecheck?.();
    if (revoked) throw revoked;
    id ??= (await executor.execute<{ openBacktest: { id: string } }>(OPEN_BACKTEST_OPERATION, { input: { kind: kind.toUpperCase(), chunkSize: DEFAULT_CHUNK_SIZE } })).openBacktest.id;
    const { appendBacktestObservations } = await pace.run(() => executor.execute<{ appendBacktestObservations: AcceptedBacktest }>(APPEND_BACKTEST_OPERATION, { id, observations: part, last }));
    part = [];
    return appendBacktestObservations;
  };
  try {
    for await (const { line, item } of numberedObservations(body.stream, type)) {
      if (part.length === partSize) await send(false);
      part.push(backtestObservation(item, kind, line));
    }
    if (part.length === 0) throw new ApiError('MISSING_PARAMETER', 'the upload holds no observation', 'observations');
    return await send(true);
  } catch (error) {
    if (!body.clientGone && body.discardRest() === 'close') reply.header('connection', 'close');
    if (error instanceof ApiError && id !== undefined) error.message = `${error.message} (backtest ${id} was left unfinished: submit the file again)`;
    throw error;
  }
}

const FORMATS = ['json', 'csv', 'summary-csv', 'pdf'] as const;
type Format = (typeof FORMATS)[number];

const errors = { '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() };
const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };

const SUBMIT_SCHEMA = {
  tags: ['backtest'],
  summary: "Backtest the model in service on prices your organisation observed on past dates: a batch job (API key or bearer token)",
  description: `202 with { id, kind, status, total }. The body is what POST /api/observations takes: JSON { "observations": [ … ] }, or a file, Content-Type text/csv or application/x-ndjson, streamed (up to the plan's maxBatchItems rows); a line of the export GET /api/observations is taken as it is, and an item without kind is of the query's kind. Each price is valued at its own observed_at with the model alone and re-anchored on your observations from before that date only; nothing is kept. A bad item is refused in its place (a failed item of the job, its line named); the others go on. Follow it with GET /api/batch/{id}, the batchProgress(id) subscription, or GET /api/backtest/{id}. Each observation counts as one batch item of the plan's daily allowance. Past the size: 413 PAYLOAD_TOO_LARGE.`,
  security: SECURITY.apiKeyOrBearer,
  querystring: { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: [...KINDS] } } },
  body: {
    content: {
      'application/json': { schema: { type: 'object', required: ['observations'], properties: { observations: { type: 'array', items: { type: 'object' } } } } },
      'text/csv': { schema: { type: 'string', description: 'Header row: price_usd, observed_at, price_type, reference and the valuation fields in snake_case; one observation a row' } },
      'application/x-ndjson': { schema: { type: 'string', description: 'One observation object a line (or a line of GET /api/observations)' } },
    },
  },
  response: {
    202: BACKTEST_ACCEPTED_SCHEMA,
    ...errors,
  },
};

const REPORT_SCHEMA = {
  tags: ['backtest'],
  summary: 'A backtest: its status and, once completed, its report (API key or bearer token)',
  description: "format=json (default): { id, kind, status, job, report } (report null until the job completes; then backtest()'s report: overall, by_month … as observations, from, to, fits, overall, byMonth, byGroup, byConfidence, rows, submitted, refused, modelVersions). format=csv: one row per observation replayed; format=summary-csv: the tables; format=pdf: the committee's summary, in English, Russian or Uzbek (lang=en|ru|uz, default en), one of the plan's `reports` allowance (past it 429 RATE_LIMITED). A CSV or PDF of a job that has not completed: 409 JOB_NOT_FINISHED. Another organisation's backtest, or a job that is not one: 404 NOT_FOUND.",
  security: SECURITY.apiKeyOrBearer,
  params: idParam,
  querystring: { type: 'object', properties: { format: { type: 'string', enum: [...FORMATS] }, lang: { type: 'string', enum: [...REPORT_LANGUAGES] } } },
  response: {
    200: {
      description: 'JSON, CSV or PDF as format asks',
      content: {
        'application/json': { schema: { type: 'object', required: ['id', 'kind', 'status', 'job', 'report'], properties: { id: { type: 'string' }, kind: { type: 'string' }, status: { type: 'string' }, job: { type: 'object', additionalProperties: true }, report: { type: ['object', 'null'], additionalProperties: true } } } },
        'text/csv': { schema: { type: 'string' } },
        'application/pdf': { schema: { type: 'string', format: 'binary' } },
      },
    },
    ...errors,
  },
};

export function registerBacktestRoutes(app: FastifyInstance, graph: Graph, auth: { either: preHandlerAsyncHookHandler }, reports: ReportServices): void {
  registerUploadScope(app, 'send the observations as a CSV or NDJSON file', (scope) => {
    scope.post('/api/backtest', { bodyLimit: MAX_BATCH_BODY_BYTES, onRequest: auth.either, schema: SUBMIT_SCHEMA, config: { bulk: true } }, async (request, reply) => {
      const kind = backtestKind((request.query as Record<string, unknown> | undefined)?.kind);
      const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const accepted = type === 'text/csv' || type === 'application/x-ndjson' ? await submitUpload(graph, request, reply, kind, type) : await submitBacktestBody(gatewayExecutor(graph, request), kind, request.body);
      reply.code(202).header('location', `/api/backtest/${encodeURIComponent(accepted.id)}`);
      return toAcceptedBacktestResponse(accepted);
    });
    scope.get('/api/backtest/:id', { preHandler: auth.either, schema: REPORT_SCHEMA }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const { format = 'json', lang = 'en' } = request.query as { format?: Format; lang?: ReportLanguage };
      if (format === 'pdf') await reports.meter.chargeReport(request.principal);
      const backtest = await backtestOf(gatewayExecutor(graph, request), id, true);
      const { report } = backtest;
      if (format === 'json') return reply.type('application/json; charset=utf-8').send({ id: backtest.id, kind: backtest.kind.toLowerCase(), status: backtest.job.status, job: toJobResponse(backtest.job), report: report ?? null });
      if (!report) throw new ApiError('JOB_NOT_FINISHED', `Backtest ${id.slice(0, 100)} is ${backtest.job.status}: its ${format === 'pdf' ? 'PDF' : 'CSV'} comes once it has completed`, 'id');
      const name = `backtest-${id.replace(/[^\w.-]/g, '_')}`;
      if (format === 'pdf') return reply.type('application/pdf').header('content-disposition', `attachment; filename="${name}-${lang}.pdf"`).send(await reports.renderer.pdf({ report: 'backtest', data: report, lang }));
      const csv = format === 'csv' ? backtestRowsCsv(report) : backtestSummaryCsv(report);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}${format === 'csv' ? '' : '-summary'}.csv"`).send(csv);
    });
  });
}
