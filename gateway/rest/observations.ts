/**
 * POST /api/observations (X-API-Key or Bearer): prices the organisation observed, each item a
 * valuation request's fields (as POST /api/predict/home or /api/predict/vehicle take them) with
 * kind, price_usd, observed_at, price_type and reference. A bad item is refused in its place; the
 * others go to `recordObservations` (`recordObservationsBody`, gateway/operations/observations.ts).
 * A file is read here as it streams in; GET exports, DELETE retracts. Issue 18.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { MAX_BATCH_BODY_BYTES, MAX_BATCH_UPLOAD_BYTES } from '../../schema/batch-contract';
import { ApiError } from '../../schema/errors';
import { MAX_REJECTED_LISTED } from '../../schema/observations-contract';
import { getPlan } from '../../platform/plans';
import { registerUploadScope } from './upload-scope';
import { UploadBody, uploadTooLarge } from './batch';
import { uploadedObservations, type UploadType } from './observation-uploads';
import { ENVELOPE, PRICE_TYPES } from '../operations/observation-items';
import {
  addRejected,
  LIST_OBSERVATIONS_OPERATION,
  OBSERVATIONS_PART,
  RECORDED_OBSERVATIONS_SCHEMA,
  recordObservationsBody,
  retractObservations,
  type ListedObservation,
  type RecordedObservationsReply,
} from '../operations/observations';
import type { Graph } from '../graph/apollo';
import { gatewayExecutor, type GraphExecutor } from '../graph/executor';
import { SECURITY, withExample } from '../ops/openapi';
import { unpaced, type BulkLane } from '../http/bulk-pacing';
import { errorResponseJsonSchema } from '../operations/response-schemas';

const OBSERVATIONS_EXAMPLE = {
  observations: [
    { kind: 'home', district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale', price_usd: 72000, observed_at: '2026-11-02', price_type: 'sale', reference: 'loan-2026-0042' },
    { kind: 'vehicle', make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000, price_usd: 11800, observed_at: '2026-11-05' },
  ],
};

const ROUTE_SCHEMA = {
  tags: ['observations'],
  summary: 'Record prices the organisation observed: they re-anchor its valuations (API key or bearer token)',
  description: `JSON { "observations": [ … ] }, each item the fields of the matching valuation request (POST /api/predict/home or /api/predict/vehicle) with kind (home or vehicle), price_usd, observed_at (YYYY-MM-DD: not in the future, not older than the retention), price_type (sale, appraisal or listing; default listing) and an optional reference (your own id, no personal data), echoed back. Each is scored against the model at observed_at and kept for your organisation only; your valuations of the same kind are adjusted at once (market_adjustment in their replies). A bad item is refused in its place (rejected[].error; the first ${MAX_REJECTED_LISTED.toLocaleString('en')} are listed, rejected_count counts them all), the others are kept. Up to the plan's batch size per call, and up to the plan's storage quota of kept observations per kind (beyond it: 413 OBSERVATION_QUOTA_EXCEEDED, nothing of that call kept). A price under a fifth of the cheapest the model was trained on, or more than 5 times from the model's estimate either way, is refused in its place; so is a CSV number with a thousands separator ("72,000"). ${ENVELOPE.join(', ')} are the envelope; every other field is the valuation request's. A file instead of JSON: Content-Type text/csv (a header row of those names) or application/x-ndjson (one object a line), up to ${Math.round(MAX_BATCH_UPLOAD_BYTES / 2 ** 30)} GB, read as it streams in and recorded in parts of ${OBSERVATIONS_PART.toLocaleString('en')}, the credentials checked again before each; a connection cut mid-way keeps the parts recorded before it, and a refusal mid-way (past the plan's size or storage quota, a key revoked meanwhile: 401) says how many were.`,
  security: SECURITY.apiKeyOrBearer,
  body: {
    content: {
      'application/json': { schema: withExample({ type: 'object', required: ['observations'], properties: { observations: { type: 'array', items: { type: 'object' } } } }, OBSERVATIONS_EXAMPLE) },
      'text/csv': { schema: { type: 'string', description: 'Header row: kind, price_usd, observed_at, price_type, reference and the valuation fields in snake_case; one observation a row' } },
      'application/x-ndjson': { schema: { type: 'string', description: 'One observation object a line' } },
    },
  },
  response: {
    200: RECORDED_OBSERVATIONS_SCHEMA,
    '4xx': errorResponseJsonSchema(),
    '5xx': errorResponseJsonSchema(),
  },
};

/**
 * A CSV or NDJSON upload, read as it streams in and recorded in parts of OBSERVATIONS_PART items: each
 * part is kept once its call returns, so a connection cut mid-way keeps every part answered before.
 * More items than the plan's batch size: 400 before the part that would pass it.
 */
async function recordUpload(graph: Graph, request: FastifyRequest, reply: FastifyReply, type: UploadType): Promise<RecordedObservationsReply> {
  if (Number(request.headers['content-length']) > MAX_BATCH_UPLOAD_BYTES) {
    reply.header('connection', 'close');
    throw uploadTooLarge();
  }
  const limit = getPlan(request.principal!.plan).maxBatchItems;
  const body = new UploadBody(request.raw, MAX_BATCH_UPLOAD_BYTES);
  const executor = gatewayExecutor(graph, request);
  const total: RecordedObservationsReply = { accepted: 0, accepted_observations: [], rejected: [], rejected_count: 0 };
  let part: unknown[] = [];
  let offset = 0;
  /** A refusal mid-way: what was recorded before it stays, and the reply says so. */
  const stopped = (error: ApiError) => new ApiError(error.code, `${error.message.replace(/\.$/, '')}: the upload was stopped there; the ${total.accepted.toLocaleString('en')} observations recorded before (of the first ${offset.toLocaleString('en')} items) are kept`, error.field);
  const send = async () => {
    const revoked = await request.credentialsRecheck?.();
    if (revoked) throw stopped(revoked);
    let recorded: RecordedObservationsReply;
    try {
      recorded = await recordObservationsBody(executor, { observations: part }, request.bulkLane);
    } catch (error) {
      throw error instanceof ApiError && offset > 0 ? stopped(error) : error;
    }
    total.accepted += recorded.accepted;
    total.accepted_observations.push(...recorded.accepted_observations.map((a) => ({ ...a, index: a.index + offset })));
    addRejected(total, recorded.rejected.map((r) => ({ ...r, index: r.index + offset })), recorded.rejected_count);
    offset += part.length;
    part = [];
  };
  try {
    for await (const item of uploadedObservations(body.stream, type)) {
      if (offset + part.length === limit) throw new ApiError('INVALID_PARAMETER', `at most ${limit.toLocaleString('en')} observations per call on the ${request.principal!.plan} plan; the first ${offset.toLocaleString('en')} were recorded`, 'observations');
      part.push(item);
      if (part.length === OBSERVATIONS_PART) await send();
    }
    if (part.length > 0) await send();
    if (offset === 0) throw new ApiError('MISSING_PARAMETER', 'the upload holds no observation', 'observations');
    return total;
  } catch (error) {
    if (!body.clientGone && body.discardRest() === 'close') reply.header('connection', 'close');
    throw error;
  }
}

/** The export is read from the graph in pages of this many, paced behind other callers' requests (issue 33, finding 3). */
const EXPORT_PAGE = 1_000;

/** One exported observation: one NDJSON line, and one training row of `npm run train -- --with-observations` (models/observations/export-file.ts reads it). */
const EXPORTED_OBSERVATION_SCHEMA = {
  type: 'object',
  required: ['id', 'kind', 'observed_at', 'recorded_at', 'price_usd', 'price_type', 'reference', 'groups', 'base_estimate', 'base_low', 'base_high', 'model_version', 'input'],
  properties: {
    id: { type: 'string' },
    kind: { type: 'string', enum: ['home', 'vehicle'] },
    observed_at: { type: 'string', description: 'YYYY-MM-DD' },
    recorded_at: { type: 'string', description: 'ISO 8601 time it was recorded' },
    price_usd: { type: 'number' },
    price_type: { type: 'string', enum: PRICE_TYPES },
    reference: { type: ['string', 'null'] },
    groups: { type: 'array', items: { type: 'string' }, description: 'Top first: city, district, segment (homes); all, make, model (vehicles)' },
    base_estimate: { type: ['number', 'null'], description: "The model's estimate at observed_at, before any adjustment" },
    base_low: { type: ['number', 'null'] },
    base_high: { type: ['number', 'null'] },
    model_version: { type: ['string', 'null'] },
    input: { type: 'object', description: 'The valuation request as the service understood it (canonical codes)' },
  },
};

const exportedLine = (o: ListedObservation): string => `${JSON.stringify({
  id: o.id, kind: o.kind.toLowerCase(), observed_at: o.observedAt, recorded_at: o.recordedAt, price_usd: o.priceUsd, price_type: o.priceType.toLowerCase(),
  reference: o.reference, groups: o.groups, base_estimate: o.baseEstimate, base_low: o.baseLow, base_high: o.baseHigh, model_version: o.modelVersion, input: o.input,
})}\n`;

const EXPORT_ROUTE_SCHEMA = {
  tags: ['observations'],
  summary: "The organisation's observations of a kind, newest first, as NDJSON: the export `npm run train -- --with-observations FILE` reads (API key or bearer token)",
  description: 'Every kept observation of the kind observed within since…until (both optional, inclusive, YYYY-MM-DD), one JSON object a line, streamed. Only the calling organisation\'s. Each line carries the request as the service understood it and the model\'s valuation at observed_at.',
  security: SECURITY.apiKeyOrBearer,
  querystring: {
    type: 'object',
    required: ['kind'],
    properties: {
      kind: { type: 'string', enum: ['home', 'vehicle'] },
      since: { type: 'string', description: 'YYYY-MM-DD: observed on or after' },
      until: { type: 'string', description: 'YYYY-MM-DD: observed on or before' },
    },
  },
  response: {
    // A stream: fastify sends it as it is; the schema is one line.
    200: { content: { 'application/x-ndjson': { schema: EXPORTED_OBSERVATION_SCHEMA } } },
    '4xx': errorResponseJsonSchema(),
    '5xx': errorResponseJsonSchema(),
  },
};

/**
 * Pages of the organisation's observations through the graph, each as its NDJSON lines (read and
 * written as one paced part). A page read while observations are recorded may begin with the
 * previous page's last ones (an insert ahead shifts the rest): those are dropped by id, so each
 * observation is exported once.
 */
async function* exportedPages(executor: GraphExecutor, query: { kind: string; since?: string; until?: string }, pace: BulkLane = unpaced): AsyncGenerator<string> {
  let previous = new Set<string>();
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const { lines, ids } = await pace.run(async () => {
      const { observations } = await executor.execute<{ observations: ListedObservation[] }>(LIST_OBSERVATIONS_OPERATION, {
        kind: query.kind.toUpperCase(), since: query.since ?? null, until: query.until ?? null, limit: EXPORT_PAGE, offset,
      });
      return { lines: observations.filter((o) => !previous.has(o.id)).map(exportedLine).join(''), ids: observations.map((o) => o.id) };
    });
    yield lines;
    if (ids.length < EXPORT_PAGE) return;
    previous = new Set(ids);
  }
}

const RETRACT_ROUTE_SCHEMA = {
  tags: ['observations'],
  summary: "Retract one of the organisation's observations: it stops re-anchoring its valuations at once (API key or bearer token)",
  description: "The observation is removed and the organisation's market factors and intervals are re-fitted without it: its valuations are then as if it had never been recorded. An id the organisation holds no observation under (never recorded, already retracted, or another organisation's): 404 NOT_FOUND. Several at once: GraphQL retractObservations, MCP retract_observations.",
  security: SECURITY.apiKeyOrBearer,
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 128, description: 'The id recording gave it (accepted_observations[].id)' } } },
  response: {
    200: { type: 'object', required: ['id', 'retracted'], properties: { id: { type: 'string' }, retracted: { type: 'boolean', enum: [true] } } },
    '4xx': errorResponseJsonSchema(),
    '5xx': errorResponseJsonSchema(),
  },
};

export function registerObservationRoutes(app: FastifyInstance, graph: Graph, auth: { either: preHandlerAsyncHookHandler }): void {
  registerUploadScope(app, 'send the observations as a CSV or NDJSON file', (scope) => {
    scope.post('/api/observations', { bodyLimit: MAX_BATCH_BODY_BYTES, onRequest: auth.either, schema: ROUTE_SCHEMA, config: { bulk: true } }, (request: FastifyRequest, reply: FastifyReply) => {
      const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (type === 'text/csv' || type === 'application/x-ndjson') return recordUpload(graph, request, reply, type);
      return recordObservationsBody(gatewayExecutor(graph, request), request.body, request.bulkLane);
    });
    scope.get('/api/observations', { preHandler: auth.either, schema: EXPORT_ROUTE_SCHEMA, config: { bulk: true } }, async (request, reply) => {
      const query = request.query as { kind: string; since?: string; until?: string };
      const pages = exportedPages(gatewayExecutor(graph, request), query, request.bulkLane);
      // The first page before the status line: a bad date or a stalled subgraph is an error reply, not a cut stream.
      const first = await pages.next();
      async function* body(): AsyncGenerator<string> {
        if (first.done) return;
        yield first.value;
        for await (const page of pages) if (page.length > 0) yield page;
      }
      reply.type('application/x-ndjson; charset=utf-8').header('content-disposition', `attachment; filename="observations-${query.kind}.ndjson"`);
      return reply.send(Readable.from(body(), { objectMode: false }));
    });
  });
  app.delete('/api/observations/:id', { preHandler: auth.either, schema: RETRACT_ROUTE_SCHEMA }, async (request) => {
    const { id } = request.params as { id: string };
    const retracted = await retractObservations(gatewayExecutor(graph, request), [id]);
    if (retracted.retracted === 0) throw new ApiError('NOT_FOUND', `no observation ${id.slice(0, 60)} of your organisation`, 'id');
    return { id, retracted: true };
  });
}
