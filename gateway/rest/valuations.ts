/**
 * The records of valuations given (issue 19), for the organisation that asked (API key or bearer):
 *   GET  /api/valuations/{id}          one record; 404 for an id the organisation did not make
 *   GET  /api/valuations               newest first (since, until, kind, limit, before)
 *   GET  /api/valuations/sample        a random sample of a period, for review (period, n, kind, seed)
 *   POST /api/valuations/{id}/revalue  valued again with the model in service, beside the old one
 * Each translates into one operation of the valuations subgraph; replies in snake_case, with the
 * valuation as the valuation route answered it.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError } from '../../schema/errors';
import { toHomeRestResponse, type HomeValuationView } from '../../schema/home-rest';
import { toVehicleRestResponse, type VehicleValuationView } from '../../schema/vehicle-rest';
import type { Graph } from '../graph/apollo';
import { gatewayExecutor } from '../graph/executor';
import { SECURITY } from '../ops/openapi';
import { errorResponseJsonSchema } from './response-schemas';

const RECORD_SELECTION = 'id kind createdAt keepUntil requestId modelVersion estimate currency intervalLow intervalHigh valuationDate input valuation';

export const VALUATION_RECORD_OPERATION = { owner: 'valuations', query: `query RestValuation($id: String!) { valuation(id: $id) { ${RECORD_SELECTION} } }` };
const VALUATIONS_OPERATION = { owner: 'valuations', query: `query RestValuations($kind: ValuationKind, $since: String, $until: String, $before: String, $limit: Int) { valuations(kind: $kind, since: $since, until: $until, before: $before, limit: $limit) { records { ${RECORD_SELECTION} } next } }` };
const SAMPLE_OPERATION = { owner: 'valuations', query: `query RestValuationSample($period: String!, $n: Int, $kind: ValuationKind, $seed: String) { valuationSample(period: $period, n: $n, kind: $kind, seed: $seed) { since until population seed records { ${RECORD_SELECTION} } } }` };
const REVALUE_OPERATION = { owner: 'valuations', query: `mutation RestRevalue($id: String!) { revalueValuation(id: $id) { previous { ${RECORD_SELECTION} } current { ${RECORD_SELECTION} } change { estimateBefore estimateNow ratio modelVersionBefore modelVersionNow valuationDateBefore valuationDateNow model market observations exchangeRate explanation } } }` };

/** A record as the valuations subgraph gives it. */
export interface RecordData {
  id: string;
  kind: 'HOME' | 'VEHICLE';
  createdAt: string;
  keepUntil: string;
  requestId: string | null;
  modelVersion: string;
  estimate: number;
  currency: string;
  intervalLow: number;
  intervalHigh: number;
  valuationDate: string;
  input: Record<string, unknown>;
  valuation: Record<string, unknown>;
}

/** The REST form of a record: its valuation as POST /api/predict/home or /vehicle answered it. */
export function toRecordRest(r: RecordData) {
  const kind = r.kind.toLowerCase() as 'home' | 'vehicle';
  return {
    valuation_id: r.id,
    kind,
    created_at: r.createdAt,
    keep_until: r.keepUntil,
    request_id: r.requestId,
    model_version: r.modelVersion,
    valuation_date: r.valuationDate,
    input: r.input,
    valuation: kind === 'home' ? toHomeRestResponse(r.valuation as unknown as HomeValuationView) : toVehicleRestResponse(r.valuation as unknown as VehicleValuationView),
  };
}

const string = { type: 'string' } as const;
/** A record in REST names (also get_valuation's reply). */
export const VALUATION_RECORD_SCHEMA = {
  type: 'object',
  required: ['valuation_id', 'kind', 'created_at', 'keep_until', 'request_id', 'model_version', 'valuation_date', 'input', 'valuation'],
  properties: {
    valuation_id: { ...string, description: 'val_ + a ULID, as the valuation reply gave it' },
    kind: { type: 'string', enum: ['home', 'vehicle'] },
    created_at: { ...string, format: 'date-time' },
    keep_until: { ...string, format: 'date', description: "Kept until this day (your plan's retention)" },
    request_id: { type: ['string', 'null'], description: 'The x-request-id of the call that asked' },
    model_version: string,
    valuation_date: { ...string, format: 'date' },
    // additionalProperties: the reply's serializer would otherwise send these objects empty.
    input: { type: 'object', additionalProperties: true, description: 'The request as the service understood it (canonical codes: the model\'s inputs)' },
    valuation: { type: 'object', additionalProperties: true, description: 'The valuation as it was answered (the reply of POST /api/predict/home or /api/predict/vehicle)' },
  },
} as const;

const errors = { '4xx': errorResponseJsonSchema(), '5xx': errorResponseJsonSchema() };
const idParam = { type: 'object', required: ['id'], properties: { id: { ...string, description: 'A valuation_id' } } };
const kindQuery = { type: 'string', enum: ['home', 'vehicle'] };

/** A valuation_id the caller's organisation did not make (or that is past its retention). */
export const notFound = (id: string) => new ApiError('NOT_FOUND', `no valuation ${id.slice(0, 40)} of your organisation (it was made by another, or it is past its retention)`, 'id');
const kindOf = (kind: string | undefined) => (kind ? kind.toUpperCase() : null);

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
      response: { 200: { type: 'object', required: ['valuations', 'next'], properties: { valuations: { type: 'array', items: VALUATION_RECORD_SCHEMA }, next: { type: ['string', 'null'] } } }, ...errors },
    },
  }, async (request) => {
    const q = request.query as { since?: string; until?: string; kind?: string; limit?: number; before?: string };
    const { valuations } = await run<{ valuations: { records: RecordData[]; next: string | null } }>(request, VALUATIONS_OPERATION, { kind: kindOf(q.kind), since: q.since ?? null, until: q.until ?? null, before: q.before ?? null, limit: q.limit ?? null });
    return { valuations: valuations.records.map(toRecordRest), next: valuations.next };
  });

  app.get('/api/valuations/sample', {
    preHandler: auth.either,
    schema: {
      tags: ['valuations'],
      summary: "A random sample of your organisation's valuations of a period, for review (API key or bearer token)",
      description: 'period: YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DD/YYYY-MM-DD; n (default 20, at most 200); kind; seed: the same seed on the same period draws the same sample (the reply gives the seed it used).',
      security: SECURITY.apiKeyOrBearer,
      querystring: { type: 'object', required: ['period'], properties: { period: string, n: { type: 'integer', minimum: 1, maximum: 200 }, kind: kindQuery, seed: string } },
      response: {
        200: {
          type: 'object',
          required: ['since', 'until', 'population', 'seed', 'valuations'],
          properties: { since: { ...string, format: 'date' }, until: { ...string, format: 'date' }, population: { type: 'integer', description: 'Valuations made in the period' }, seed: string, valuations: { type: 'array', items: VALUATION_RECORD_SCHEMA } },
        },
        ...errors,
      },
    },
  }, async (request) => {
    const q = request.query as { period: string; n?: number; kind?: string; seed?: string };
    const { valuationSample: s } = await run<{ valuationSample: { since: string; until: string; population: number; seed: string; records: RecordData[] } }>(request, SAMPLE_OPERATION, { period: q.period, n: q.n ?? null, kind: kindOf(q.kind), seed: q.seed ?? null });
    return { since: s.since, until: s.until, population: s.population, seed: s.seed, valuations: s.records.map(toRecordRest) };
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
  }, async (request) => {
    const { id } = request.params as { id: string };
    const { valuation } = await run<{ valuation: RecordData | null }>(request, VALUATION_RECORD_OPERATION, { id });
    if (!valuation) throw notFound(id);
    return toRecordRest(valuation);
  });

  app.post('/api/valuations/:id/revalue', {
    preHandler: auth.either,
    schema: {
      tags: ['valuations'],
      summary: 'Value a recorded valuation again with the model in service, today, beside the old one with the change explained (API key or bearer token)',
      description: "The new valuation is recorded in its turn. change: estimate now = before × model × market × observations × exchange_rate (ratios, up to rounding): the model version's change at the old date, the market index from the old date to today, your organisation's observed prices, and the soʻm rate's own move.",
      security: SECURITY.apiKeyOrBearer,
      params: idParam,
      response: {
        200: {
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
        },
        ...errors,
      },
    },
  }, async (request) => {
    const { id } = request.params as { id: string };
    type Change = { estimateBefore: number; estimateNow: number; ratio: number; modelVersionBefore: string; modelVersionNow: string; valuationDateBefore: string; valuationDateNow: string; model: number; market: number; observations: number; exchangeRate: number; explanation: string };
    const { revalueValuation: r } = await run<{ revalueValuation: { previous: RecordData; current: RecordData; change: Change } | null }>(request, REVALUE_OPERATION, { id });
    if (!r) throw notFound(id);
    const c = r.change;
    return {
      previous: toRecordRest(r.previous),
      current: toRecordRest(r.current),
      change: {
        estimate_before: c.estimateBefore, estimate_now: c.estimateNow, ratio: c.ratio, model_version_before: c.modelVersionBefore, model_version_now: c.modelVersionNow,
        valuation_date_before: c.valuationDateBefore, valuation_date_now: c.valuationDateNow, model: c.model, market: c.market, observations: c.observations, exchange_rate: c.exchangeRate, explanation: c.explanation,
      },
    };
  });
}
