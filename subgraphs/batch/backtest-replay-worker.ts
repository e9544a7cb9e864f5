/**
 * A backtest's replay, run on a worker thread (./backtest-replay.ts): up to MAX_BACKTEST_FITS fits
 * of the observation model, seconds of CPU for a large file, which must not hold the event loop
 * every organisation's batch calls run on.
 */
import { backtest, type BacktestReport } from '../../models/observations';
import { hierarchyOf } from './backtest-items';
import type { ReplayTask } from './backtest-replay-task';

function run(task: ReplayTask): BacktestReport {
  return backtest(task.observations, { hierarchy: hierarchyOf(task.kind) });
}

export = run;
