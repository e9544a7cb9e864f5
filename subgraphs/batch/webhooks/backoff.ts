/**
 * The retry schedule: exponential backoff with full jitter (AWS Architecture Blog, "Exponential
 * Backoff and Jitter"): the wait before retry n is uniform in [0, min(maxDelay, base·2^(n-1))].
 * Full jitter spreads the retries of many jobs that ended together, so a receiver coming back
 * up is not hit by all of them at once. Pure functions, no timers: usable as a BullMQ backoff
 * strategy as well as by deliverWebhook.
 */

export interface RetryOptions {
  /** Attempts in all, the first included. @default 8 */
  maxAttempts: number;
  /** The bound of the first wait. @default 60_000 // 1 minute */
  baseDelayMs: number;
  /** No wait is longer, Retry-After included. @default 3_600_000 // 1 hour */
  maxDelayMs: number;
  /** One attempt, from connecting to the response headers. @default 10_000 // 10 seconds */
  timeoutMs: number;
}

/** Bounds 1, 2, 4, 8, 16, 32, 60 minutes: at most ≈ 2 h 3 min of waiting, ≈ 1 h on average. */
export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({
  maxAttempts: 8,
  baseDelayMs: 60_000,
  maxDelayMs: 3_600_000,
  timeoutMs: 10_000,
});

/** The defaults with the given options over them; throws RangeError on nonsense (a configuration bug). */
export function retryOptions(overrides: Partial<RetryOptions> = {}): RetryOptions {
  const options = { ...DEFAULT_RETRY, ...overrides };
  if (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1) throw new RangeError('retry.maxAttempts must be an integer ≥ 1');
  for (const key of ['baseDelayMs', 'maxDelayMs', 'timeoutMs'] as const) {
    if (!Number.isFinite(options[key]) || options[key] < 0) throw new RangeError(`retry.${key} must be a finite number ≥ 0`);
  }
  if (options.timeoutMs === 0) throw new RangeError('retry.timeoutMs must be > 0');
  return options;
}

/** The largest wait before retry `retry` (1 = the wait after the first attempt). */
export function backoffBound(retry: number, options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>): number {
  // 2^(retry-1) overflows to Infinity for large counts, which Math.min turns into maxDelayMs.
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
}

/** The wait before retry `retry`: uniform in [0, backoffBound], whole milliseconds. */
export function backoffDelay(
  retry: number,
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  return Math.round(random() * backoffBound(retry, options));
}

/**
 * A `Retry-After` header (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) in milliseconds from
 * `nowMs`; undefined when absent or unreadable, so the caller falls back to its own schedule.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const header = Array.isArray(value) ? value[0] : value;
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
