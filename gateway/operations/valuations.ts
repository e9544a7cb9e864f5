/**
 * The records of valuations given (issue 19), the same on every door: GET /api/valuations… and the
 * report (gateway/rest/valuations.ts, gateway/rest/valuation-report.ts) and MCP's get_valuation read
 * them through these operations of the valuations subgraph, each record in the same REST form.
 */
import { toHomeRestResponse, type HomeValuationView } from '../../schema/home-rest';
import { toVehicleRestResponse, type VehicleValuationView } from '../../schema/vehicle-rest';
import type { GraphExecutor } from '../graph/executor';

const RECORD_SELECTION = 'id kind createdAt keepUntil requestId modelVersion estimate currency intervalLow intervalHigh valuationDate input valuation';

export const VALUATION_RECORD_OPERATION = { owner: 'valuations', query: `query RestValuation($id: String!) { valuation(id: $id) { ${RECORD_SELECTION} } }` };
export const VALUATIONS_OPERATION = { owner: 'valuations', query: `query RestValuations($kind: ValuationKind, $since: String, $until: String, $before: String, $limit: Int) { valuations(kind: $kind, since: $since, until: $until, before: $before, limit: $limit) { records { ${RECORD_SELECTION} } next } }` };
export const VALUATION_SAMPLE_OPERATION = { owner: 'valuations', query: `query RestValuationSample($period: String!, $n: Int, $kind: ValuationKind, $seed: String) { valuationSample(period: $period, n: $n, kind: $kind, seed: $seed) { since until population seed records { ${RECORD_SELECTION} } } }` };
export const REVALUE_OPERATION = { owner: 'valuations', query: `mutation RestRevalue($id: String!) { revalueValuation(id: $id) { previous { ${RECORD_SELECTION} } current { ${RECORD_SELECTION} } change { estimateBefore estimateNow ratio modelVersionBefore modelVersionNow valuationDateBefore valuationDateNow model market observations exchangeRate explanation } } }` };

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
/** A record in REST names (GET /api/valuations/{id}'s body, get_valuation's reply). */
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

/** The caller's organisation's record `id` through `executor`; null for another organisation's id, or one past its retention. */
export async function valuationRecordOf(executor: GraphExecutor, id: string): Promise<RecordData | null> {
  return (await executor.execute<{ valuation: RecordData | null }>(VALUATION_RECORD_OPERATION, { id })).valuation;
}
