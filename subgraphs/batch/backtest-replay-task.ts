/**
 * A replay handed to the backtest worker (./backtest-replay-worker.ts runs it; ./backtest-replay.ts
 * sends it): its own module, since both sides need it.
 */
import type { BacktestObservation } from '../../models/observations';
import type { ValuedKind } from '../common/valuing-peers';

export interface ReplayTask {
  kind: ValuedKind;
  observations: BacktestObservation[];
}
