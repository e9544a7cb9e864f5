import { isTerminal } from './job-status';
import type { BatchJob, ProgressEvent } from './types';

/**
 * The event describing `job` at `now`. Rate and ETA come from the stored counters and start time
 * alone, so every worker publishing for the same job computes the same numbers.
 */
export function progressEventOf(job: BatchJob, now = Date.now()): ProgressEvent {
  const final = isTerminal(job.status);
  const endedAt = final && job.completedAt ? Date.parse(job.completedAt) : now;
  const elapsedSeconds = job.startedAt ? (endedAt - Date.parse(job.startedAt)) / 1000 : 0;
  const ratePerSecond = elapsedSeconds > 0 ? job.processed / elapsedSeconds : 0;
  let etaSeconds: number | null = null;
  if (final) etaSeconds = 0;
  else if (ratePerSecond > 0) etaSeconds = Math.max(0, job.total - job.processed) / ratePerSecond;
  return {
    id: job.id,
    status: job.status,
    processed: job.processed,
    succeeded: job.succeeded,
    failed: job.failed,
    total: job.total,
    ratePerSecond: round(ratePerSecond),
    etaSeconds: etaSeconds === null ? null : round(etaSeconds),
    final,
    at: new Date(now).toISOString(),
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
