import type { JobStore } from './job-store';
import type { ProgressBus } from './progress-bus';
import { progressEventOf } from './progress-event';
import type { ProgressEvent } from './types';

/**
 * One reader's view of a job's progress: a snapshot first, then the bus's events; whenever the bus
 * is silent for heartbeatMs, a fresh snapshot from the store. So a reader hears at least once per
 * heartbeat even while no worker has the job, and learns of the end even if the final message was
 * lost. Events behind one already yielded (several workers publish) are dropped, so `processed`
 * never goes down; the iterable ends after its one final event.
 */
export async function* followProgress(
  store: JobStore,
  bus: ProgressBus,
  jobId: string,
  heartbeatMs: number,
): AsyncGenerator<ProgressEvent> {
  const inbox = new NewestEvent();
  const unsubscribe = await bus.subscribe(jobId, (event) => inbox.put(event));
  try {
    // Read after subscribing: an end before this read shows in it, one after it reaches the inbox.
    let last = await snapshot(store, jobId);
    if (!last) return;
    yield last;
    while (!last.final) {
      const next = (await inbox.take(heartbeatMs)) ?? (await snapshot(store, jobId));
      if (!next) return; // expired meanwhile
      if (!next.final && next.processed < last.processed) continue;
      last = next;
      yield next;
    }
  } finally {
    inbox.close();
    await unsubscribe();
  }
}

async function snapshot(store: JobStore, jobId: string): Promise<ProgressEvent | undefined> {
  const job = await store.get(jobId);
  return job && progressEventOf(job);
}

/**
 * The newest event not yet taken: events are snapshots, so a slow reader loses nothing by
 * skipping older ones, and memory stays at one event. A final event is never replaced.
 */
class NewestEvent {
  private event: ProgressEvent | undefined;
  private wake: (() => void) | undefined;

  put(event: ProgressEvent): void {
    if (this.event?.final) return;
    this.event = event;
    this.wake?.();
  }

  /** The newest event, waiting up to timeoutMs for one; undefined if none came. */
  async take(timeoutMs: number): Promise<ProgressEvent | undefined> {
    if (!this.event) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    const event = this.event;
    this.event = undefined;
    return event;
  }

  close(): void {
    this.wake?.();
  }
}
