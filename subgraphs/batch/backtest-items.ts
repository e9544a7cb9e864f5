/**
 * A backtest as batch items (issue 31): each observation to replay is one item, stored as
 * `{ backtest: kind, observation }`, so that a backtest runs on the batch engine exactly as a
 * portfolio does (chunks, retries, progress, retention) and its chunks are told apart from a
 * portfolio's by their items. Each item's result is the observation scored with the model in
 * service at its date: a BacktestObservation, replayed once the job has ended.
 */
import { HOME_HIERARCHY, VEHICLE_HIERARCHY, type BacktestObservation, type GroupHierarchy } from '../../models/observations';
import type { ValuedKind } from '../common/valuing-peers';

export const BACKTEST_KINDS: readonly ValuedKind[] = ['home', 'vehicle'];

/** The job type a backtest of `kind` is stored under (BatchJob.type). */
export const backtestJobType = (kind: ValuedKind): string => `backtest:${kind}`;

/** The kind a job backtests, or null for a portfolio job. */
export function backtestKindOf(type: string | undefined): ValuedKind | null {
  const kind = type?.startsWith('backtest:') ? type.slice('backtest:'.length) : null;
  return BACKTEST_KINDS.includes(kind as ValuedKind) ? (kind as ValuedKind) : null;
}

/** One stored item of a backtest: the job's kind, and the observation as GraphQL's ObservationInput carries it (JSON). */
export interface BacktestItem {
  backtest: ValuedKind;
  observation: Record<string, unknown>;
}

export function isBacktestItem(item: unknown): item is BacktestItem {
  return typeof item === 'object' && item !== null && 'backtest' in item && 'observation' in item;
}

/** A scored item's result: what backtest() replays, with the version of the model that scored it. */
export type BacktestItemResult = BacktestObservation & { modelVersion: string };

export const hierarchyOf = (kind: ValuedKind): GroupHierarchy => (kind === 'home' ? HOME_HIERARCHY : VEHICLE_HIERARCHY);
