/**
 * Completion webhooks (docs/ARCHITECTURE.md, "A batch job"): every job that ends with a callback URL gets one signed
 * `batch.completed` delivery, retried with backoff, every attempt recorded on the job. Runs in
 * the API process, on the engine's job-ended announcements (each end is handed to one engine of
 * all those on a shared Redis). The announcement is held until the delivery ends, so the engine's
 * ended-jobs outbox hands a delivery cut short by a shutdown or a crash to the next process, which
 * goes on from the attempts recorded (same webhook-id; receivers drop a repeat by it).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchEngine, BatchJob } from '../../platform/batch-engine';
import { resultsPath } from './api';
import { backoffBound, deliverWebhook, retryOptions, type BatchCompletedEvent, type CallbackUrlPolicy, type DeliveryAttempt, type RetryOptions, type TerminalBatchStatus, type WebhookSecretSource } from './webhooks';

export type { WebhookSecretSource } from './webhooks';

export interface CompletionWebhooksOptions {
  secrets: WebhookSecretSource;
  policy: CallbackUrlPolicy;
  /** Prefixed to results_url (e.g. https://valuation.example.uz); @default '' (a path) */
  publicBaseUrl?: string;
  retry?: Partial<RetryOptions>;
  log?: (message: string) => void;
}

export interface CompletionWebhooks {
  /** Stops listening and cuts deliveries under way short: their attempts stay recorded, and the next process goes on. */
  close(): Promise<void>;
}

export function sendCompletionWebhooks(engine: BatchEngine, options: CompletionWebhooksOptions): CompletionWebhooks {
  const log = options.log ?? ((message: string) => console.error(`[batch] ${message}`));
  const stop = new AbortController();
  const pending = new Set<Promise<void>>();

  /**
   * The organisation's signing secret. While its store cannot answer (Redis away or stalled) it is
   * asked again with the delivery's own backoff, so the delivery waits rather than being lost;
   * undefined when shutdown comes first (the job's end stays in the outbox for the next process).
   */
  const secretOf = async (organisation: string): Promise<string | undefined> => {
    const retry = retryOptions(options.retry);
    for (let attempt = 1; !stop.signal.aborted; attempt++) {
      try {
        return await options.secrets.secretFor(organisation);
      } catch (error) {
        const delay = backoffBound(attempt, retry);
        log(`the webhook signing secret of ${organisation} is out of reach (${error instanceof Error ? error.message : String(error)}); asking again in ${delay} ms`);
        await sleep(delay, undefined, { signal: stop.signal }).catch(() => undefined);
      }
    }
    return undefined;
  };

  const deliver = async (job: BatchJob): Promise<void> => {
    // What an earlier process recorded before a shutdown or crash: the delivery goes on from there (or is over).
    const earlier = (job.deliveries ?? []) as DeliveryAttempt[];
    const event: BatchCompletedEvent = {
      type: 'batch.completed',
      id: job.id,
      status: job.status as TerminalBatchStatus,
      total: job.total,
      succeeded: job.succeeded,
      failed: job.failed,
      results_url: `${options.publicBaseUrl ?? ''}${resultsPath(job.id)}`,
      completed_at: job.completedAt ?? new Date().toISOString(),
    };
    const secret = await secretOf(job.organisation);
    if (secret === undefined) {
      log(`the completion webhook of batch job ${job.id} was cut short by shutdown while its signing secret was out of reach; the next process goes on`);
      return;
    }
    const outcome = await deliverWebhook({
      url: job.callbackUrl!,
      secret,
      event,
      policy: options.policy,
      retry: options.retry,
      signal: stop.signal,
      earlierAttempts: earlier,
      onAttempt: async (attempt) => {
        await engine.recordDelivery(job.organisation, job.id, attempt);
      },
    });
    // Settled by an earlier process (delivered, or 410), which recorded and reported it.
    if (outcome.attempts.length === 0 && (outcome.status === 'delivered' || outcome.status === 'gone')) return;
    if (outcome.status === 'cancelled') {
      log(`the completion webhook of batch job ${job.id} was cut short by shutdown after ${earlier.length + outcome.attempts.length} attempts; the next process goes on`);
    } else if (outcome.status !== 'delivered') {
      log(`the completion webhook of batch job ${job.id} was not delivered (${outcome.status} after ${earlier.length + outcome.attempts.length} attempts)`);
    }
  };

  const unsubscribe = engine.onJobEnded((job) => {
    if (!job.callbackUrl) return;
    const delivery = deliver(job).catch((error) => log(`the completion webhook of batch job ${job.id} failed: ${error instanceof Error ? error.message : String(error)}`));
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
    // Returned: the engine holds the job's end (its outbox entry) until the delivery is over.
    return delivery;
  });

  return {
    close: async () => {
      unsubscribe();
      stop.abort();
      await Promise.all(pending);
    },
  };
}
