/**
 * The webhook events a receiver can get: pure data, no I/O (docs/ARCHITECTURE.md, "A batch job"). Field names are
 * snake_case like the REST bodies, because receivers read them as JSON.
 */
import { createHash } from 'node:crypto';

/** The states a batch job ends in; only these produce a `batch.completed` event. */
export type TerminalBatchStatus = 'completed' | 'failed' | 'cancelled';

/** Sent once when a batch job ends, whatever way it ends. */
export interface BatchCompletedEvent {
  readonly type: 'batch.completed';
  /** The batch job's id. */
  readonly id: string;
  readonly status: TerminalBatchStatus;
  readonly total: number;
  readonly succeeded: number;
  readonly failed: number;
  /** Where the NDJSON results stream is (`GET /api/batch/{id}/results`). */
  readonly results_url: string;
  /** ISO 8601, UTC. */
  readonly completed_at: string;
}

/** Every event we send; a union so new types are added here, once. */
export type WebhookEvent = BatchCompletedEvent;

/**
 * The `webhook-id` of an event: the same for one job and event type on every attempt and after a
 * restart, so receivers can drop duplicates. A hash rather than the raw job id keeps the header
 * free of `.` (the signed content's separator) and of whatever characters job ids may contain.
 */
export function webhookId(event: Pick<WebhookEvent, 'type' | 'id'>): string {
  return `msg_${createHash('sha256').update(`${event.type}\n${event.id}`).digest('base64url').slice(0, 32)}`;
}
