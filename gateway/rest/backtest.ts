/**
 * A bank's backtest over REST (issue 31), translated into the batch subgraph's backtest operations:
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
import { gatewayExecutor, type GraphExecutor } from '../graph/executor';
import { registerUploadScope } from './upload-scope';
import { SECURITY } from '../ops/openapi';
import { backtestRowsCsv, backtestSummaryCsv } from '../reports/backtest-csv';
import type { BacktestReportData } from '../reports/backtest-content';
import { REPORT_LANGUAGES, type ReportLanguage } from '../reports/report-data';
import { toJobResponse, uploadPartSize, uploadTooLarge, UploadBody, type BatchJobData } from './batch';
import { itemError, numberedObservations, toObservationInput, type UploadType } from './observation-items';
import { errorResponseJsonSchema } from './response-schemas';
import type { ReportServices } from './valuation-report';
import { unpaced } from '../http/bulk-pacing';

const JOB_SELECTION = 'id status total processed succeeded failed chunkSize createdAt startedAt completedAt callbackUrl resultsUrl error deliveries { number at statusCode error durationMs }';

export const SUBMIT_BACKTEST_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  mutation RestSubmitBacktest($input: SubmitBacktestInput!) {
    submitBacktest(input: $input) { id kind job { status total createdAt } }
  }` };

export const OPEN_BACKTEST_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  mutation RestOpenBacktest($input: OpenBacktestInput!) {
    openBacktest(input: $input) { id }
  }` };

export const APPEND_BACKTEST_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  mutation RestAppendBacktestObservations($id: ID!, $observations: [JSONObject!]!, $last: Boolean!) {
    appendBacktestObservations(id: $id, observations: $observations, last: $last) { id kind job { status total createdAt } }
  }` };

export const BACKTEST_OPERATION = { owner: 'batch', query: /* GraphQL */ `
  query RestBacktest($id: ID!, $withReport: Boolean!) {
    backtest(id: $id) { id kind job { ${JOB_SELECTION} } report @include(if: $withReport) }
  }` };

export interface AcceptedBacktest {
  id: string;
  kind: string;
  job: { status: string; total: number; createdAt: string };
}

export interface BacktestData {
  id: string;
  kind: string;
  job: BatchJobData;
  report?: BacktestReportData | null;
}

export const KINDS = ['home', 'vehicle'] as const;
export type Kind = (typeof KINDS)[number];

/** The backtest's kind (the query's kind, an MCP tool's argument), checked. */
export function backtestKind(kind: unknown): Kind {
  if (kind === undefined) throw new ApiError('MISSING_PARAMETER', 'kind is required: home or vehicle', 'kind');
  if (!KINDS.includes(kind as Kind)) throw new ApiError('INVALID_PARAMETER', 'kind must be home or vehicle', 'kind');
  return kind as Kind;
}

/**
 * One item → the observation the job replays: the GraphQL ObservationInput, or its refusal (code,
 * message, field; a file's line named), which the job records as that item's failure. An item
 * without kind is of the backtest's kind (a file of requests need not repeat it).
 */
export function backtestObservation(item: unknown, kind: Kind, line?: number): Record<string, unknown> {
  try {
    const withKind = typeof item === 'object' && item !== null && !Array.isArray(item) && !('kind' in item) ? { ...item, kind } : item;
    return toObservationInput(withKind);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const refusal = itemError(error);
    return { refused: line === undefined ? refusal : { ...refusal, message: `line ${line}: ${refusal.message}` } };
  }
}

/** A body { observations: [ … ] } in REST names → submitBacktest through `executor`, each bad item refused in its place (REST and MCP alike). */
export async function submitBacktestBody(executor: GraphExecutor, kind: Kind, body: unknown): Promise<AcceptedBacktest> {
  const { observations } = (body ?? {}) as { observations?: unknown };
  if (!Array.isArray(observations)) throw new ApiError(observations === undefined ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER', 'observations must be an array of observations (or send a CSV or NDJSON file)', 'observations');
  const input = { kind: kind.toUpperCase(), observations: observations.map((item) => backtestObservation(item, kind)) };
  return (await executor.execute<{ submitBacktest: AcceptedBacktest }>(SUBMIT_BACKTEST_OPERATION, { input })).submitBacktest;
}

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

async function backtestOf(graph: Graph, request: FastifyRequest, id: string, withReport: boolean): Promise<BacktestData> {
  const { backtest } = await gatewayExecutor(graph, request).execute<{ backtest: BacktestData | null }>(BACKTEST_OPERATION, { id, withReport });
  if (!backtest) throw new ApiError('NOT_FOUND', `No backtest ${id.slice(0, 100)}`, 'id');
  return backtest;
}

const FORMATS = ['json', 'csv', 'summary-csv', 'pdf'] as const;
type Format = (typeof FORMATS)[number];

/** POST /api/backtest's 202 body (submit_backtest's reply too). */
export const BACKTEST_ACCEPTED_SCHEMA = { type: 'object', required: ['id', 'kind', 'status', 'total', 'created_at'], properties: { id: { type: 'string' }, kind: { type: 'string' }, status: { type: 'string' }, total: { type: 'integer' }, created_at: { type: 'string' } } };

export function toAcceptedResponse(accepted: AcceptedBacktest) {
  return { id: accepted.id, kind: accepted.kind.toLowerCase(), status: 'queued' as const, total: accepted.job.total, created_at: accepted.job.createdAt };
}

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
      return toAcceptedResponse(accepted);
    });
    scope.get('/api/backtest/:id', { preHandler: auth.either, schema: REPORT_SCHEMA }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const { format = 'json', lang = 'en' } = request.query as { format?: Format; lang?: ReportLanguage };
      if (format === 'pdf') await reports.meter.chargeReport(request.principal);
      const backtest = await backtestOf(graph, request, id, true);
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
