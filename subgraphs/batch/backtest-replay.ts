/**
 * A finished backtest job's report: its scored observations read back from the engine in item
 * order, replayed by models/observations' backtest() on a worker thread (piscina, one thread,
 * started on the first replay and stopped after a minute without one), and kept for the last few
 * jobs asked about: a finished job's results never change, and a committee's PDF and CSV are
 * usually fetched one after the other.
 */
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import type { BacktestReport } from '../../models/observations';
import type { ValuedKind } from '../common/valuing-peers';
import type { BacktestItemResult } from './backtest-items';
import type { ReplayTask } from './backtest-replay-task';
import run = require('./backtest-replay-worker');
import type { BatchEngine, BatchJob } from '../../platform/batch-engine';

export type { ReplayTask } from './backtest-replay-task';

/** The refused items a report lists one by one; beyond, it counts them. */
const LISTED_REFUSALS = 1000;
/** Finished jobs' reports kept in memory. */
const KEPT_REPORTS = 16;

/** The report a job's owner reads: backtest()'s, with what was submitted, refused and which model versions scored it. */
export type BacktestJobReport = BacktestReport & {
  jobId: string;
  submitted: number;
  modelVersions: string[];
  refused: { count: number; items: { index: number; code: string; message: string }[] };
};

export interface BacktestReplayer {
  replay(task: ReplayTask): Promise<BacktestReport>;
  close(): Promise<void>;
}

/** Replays in this thread: for tests and tools that want no threads. */
export const inlineReplayer: BacktestReplayer = { replay: async (task) => run(task), close: async () => undefined };

export function workerReplayer(): BacktestReplayer {
  const pool = new Piscina({ filename: join(__dirname, 'backtest-replay-worker.js'), minThreads: 0, maxThreads: 1, idleTimeout: 60_000 });
  return { replay: (task) => pool.run(task), close: () => pool.destroy() };
}

export class BacktestReports {
  private readonly kept = new LRUCache<string, Promise<BacktestJobReport>>({ max: KEPT_REPORTS });

  constructor(
    private readonly engine: BatchEngine,
    private readonly replayer: BacktestReplayer,
  ) {}

  /** The report of `job` (completed, the organisation's own, a backtest of `kind`). */
  reportOf(organisation: string, job: BatchJob, kind: ValuedKind): Promise<BacktestJobReport> {
    const key = `${job.id}@${job.completedAt}`;
    let report = this.kept.get(key);
    if (!report) {
      report = this.build(organisation, job, kind);
      this.kept.set(key, report);
      report.catch(() => this.kept.delete(key)); // a failed read is tried again next time
    }
    return report;
  }

  private async build(organisation: string, job: BatchJob, kind: ValuedKind): Promise<BacktestJobReport> {
    const scored: BacktestItemResult[] = [];
    const refused: BacktestJobReport['refused'] = { count: 0, items: [] };
    for await (const result of this.engine.results(organisation, job.id)) {
      if (result.ok) scored.push(result.result as BacktestItemResult);
      else if (refused.count++ < LISTED_REFUSALS) refused.items.push({ index: result.index, code: result.error.code, message: result.error.message });
    }
    const report = await this.replayer.replay({ kind, observations: scored });
    const modelVersions = [...new Set(scored.map((o) => o.modelVersion))].sort();
    return { ...report, kind, jobId: job.id, submitted: job.total, modelVersions, refused };
  }
}
