/**
 * The records of valuations given (issue 19), for the organisation that asked (API key or bearer):
 *   GET  /api/valuations/{id}          one record; 404 for an id the organisation did not make
 *   GET  /api/valuations               newest first (since, until, kind, limit, before)
 *   GET  /api/valuations/sample        a random sample of a period, for review (period, n, kind, seed)
 *   POST /api/valuations/{id}/revalue  valued again with the model in service, beside the old one
 * Each translates into one operation of the valuations subgraph (gateway/operations/valuations.ts);
 * replies in snake_case, with the valuation as the valuation route answered it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError } from '../../schema/errors';
import type { Graph } from '../graph/apollo';
import { gatewayExecutor } from '../graph/executor';
import { REVALUE_OPERATION, toRecordRest, VALUATION_RECORD_SCHEMA, VALUATION_SAMPLE_OPERATION, valuationRecordOf, VALUATIONS_OPERATION, type RecordData } from '../operations/valuations';
import { SECURITY } from '../ops/openapi';
import { errorResponseJsonSchema } from '../operations/response-schemas';

const string = { type: 'string' } as const;
const errors = { '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() };
const idParam = { type: 'object', required: ['id'], properties: { id: { ...string, description: 'A valuation_id' } } };
const kindQuery = { type: 'string', enum: ['home', 'vehicle'] };

/** A valuation_id the caller's organisation did not make (or that is past its retention). */
export const notFound = (id: string) => new ApiError('NOT_FOUND', `no valuation ${id.slice(0, 40)} of your organisation (it was made by another, or it is past its retention)`, 'id');
const kindOf = (kind: string | undefined) => (kind ? kind.toUpperCase() : null);

// The 200 replies' schemas, exported for the test that the replies are the bytes fastify's serializer would make of them.
export const RECORDS_PAGE_SCHEMA = { type: 'object', required: ['valuations', 'next'], properties: { valuations: { type: 'array', items: VALUATION_RECORD_SCHEMA }, next: { type: ['string', 'null'] } } } as const;
export const RECORDS_SAMPLE_SCHEMA = {
  type: 'object',
  required: ['since', 'until', 'population', 'seed', 'valuations'],
  properties: { since: { ...string, format: 'date' }, until: { ...string, format: 'date' }, population: { type: 'integer', description: 'Valuations made in the period' }, seed: string, valuations: { type: 'array', items: VALUATION_RECORD_SCHEMA } },
} as const;
export const REVALUATION_SCHEMA = {
  type: 'object',
  required: ['previous', 'current', 'change'],
  properties: {
    previous: VALUATION_RECORD_SCHEMA,
    current: VALUATION_RECORD_SCHEMA,
    change: {
      type: 'object',
      required: ['estimate_before', 'estimate_now', 'ratio', 'model_version_before', 'model_version_now', 'valuation_date_before', 'valuation_date_now', 'model', 'market', 'observations', 'exchange_rate', 'explanation'],
      properties: {
        estimate_before: { type: 'number' }, estimate_now: { type: 'number' }, ratio: { type: 'number' },
        model_version_before: string, model_version_now: string, valuation_date_before: string, valuation_date_now: string,
        model: { type: 'number' }, market: { type: 'number' }, observations: { type: 'number' }, exchange_rate: { type: 'number' }, explanation: string,
      },
    },
  },
} as const;

/**
 * A reply holding records, written by JSON.stringify into a buffer instead of by the response
 * schema's compiled serializer (the schema stays: it documents the reply and still writes the
 * errors). The bytes are the same (test/valuations-api/records-reply.test.ts), for a fraction of the
 * CPU: fast-json-stringify writes the free-form objects (input, valuation) key by key into a string
 * of thousands of pieces, which fastify then measured character by character for Content-Length
 * and Node encoded again to send (docs/ARCHITECTURE.md, "Reading valuation records").
 */
function sendRecords(reply: FastifyReply, body: object): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(Buffer.from(JSON.stringify(body)));
}

export function registerValuationRoutes(app: FastifyInstance, graph: Graph, auth: { either: preHandlerAsyncHookHandler }): void {
  const run = <T>(request: FastifyRequest, operation: { owner: string; query: string }, variables: Record<string, unknown>) => gatewayExecutor(graph, request).execute<T>(operation, variables);

  app.get('/api/valuations', {
    preHandler: auth.either,
    schema: {
      tags: ['valuations'],
      summary: "Your organisation's valuations, newest first (API key or bearer token)",
      description: 'Every valuation made through REST, GraphQL, MCP or batch is recorded for the organisation that asked. since/until (YYYY-MM-DD, inclusive) bound the day it was made; limit (default 50, at most 1000); before: the previous page\'s next.',
      security: SECURITY.apiKeyOrBearer,
      querystring: { type: 'object', properties: { since: string, until: string, kind: kindQuery, limit: { type: 'integer', minimum: 1, maximum: 1000 }, before: string } },
      response: { 200: RECORDS_PAGE_SCHEMA, ...errors },
    },
  }, async (request, reply) => {
    const q = request.query as { since?: string; until?: string; kind?: string; limit?: number; before?: string };
    const { valuations } = await run<{ valuations: { records: RecordData[]; next: string | null } }>(request, VALUATIONS_OPERATION, { kind: kindOf(q.kind), since: q.since ?? null, until: q.until ?? null, before: q.before ?? null, limit: q.limit ?? null });
    return sendRecords(reply, { valuations: valuations.records.map(toRecordRest), next: valuations.next });
  });

  app.get('/api/valuations/sample', {
    preHandler: auth.either,
    schema: {
      tags: ['valuations'],
      summary: "A random sample of your organisation's valuations of a period, for review (API key or bearer token)",
      description: 'period: YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DD/YYYY-MM-DD; n (default 20, at most 200); kind; seed: the same seed on the same period draws the same sample (the reply gives the seed it used).',
      security: SECURITY.apiKeyOrBearer,
      querystring: { type: 'object', required: ['period'], properties: { period: string, n: { type: 'integer', minimum: 1, maximum: 200 }, kind: kindQuery, seed: string } },
      response: { 200: RECORDS_SAMPLE_SCHEMA, ...errors },
    },
  }, async (request, reply) => {
    const q = request.query as { period: string; n?: number; kind?: string; seed?: string };
    const { valuationSample: s } = await run<{ valuationSample: { since: string; until: string; population: number; seed: string; records: RecordData[] } }>(request, VALUATION_SAMPLE_OPERATION, { period: q.period, n: q.n ?? null, kind: kindOf(q.kind), seed: q.seed ?? null });
    return sendRecords(reply, { since: s.since, until: s.until, population: s.population, seed: s.seed, valuations: s.records.map(toRecordRest) });
  });

  app.get('/api/valuations/:id', {
    preHandler: auth.either,
    schema: {
      tags: ['valuations'],
      summary: 'One valuation as it was given: the request as understood, the reply, the model version, the time (API key or bearer token)',
      description: 'Only the organisation that made the valuation can read it; any other gets 404.',
      security: SECURITY.apiKeyOrBearer,
      params: idParam,
      response: { 200: VALUATION_RECORD_SCHEMA, ...errors },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const valuation = await valuationRecordOf(gatewayExecutor(graph, request), id);
    if (!valuation) throw notFound(id);
    return sendRecords(reply, toRecordRest(valuation));
  });

  app.post('/api/valuations/:id/revalue', {
    preHandler: auth.either,
    schema: {
      tags: ['valuations'],
      summary: 'Value a recorded valuation again with the model in service, today, beside the old one with the change explained (API key or bearer token)',
      description: "The new valuation is recorded in its turn. change: estimate now = before × model × market × observations × exchange_rate (ratios, up to rounding): the model version's change at the old date, the market index from the old date to today, your organisation's observed prices, and the soʻm rate's own move.",
      security: SECURITY.apiKeyOrBearer,
      params: idParam,
      response: { 200: REVALUATION_SCHEMA, ...errors },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    type Change = { estimateBefore: number; estimateNow: number; ratio: number; modelVersionBefore: string; modelVersionNow: string; valuationDateBefore: string; valuationDateNow: string; model: number; market: number; observations: number; exchangeRate: number; explanation: string };
    const { revalueValuation: r } = await run<{ revalueValuation: { previous: RecordData; current: RecordData; change: Change } | null }>(request, REVALUE_OPERATION, { id });
    if (!r) throw notFound(id);
    const c = r.change;
    return sendRecords(reply, {
      previous: toRecordRest(r.previous),
      current: toRecordRest(r.current),
      change: {
        estimate_before: c.estimateBefore, estimate_now: c.estimateNow, ratio: c.ratio, model_version_before: c.modelVersionBefore, model_version_now: c.modelVersionNow,
        valuation_date_before: c.valuationDateBefore, valuation_date_now: c.valuationDateNow, model: c.model, market: c.market, observations: c.observations, exchange_rate: c.exchangeRate, explanation: c.explanation,
      },
    });
  });
}
