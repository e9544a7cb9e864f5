import type { JobStore } from './job-store';
import { isTerminal } from './job-status';
import type { ProgressBus } from './progress-bus';
import { progressEventOf } from './progress-event';

/** Publishes the job's current numbers; final when it has ended. Failures are logged: progress is best-effort. */
export async function publishProgress(
  store: JobStore,
  bus: ProgressBus,
  jobId: string,
  log: (message: string) => void,
): Promise<void> {
  try {
    const job = await store.get(jobId);
    if (job) await bus.publish(progressEventOf(job));
  } catch (error) {
    log(`could not publish progress of batch job ${jobId}: ${(error as Error).message}`);
  }
}

interface BusyJob {
  chunks: number;
  lastBusyAt: number;
}

/**
 * A worker's regular progress: every intervalMs, one event per job it is busy with, read from the
 * store's counters. Throttled (not one per item or chunk), and still regular while a long chunk
 * runs. The final event is not its business: whoever ends a job publishes that.
 */
export class ProgressTicker {
  private readonly busy = new Map<string, BusyJob>();
  private readonly timer: NodeJS.Timeout;
  private ticking = false;

  constructor(
    private readonly store: JobStore,
    private readonly bus: ProgressBus,
    private readonly intervalMs: number,
    private readonly log: (message: string) => void,
  ) {
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  busyWith(jobId: string): void {
    const busy = this.busy.get(jobId) ?? { chunks: 0, lastBusyAt: 0 };
    busy.chunks += 1;
    busy.lastBusyAt = Date.now();
    this.busy.set(jobId, busy);
  }

  doneWith(jobId: string): void {
    const busy = this.busy.get(jobId);
    if (!busy) return;
    busy.chunks -= 1;
    busy.lastBusyAt = Date.now();
  }

  close(): void {
    clearInterval(this.timer);
    this.busy.clear();
  }

  private async tick(): Promise<void> {
    if (this.ticking) return; // a slow store: skip a beat rather than pile up reads
    this.ticking = true;
    try {
      const now = Date.now();
      for (const [jobId, busy] of this.busy) {
        // A worker is idle for a moment between two chunks of a job: keep publishing across the gap.
        if (busy.chunks === 0 && now - busy.lastBusyAt > 2 * this.intervalMs) {
          this.busy.delete(jobId);
          continue;
        }
        const job = await this.store.get(jobId);
        if (!job || isTerminal(job.status)) this.busy.delete(jobId);
        else await this.bus.publish(progressEventOf(job));
      }
    } catch (error) {
      this.log(`progress tick failed: ${(error as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }
}
