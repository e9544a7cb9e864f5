import type { ProgressEvent } from './types';

export type ProgressListener = (event: ProgressEvent) => void;

/**
 * Fire-and-forget fan-out of progress events per job id. Nothing is stored: a subscriber sees
 * what is published while it is subscribed. Readers needing a complete picture combine it with
 * the job store (see progress-stream.ts).
 */
export interface ProgressBus {
  publish(event: ProgressEvent): Promise<void>;
  /** Resolves once events published from then on reach `listener`; the result unsubscribes it. */
  subscribe(jobId: string, listener: ProgressListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
