/**
 * The chunk processor of backtest items (./backtest-items.ts): each observation's envelope is
 * checked as recordObservations checks it (but for the retention: nothing is kept), and the valid
 * ones are valued at their dates with the model alone in ONE `score<Kind>Observations` call to the
 * subgraph that values the kind, which keeps nothing. A bad item gets its own error; only a failed
 * call throws, so that the engine retries the chunk.
 */
import { ApiError, isErrorCode } from '../../schema/errors';
import { checkObservation, type ForwardedItem } from '../common/observation-envelope';
import { askValuingPeer, titleOf, type ValuedKind, type ValuingPeers } from '../common/valuing-peers';
import { hierarchyOf, isBacktestItem, type BacktestItem, type BacktestItemResult } from './backtest-items';
import type { ChunkProcessor, ItemResult } from '../../platform/batch-engine';

interface ScoredAnswer {
  index: number;
  scored: { base: { estimate: number; low: number; high: number; coverage: number; widening?: number; modelVersion: string }; groups: Record<string, string> } | null;
  error: { code: string; message: string; field: string | null } | null;
}

const scoreOperation = (kind: ValuedKind) => ({
  field: `score${titleOf(kind)}Observations`,
  query: `query($o: [JSONObject!]!) { score${titleOf(kind)}Observations(observations: $o) }`,
});

/** GraphQL enum spellings (HOME, SALE) as the envelope's values (home, sale): the REST door sends the former. */
function envelopeOf(observation: Record<string, unknown>): Parameters<typeof checkObservation>[0] {
  const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
  return { ...observation, kind: lower(observation.kind), priceType: lower(observation.priceType) } as Parameters<typeof checkObservation>[0];
}

/** An item the REST door could not read arrives as its refusal, to fail in its place (its index kept). */
function refuseAsSent(observation: Record<string, unknown>): void {
  const refused = observation.refused as { code?: unknown; message?: unknown; field?: unknown } | undefined;
  if (refused === undefined) return;
  throw new ApiError(isErrorCode(refused.code) ? refused.code : 'INVALID_PARAMETER', typeof refused.message === 'string' ? refused.message : 'the observation could not be read', typeof refused.field === 'string' ? refused.field : undefined);
}

/**
 * One observation of a `kind` backtest, checked as recordObservations checks it but for the
 * retention (nothing is kept): the item the scorer takes, or the ApiError refusing it.
 */
export function checkedBacktestObservation(observation: Record<string, unknown>, kind: ValuedKind, today: string): ForwardedItem {
  refuseAsSent(observation);
  const envelope = envelopeOf(observation);
  if (envelope.kind !== kind) throw new ApiError('INVALID_PARAMETER', `a ${kind} backtest replays ${kind} observations only`, 'kind');
  return checkObservation(envelope, today, null);
}

/** A scored item as backtest() replays it: its group path in the kind's hierarchy, its price, and the model's valuation at its date. */
export function backtestResultOf(kind: ValuedKind, item: ForwardedItem, scored: NonNullable<ScoredAnswer['scored']>): BacktestItemResult {
  const { modelVersion, ...base } = scored.base;
  return {
    kind, groups: hierarchyOf(kind).levels.map((level) => scored.groups[level]), observedAt: item.observedAt, priceUsd: item.priceUsd, priceType: item.priceType,
    base, ...(item.reference !== null && { reference: item.reference }), modelVersion,
  };
}

export function createBacktestProcessor(peers: ValuingPeers, clock: () => number = Date.now): ChunkProcessor {
  return async (items, context) => {
    const results: ItemResult[] = new Array(items.length);
    const fail = (position: number, error: ApiError) => {
      results[position] = { index: context.firstIndex + position, ok: false, error: { code: error.code, message: error.field ? `${error.message} (field ${error.field})` : error.message } };
    };
    const today = new Date(clock()).toISOString().slice(0, 10);
    const kind = (items[0] as BacktestItem).backtest;
    const checked: { position: number; item: ForwardedItem }[] = [];
    (items as readonly BacktestItem[]).forEach(({ observation }, position) => {
      try {
        checked.push({ position, item: checkedBacktestObservation(observation, kind, today) });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        fail(position, error);
      }
    });
    if (checked.length === 0) return results;
    const caller = { organisation: context.organisation, requestId: `backtest-${context.jobId}-${context.chunkIndex}` };
    const answers = await askValuingPeer<ScoredAnswer[]>(peers, kind, scoreOperation(kind), { o: checked.map((c) => c.item) }, caller);
    if (answers.length !== checked.length) throw new Error(`score${titleOf(kind)}Observations answered ${answers.length} results for ${checked.length} observations`);
    answers.forEach(({ scored, error }, i) => {
      const { position, item } = checked[i];
      if (!scored) return fail(position, new ApiError(isErrorCode(error?.code) ? error.code : 'INTERNAL', error?.message, error?.field ?? undefined));
      results[position] = { index: context.firstIndex + position, ok: true, result: backtestResultOf(kind, item, scored) };
    });
    return results;
  };
}

/** Chunks of backtest items to a backtest processor, the others to `portfolio`: a job's items are all of one sort. */
export function withBacktests(portfolio: ChunkProcessor, peers: ValuingPeers): ChunkProcessor {
  const backtest = createBacktestProcessor(peers);
  return (items, context) => (isBacktestItem(items[0]) ? backtest : portfolio)(items, context);
}
