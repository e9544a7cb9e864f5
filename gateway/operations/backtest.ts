/**
 * A bank's backtest (issue 31), the same on every door: POST /api/backtest and GET /api/backtest/{id}
 * (gateway/rest/backtest.ts) and MCP's submit_backtest and get_backtest run these operations on the
 * batch subgraph. Submitting reads each item as an observation (`backtestObservation`), a bad one
 * going on as its refusal; a file's parts (openBacktest, appendBacktestObservations) are REST's
 * alone, and `npm run backtest` reads items the same way.
 */
import { ApiError } from '../../schema/errors';
import type { GraphExecutor } from '../graph/executor';
import type { BacktestReportData } from '../reports/backtest-content';
import type { BatchJobData } from './batch';
import { itemError, toObservationInput } from './observation-items';

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

/** The caller's organisation's backtest `id`, with its report when asked and done; an unknown id, another organisation's, or a job that is not a backtest is NOT_FOUND. */
export async function backtestOf(executor: GraphExecutor, id: string, withReport: boolean): Promise<BacktestData> {
  const { backtest } = await executor.execute<{ backtest: BacktestData | null }>(BACKTEST_OPERATION, { id, withReport });
  if (!backtest) throw new ApiError('NOT_FOUND', `No backtest ${id.slice(0, 100)}`, 'id');
  return backtest;
}

/** POST /api/backtest's 202 body (submit_backtest's reply too). */
export const BACKTEST_ACCEPTED_SCHEMA = { type: 'object', required: ['id', 'kind', 'status', 'total', 'created_at'], properties: { id: { type: 'string' }, kind: { type: 'string' }, status: { type: 'string' }, total: { type: 'integer' }, created_at: { type: 'string' } } };

export function toAcceptedBacktestResponse(accepted: AcceptedBacktest) {
  return { id: accepted.id, kind: accepted.kind.toLowerCase(), status: 'queued' as const, total: accepted.job.total, created_at: accepted.job.createdAt };
}
