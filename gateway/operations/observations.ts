/**
 * Observed prices, the same on every door: POST /api/observations (gateway/rest/observations.ts) and
 * MCP's record_observations run `recordObservationsBody`; DELETE /api/observations/{id} and
 * retract_observations run `retractObservations`; the export (GET /api/observations) pages through
 * LIST_OBSERVATIONS_OPERATION, and get_model_accuracy reads LIVE_ACCURACY_OPERATION. Every operation
 * here is owned by the observations subgraph.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApiError } from '../../schema/errors';
import { MAX_REJECTED_LISTED } from '../../schema/observations-contract';
import type { GraphExecutor } from '../graph/executor';
import { unpaced, type BulkLane } from '../http/bulk-pacing';
import { itemError, toObservationInput, type ItemError } from './observation-items';

export const RECORD_OBSERVATIONS_OPERATION = { owner: 'observations', query: /* GraphQL */ `
  mutation RestRecordObservations($input: RecordObservationsInput!) {
    recordObservations(input: $input) {
      accepted
      acceptedObservations { index id reference }
      rejected { index reference error { code message field } }
      rejectedCount
    }
  }` };

export const RETRACT_OBSERVATIONS_OPERATION = { owner: 'observations', query: /* GraphQL */ `
  mutation RestRetractObservations($ids: [ID!]!) {
    retractObservations(ids: $ids) { retracted retractedIds notFound }
  }` };

/**
 * Items are recorded in parts of this many, an upload's and a JSON body's alike: one
 * recordObservations call each (well under the cost check's 20,000 a call), paced behind other
 * callers' requests (gateway/http/bulk-pacing.ts), and an upload's key checked again before each
 * (a key revoked mid-upload stops it) (issue 33, findings 2 and 7).
 */
export const OBSERVATIONS_PART = 1_000;

/** JSON items are read into GraphQL inputs this many at a time, other requests served between. */
const READ_SLICE = 1_000;

interface RecordedData {
  recordObservations: {
    accepted: number;
    acceptedObservations: { index: number; id: string; reference: string | null }[];
    rejected: { index: number; reference: string | null; error: ItemError }[];
    rejectedCount: number;
  };
}

const errorSchema = { type: 'object', required: ['code', 'message', 'field'], properties: { code: { type: 'string' }, message: { type: 'string' }, field: { type: ['string', 'null'] } } };

/** POST /api/observations' reply (and MCP record_observations'): accepted count, each kept item's id, each refused item's error. */
export const RECORDED_OBSERVATIONS_SCHEMA = {
  type: 'object',
  required: ['accepted', 'accepted_observations', 'rejected', 'rejected_count'],
  properties: {
    accepted: { type: 'integer' },
    accepted_observations: { type: 'array', items: { type: 'object', required: ['index', 'id', 'reference'], properties: { index: { type: 'integer' }, id: { type: 'string' }, reference: { type: ['string', 'null'] } } } },
    rejected: { type: 'array', description: `The first ${MAX_REJECTED_LISTED.toLocaleString('en')} refused items, in order`, items: { type: 'object', required: ['index', 'reference', 'error'], properties: { index: { type: 'integer' }, reference: { type: ['string', 'null'] }, error: errorSchema } } },
    rejected_count: { type: 'integer', description: 'Every refused item, listed in rejected or not' },
  },
};

export type RecordedObservationsReply = {
  accepted: number;
  accepted_observations: { index: number; id: string; reference: string | null }[];
  rejected: { index: number; reference: string | null; error: ItemError }[];
  rejected_count: number;
};

/** Adds `more` refused items (in index order, after those listed) to `reply`: listed up to MAX_REJECTED_LISTED, all counted. */
export function addRejected(reply: RecordedObservationsReply, more: RecordedObservationsReply['rejected'], count = more.length): void {
  const room = MAX_REJECTED_LISTED - reply.rejected.length;
  if (room > 0) reply.rejected.push(...more.slice(0, room));
  reply.rejected_count += count;
}

/**
 * A body { observations: [ … ] } in REST names → recordObservations through `executor`, each bad
 * item refused in its place (REST and MCP alike), its parts run through `pace`.
 */
export async function recordObservationsBody(executor: GraphExecutor, body: unknown, pace: BulkLane = unpaced): Promise<RecordedObservationsReply> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError('INVALID_PARAMETER', 'The body must be a JSON object { "observations": [ … ] }');
  const { observations } = body as { observations?: unknown };
  if (!Array.isArray(observations)) throw new ApiError(observations === undefined ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER', 'observations must be an array of observations', 'observations');
  const rejected: RecordedObservationsReply['rejected'] = [];
  const forwarded: { index: number; input: Record<string, unknown> }[] = [];
  for (let index = 0; index < observations.length; index++) {
    if (index > 0 && index % READ_SLICE === 0) await nextTurn(); // a 100,000-item body is read in slices, other requests served between
    const item: unknown = observations[index];
    try {
      forwarded.push({ index, input: toObservationInput(item) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const reference = (item as { reference?: unknown } | null)?.reference;
      rejected.push({ index, reference: typeof reference === 'string' ? reference : null, error: itemError(error) });
    }
  }
  const accepted: RecordedObservationsReply['accepted_observations'] = [];
  let rejectedCount = rejected.length;
  for (let from = 0; from < forwarded.length; from += OBSERVATIONS_PART) {
    const part = forwarded.slice(from, from + OBSERVATIONS_PART);
    let result: RecordedData['recordObservations'];
    try {
      result = (await pace.run(() => executor.execute<RecordedData>(RECORD_OBSERVATIONS_OPERATION, { input: { observations: part.map((f) => f.input) } }))).recordObservations;
    } catch (error) {
      if (!(error instanceof ApiError) || from === 0) throw error;
      throw new ApiError(error.code, `${error.message.replace(/\.$/, '')}: stopped at item ${part[0].index}; the ${accepted.length.toLocaleString('en')} observations recorded before it are kept`, error.field);
    }
    accepted.push(...result.acceptedObservations.map((a) => ({ ...a, index: part[a.index].index })));
    // The graph lists its first refusals only: with these, they are still the first of the body's.
    rejected.push(...result.rejected.map((r) => ({ ...r, index: part[r.index].index })));
    rejectedCount += result.rejectedCount;
  }
  rejected.sort((a, b) => a.index - b.index);
  const reply: RecordedObservationsReply = { accepted: accepted.length, accepted_observations: accepted, rejected: [], rejected_count: 0 };
  addRejected(reply, rejected, rejectedCount);
  return reply;
}

export const LIST_OBSERVATIONS_OPERATION = { owner: 'observations', query: /* GraphQL */ `
  query RestListObservations($kind: ObservationKind!, $since: String, $until: String, $limit: Int, $offset: Int) {
    observations(kind: $kind, since: $since, until: $until, limit: $limit, offset: $offset) {
      id kind observedAt recordedAt priceUsd priceType reference groups baseEstimate baseLow baseHigh modelVersion input
    }
  }` };

/** An observation as LIST_OBSERVATIONS_OPERATION selects it. */
export interface ListedObservation {
  id: string; kind: string; observedAt: string; recordedAt: string; priceUsd: number; priceType: string; reference: string | null;
  groups: string[]; baseEstimate: number | null; baseLow: number | null; baseHigh: number | null; modelVersion: string | null; input: Record<string, unknown>;
}

export interface RetractedData {
  retractObservations: { retracted: number; retractedIds: string[]; notFound: string[] };
}

/** Retracts the caller's organisation's observations `ids` through `executor`: what was retracted, and the ids it holds none under. */
export async function retractObservations(executor: GraphExecutor, ids: readonly string[]): Promise<RetractedData['retractObservations']> {
  return (await executor.execute<RetractedData>(RETRACT_OBSERVATIONS_OPERATION, { ids })).retractObservations;
}

/** The caller's live accuracy of one kind (null overall: no observations), for get_model_accuracy. */
export const LIVE_ACCURACY_OPERATION = { owner: 'observations', query: /* GraphQL */ `
  query McpLiveAccuracy($kind: ObservationKind!) {
    liveAccuracy(kind: $kind) {
      asOf level driftRule
      overall { service { observations medianApe within10 meanBias meanBiasLow meanBiasHigh coverage coverageLow coverageHigh } base { observations medianApe meanBias coverage } drift { judged flagged bias coverage reasons } }
      groups { group service { observations medianApe meanBias coverage } drift { flagged bias coverage } }
    }
  }` };

/** GraphQL's liveAccuracy as LIVE_ACCURACY_OPERATION selects it. */
export interface LiveAccuracyData {
  asOf: string;
  level: string;
  driftRule: string;
  overall: { service: { observations: number; medianApe: number; meanBias: number; coverage: number }; drift: { flagged: boolean; reasons: string[] } } | null;
  groups: { group: string; drift: { flagged: boolean } }[];
}
