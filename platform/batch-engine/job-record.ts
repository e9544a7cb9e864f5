import type { BatchJob, JobStatus } from './types';

/** A job as both stores keep it: times in epoch ms, absent until they happen. */
export interface JobFields {
  readonly id: string;
  readonly organisation: string;
  readonly chunkSize: number;
  readonly callbackUrl?: string;
  readonly type?: string;
  readonly fileName?: string;
  readonly createdAt: number;
  status: JobStatus;
  total: number;
  /** No more items will come (see BatchJob.sealed). */
  sealed: boolean;
  processed: number;
  succeeded: number;
  failed: number;
  startedAt?: number;
  completedAt?: number;
  error?: string;
}

/** The public record: ISO times, optional fields only when set, deliveries only when asked for and present. */
export function toBatchJob(job: JobFields, deliveries?: readonly unknown[]): BatchJob {
  return {
    id: job.id,
    organisation: job.organisation,
    status: job.status,
    total: job.total,
    sealed: job.sealed,
    processed: job.processed,
    succeeded: job.succeeded,
    failed: job.failed,
    createdAt: isoTime(job.createdAt),
    startedAt: job.startedAt === undefined ? null : isoTime(job.startedAt),
    completedAt: job.completedAt === undefined ? null : isoTime(job.completedAt),
    ...(job.callbackUrl !== undefined && { callbackUrl: job.callbackUrl }),
    ...(job.type !== undefined && { type: job.type }),
    ...(job.fileName !== undefined && { fileName: job.fileName }),
    chunkSize: job.chunkSize,
    ...(job.error !== undefined && { error: job.error }),
    ...(deliveries !== undefined && deliveries.length > 0 && { deliveries }),
  };
}

function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
