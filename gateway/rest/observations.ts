/**
 * POST /api/observations (X-API-Key or Bearer): prices the organisation observed, each item a
 * valuation request's fields (as POST /api/predict/home or /api/predict/vehicle take them) with
 * kind, price_usd, observed_at, price_type and reference. A bad item is refused in its place; the
 * others go to `recordObservations` in one call. Issue 18.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { MAX_BATCH_BODY_BYTES } from '../../schema/batch-contract';
import { ApiError } from '../../schema/errors';
import { parseHomeRestBody } from '../../schema/home-rest';
import { parseVehicleRestBody } from '../../schema/vehicle-rest';
import type { Graph } from '../graph/apollo';
import { gatewayExecutor, type GraphExecutor } from '../graph/executor';
import { SECURITY, withExample } from '../ops/openapi';
import { errorResponseJsonSchema } from './response-schemas';

export const RECORD_OBSERVATIONS_OPERATION = { owner: 'observations', query: /* GraphQL */ `
  mutation RestRecordObservations($input: RecordObservationsInput!) {
    recordObservations(input: $input) {
      accepted
      acceptedObservations { index id reference }
      rejected { index reference error { code message field } }
    }
  }` };

/** The item fields that are not the valuation request's. */
const ENVELOPE = ['kind', 'price_usd', 'observed_at', 'price_type', 'reference'] as const;
const KINDS = { home: { kind: 'HOME', fields: 'home', parse: parseHomeRestBody }, vehicle: { kind: 'VEHICLE', fields: 'vehicle', parse: parseVehicleRestBody } } as const;
const PRICE_TYPES = ['sale', 'appraisal', 'listing'];

interface ItemError {
  code: string;
  message: string;
  field: string | null;
}

interface RecordedData {
  recordObservations: {
    accepted: number;
    acceptedObservations: { index: number; id: string; reference: string | null }[];
    rejected: { index: number; reference: string | null; error: ItemError }[];
  };
}

/** One item of the body → the GraphQL input, or the reason it is refused (ApiError). */
function toObservationInput(item: unknown): Record<string, unknown> {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ApiError('INVALID_PARAMETER', 'an observation must be a JSON object');
  const { kind, price_usd: priceUsd, observed_at: observedAt, price_type: priceType, reference, ...fields } = item as Record<string, unknown>;
  const spec = typeof kind === 'string' ? KINDS[kind as keyof typeof KINDS] : undefined;
  if (!spec) throw new ApiError(kind === undefined ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER', 'kind must be home or vehicle', 'kind');
  if (priceUsd === undefined) throw new ApiError('MISSING_PARAMETER', 'price_usd is required', 'price_usd');
  if (typeof priceUsd !== 'number') throw new ApiError('INVALID_PARAMETER', 'price_usd must be a number', 'price_usd');
  if (observedAt === undefined) throw new ApiError('MISSING_PARAMETER', 'observed_at is required (YYYY-MM-DD)', 'observed_at');
  if (typeof observedAt !== 'string') throw new ApiError('INVALID_PARAMETER', 'observed_at must be a date, YYYY-MM-DD', 'observed_at');
  if (priceType !== undefined && priceType !== null && !PRICE_TYPES.includes(priceType as string)) throw new ApiError('INVALID_PARAMETER', `price_type must be one of ${PRICE_TYPES.join(', ')}`, 'price_type');
  if (reference !== undefined && reference !== null && typeof reference !== 'string') throw new ApiError('INVALID_PARAMETER', 'reference must be a string', 'reference');
  const { input } = spec.parse(fields);
  return {
    kind: spec.kind,
    [spec.fields]: input,
    priceUsd,
    observedAt,
    ...(typeof priceType === 'string' && { priceType: priceType.toUpperCase() }),
    ...(typeof reference === 'string' && { reference }),
  };
}

const itemError = (error: ApiError): ItemError => ({ code: error.code, message: error.message, field: error.field ?? null });

const OBSERVATIONS_EXAMPLE = {
  observations: [
    { kind: 'home', district: 'Chilanzar', area: 65, rooms: 3, floor: 4, total_floors: 9, market: 'resale', price_usd: 72000, observed_at: '2026-11-02', price_type: 'sale', reference: 'loan-2026-0042' },
    { kind: 'vehicle', make: 'Chevrolet', model: 'Cobalt', year: 2021, mileage: 60000, price_usd: 11800, observed_at: '2026-11-05' },
  ],
};

const errorSchema = { type: 'object', required: ['code', 'message', 'field'], properties: { code: { type: 'string' }, message: { type: 'string' }, field: { type: ['string', 'null'] } } };

/** The route's reply (and MCP record_observations'): accepted count, each kept item's id, each refused item's error. */
export const RECORDED_OBSERVATIONS_SCHEMA = {
  type: 'object',
  required: ['accepted', 'accepted_observations', 'rejected'],
  properties: {
    accepted: { type: 'integer' },
    accepted_observations: { type: 'array', items: { type: 'object', required: ['index', 'id', 'reference'], properties: { index: { type: 'integer' }, id: { type: 'string' }, reference: { type: ['string', 'null'] } } } },
    rejected: { type: 'array', items: { type: 'object', required: ['index', 'reference', 'error'], properties: { index: { type: 'integer' }, reference: { type: ['string', 'null'] }, error: errorSchema } } },
  },
};

export type RecordedObservationsReply = {
  accepted: number;
  accepted_observations: { index: number; id: string; reference: string | null }[];
  rejected: { index: number; reference: string | null; error: ItemError }[];
};

/**
 * A body { observations: [ … ] } in REST names → recordObservations through `executor`, each bad
 * item refused in its place (REST and MCP alike).
 */
export async function recordObservationsBody(executor: GraphExecutor, body: unknown): Promise<RecordedObservationsReply> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError('INVALID_PARAMETER', 'The body must be a JSON object { "observations": [ … ] }');
  const { observations } = body as { observations?: unknown };
  if (!Array.isArray(observations)) throw new ApiError(observations === undefined ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER', 'observations must be an array of observations', 'observations');
  const rejected: RecordedObservationsReply['rejected'] = [];
  const forwarded: { index: number; input: Record<string, unknown> }[] = [];
  observations.forEach((item: unknown, index: number) => {
    try {
      forwarded.push({ index, input: toObservationInput(item) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const reference = (item as { reference?: unknown } | null)?.reference;
      rejected.push({ index, reference: typeof reference === 'string' ? reference : null, error: itemError(error) });
    }
  });
  let accepted: RecordedObservationsReply['accepted_observations'] = [];
  if (forwarded.length > 0) {
    const data = await executor.execute<RecordedData>(RECORD_OBSERVATIONS_OPERATION, { input: { observations: forwarded.map((f) => f.input) } });
    const result = data.recordObservations;
    accepted = result.acceptedObservations.map((a) => ({ ...a, index: forwarded[a.index].index }));
    rejected.push(...result.rejected.map((r) => ({ ...r, index: forwarded[r.index].index })));
  }
  rejected.sort((a, b) => a.index - b.index);
  return { accepted: accepted.length, accepted_observations: accepted, rejected };
}

const ROUTE_SCHEMA = {
  tags: ['observations'],
  summary: 'Record prices the organisation observed: they re-anchor its valuations (API key or bearer token)',
  description: `JSON { "observations": [ … ] }, each item the fields of the matching valuation request (POST /api/predict/home or /api/predict/vehicle) with kind (home or vehicle), price_usd, observed_at (YYYY-MM-DD: not in the future, not older than the retention), price_type (sale, appraisal or listing; default listing) and an optional reference (your own id, no personal data), echoed back. Each is scored against the model at observed_at and kept for your organisation only; your valuations of the same kind are adjusted at once (market_adjustment in their replies). A bad item is refused in its place (rejected[].error), the others are kept. Up to the plan's batch size per call. ${ENVELOPE.join(', ')} are the envelope; every other field is the valuation request's.`,
  security: SECURITY.apiKeyOrBearer,
  body: withExample({ type: 'object', required: ['observations'], properties: { observations: { type: 'array', items: { type: 'object' } } } }, OBSERVATIONS_EXAMPLE),
  response: {
    200: RECORDED_OBSERVATIONS_SCHEMA,
    '4xx': errorResponseJsonSchema(),
    '5xx': errorResponseJsonSchema(),
  },
};

export function registerObservationRoutes(app: FastifyInstance, graph: Graph, auth: { either: preHandlerAsyncHookHandler }): void {
  app.post('/api/observations', { bodyLimit: MAX_BATCH_BODY_BYTES, preHandler: auth.either, schema: ROUTE_SCHEMA }, (request: FastifyRequest) =>
    recordObservationsBody(gatewayExecutor(graph, request), request.body),
  );
}
