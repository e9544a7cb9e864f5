/**
 * Delivers one webhook event: POST, retry on a non-2xx status, a timeout or a network error, and
 * report every attempt. One delivery is one `webhook-id` (receivers deduplicate on it); each
 * attempt gets a fresh `webhook-timestamp` and signature, as receivers refuse stale timestamps.
 *
 * When to stop: a 2xx (delivered), 410 Gone (the receiver asks us to stop), a URL or address the
 * policy refuses (retrying cannot help and must not probe), the caller's signal, or maxAttempts.
 * Redirects are not followed: a 3xx is a failed attempt, so a receiver cannot bounce us to an
 * address the policy never checked.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { backoffDelay, parseRetryAfter, retryOptions, type RetryOptions } from './backoff';
import { checkCallbackUrlShape, guardedLookup, RefusedAddressError, type CallbackUrlPolicy } from './callback-url';
import { webhookId, type WebhookEvent } from './event';
import { signWebhook } from './signature';

const USER_AGENT = 'tashkent-valuation-webhooks/1';

/** Response bodies are read only to free the connection; nobody looks at them. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Statuses whose Retry-After we take instead of our own schedule (RFC 9110 §10.2.3). */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** How the wait between attempts is spent; tests pass one that records and returns at once. */
export interface Timer {
  /** Resolves after `ms`, rejects when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realTimer: Timer = { sleep: (ms, signal) => sleep(ms, undefined, { signal }) };

/** Why an attempt got no HTTP status. `refused`: the policy refused the URL or the address it resolved to. */
export type AttemptErrorKind = 'timeout' | 'network' | 'refused' | 'aborted';

/** One attempt, as it is recorded on the job. */
export interface DeliveryAttempt {
  /** 1 for the first attempt. */
  readonly number: number;
  readonly webhookId: string;
  /** ISO 8601, when the attempt started. */
  readonly at: string;
  readonly durationMs: number;
  /** The receiver's status; absent when the attempt got none (see `error`). */
  readonly statusCode?: number;
  readonly error?: { readonly kind: AttemptErrorKind; readonly message: string };
  /** The receiver's Retry-After (429/503), in ms, as sent; the wait used is capped at maxDelayMs. */
  readonly retryAfterMs?: number;
  /** The wait before the next attempt; absent when there is none. */
  readonly nextDelayMs?: number;
}

/**
 * How a delivery ended. `failed`: maxAttempts used up; `gone`: the receiver answered 410;
 * `refused`: the policy refused the URL or its address; `cancelled`: the caller's signal.
 */
export interface DeliveryOutcome {
  readonly status: 'delivered' | 'failed' | 'gone' | 'refused' | 'cancelled';
  readonly webhookId: string;
  readonly attempts: readonly DeliveryAttempt[];
}

export interface DeliveryOptions {
  readonly url: string;
  /** The organisation's `whsec_…` secret. */
  readonly secret: string;
  readonly event: WebhookEvent;
  /** Checked again before every attempt and at every connect (DNS rebinding). @default {} (public addresses only) */
  readonly policy?: CallbackUrlPolicy;
  /** @default DEFAULT_RETRY (8 attempts, waits bounded by 1, 2, 4 … 32, 60 minutes, 10 s per attempt) */
  readonly retry?: Partial<RetryOptions>;
  /** Called after each attempt, before the wait; awaited, and what it throws ends the delivery. */
  readonly onAttempt?: (attempt: DeliveryAttempt) => void | Promise<void>;
  /** Aborting stops the delivery, during an attempt or a wait, with status `cancelled`. */
  readonly signal?: AbortSignal;
  /** @default webhookId(event) */
  readonly webhookId?: string;
  /**
   * The attempts an earlier process recorded before a shutdown or crash cut it short: numbering
   * goes on from them, they count against maxAttempts, and one that settled the delivery (2xx,
   * 410) ends it at once, with no new attempt. @default []
   */
  readonly earlierAttempts?: readonly Pick<DeliveryAttempt, 'statusCode'>[];
  /** @default realTimer */
  readonly timer?: Timer;
  /** For the jitter. @default Math.random */
  readonly random?: () => number;
  /** Wall clock in ms, for `webhook-timestamp` and `at`. @default Date.now */
  readonly now?: () => number;
}

/** Delivers `event` to `url`, retrying as documented above; resolves with the outcome, never rejects for HTTP reasons. */
export async function deliverWebhook(options: DeliveryOptions): Promise<DeliveryOutcome> {
  const retry = retryOptions(options.retry);
  const { policy = {}, signal, timer = realTimer, random = Math.random, now = Date.now } = options;
  const id = options.webhookId ?? webhookId(options.event);
  const earlier = options.earlierAttempts ?? [];
  const settledBefore = earlier.map((attempt) => settledBy(attempt.statusCode)).find((status) => status !== undefined);
  if (settledBefore) return { status: settledBefore, webhookId: id, attempts: [] };
  // Serialised once: every attempt signs and sends the very same bytes.
  const body = JSON.stringify(options.event);
  const agent = new Agent({ connect: { lookup: guardedLookup(policy), timeout: retry.timeoutMs } });
  const attempts: DeliveryAttempt[] = [];
  const end = (status: DeliveryOutcome['status']): DeliveryOutcome => ({ status, webhookId: id, attempts });

  try {
    for (let number = earlier.length + 1; number <= retry.maxAttempts; number++) {
      if (signal?.aborted) return end('cancelled');
      const at = now();
      const started = performance.now();
      const result = await attempt({ url: options.url, policy, agent, signal, timeoutMs: retry.timeoutMs, body, headers: signWebhook(options.secret, id, at / 1000, body) });
      const durationMs = Math.round(performance.now() - started);
      const final = finalStatus(result, number === retry.maxAttempts);
      const retryAfterMs = result.statusCode !== undefined && RETRY_AFTER_STATUSES.has(result.statusCode) ? parseRetryAfter(result.retryAfter, now()) : undefined;
      const nextDelayMs = final ? undefined : Math.min(retryAfterMs ?? backoffDelay(number, retry, random), retry.maxDelayMs);
      const record: DeliveryAttempt = {
        number,
        webhookId: id,
        at: new Date(at).toISOString(),
        durationMs,
        ...(result.statusCode !== undefined && { statusCode: result.statusCode }),
        ...(result.error && { error: result.error }),
        ...(retryAfterMs !== undefined && { retryAfterMs }),
        ...(nextDelayMs !== undefined && { nextDelayMs }),
      };
      attempts.push(record);
      await options.onAttempt?.(record);
      if (final) return end(final);
      try {
        await timer.sleep(nextDelayMs!, signal);
      } catch (error) {
        if (signal?.aborted) return end('cancelled');
        throw error;
      }
    }
    return end('failed'); // only when earlierAttempts had used them all: the last attempt is always final
  } finally {
    // Destroy, not close: a receiver that hangs must not hold the delivery open.
    agent.destroy().catch(() => undefined);
  }
}

interface AttemptResult {
  statusCode?: number;
  retryAfter?: string | string[];
  error?: { kind: AttemptErrorKind; message: string };
}

interface AttemptInput {
  url: string;
  policy: CallbackUrlPolicy;
  agent: Agent;
  signal: AbortSignal | undefined;
  timeoutMs: number;
  body: string;
  headers: ReturnType<typeof signWebhook>;
}

async function attempt(input: AttemptInput): Promise<AttemptResult> {
  // Sockets skip the lookup for IP literals, so literals (and the policy, which may have changed) are checked here.
  const shape = checkCallbackUrlShape(input.url, input.policy);
  if (!shape.ok) return { error: { kind: 'refused', message: shape.error.message } };
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  try {
    const response = await request(shape.url, {
      method: 'POST',
      dispatcher: input.agent,
      headers: { ...input.headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body: input.body,
      signal,
    });
    // The status is the answer; the request's signal still guards the body, so a stalled one ends at the timeout.
    await response.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
    return { statusCode: response.statusCode, retryAfter: response.headers['retry-after'] };
  } catch (error) {
    return { error: classify(error, input.signal, timeout, input.timeoutMs) };
  }
}

function classify(error: unknown, caller: AbortSignal | undefined, timeout: AbortSignal, timeoutMs: number): { kind: AttemptErrorKind; message: string } {
  if (caller?.aborted) return { kind: 'aborted', message: 'The delivery was cancelled' };
  const refused = causes(error).find((cause): cause is RefusedAddressError => cause instanceof RefusedAddressError);
  if (refused) return { kind: 'refused', message: refused.message };
  const code = causes(error).map((cause) => (cause as { code?: unknown }).code).find((value) => typeof value === 'string');
  if (timeout.aborted || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return { kind: 'timeout', message: `No response within ${timeoutMs} ms` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'network', message: code ? `${code}: ${message}` : message };
}

/** An error and its `cause` chain: undici wraps socket errors. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 5; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
  }
  return chain;
}

/** What a receiver's status code settles: a 2xx delivers, 410 Gone asks us to stop; anything else is retried. */
function settledBy(statusCode: number | undefined): 'delivered' | 'gone' | undefined {
  if (statusCode === undefined) return undefined;
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  return statusCode === 410 ? 'gone' : undefined;
}

function finalStatus(result: AttemptResult, last: boolean): DeliveryOutcome['status'] | undefined {
  const settled = settledBy(result.statusCode);
  if (settled) return settled;
  if (result.error?.kind === 'refused') return 'refused';
  if (result.error?.kind === 'aborted') return 'cancelled';
  return last ? 'failed' : undefined;
}
