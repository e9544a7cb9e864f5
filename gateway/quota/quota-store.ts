/** Requests a subject may make in each fixed window. */
export interface QuotaLimits {
  perMinute: number;
  perDay: number;
}

export type QuotaWindow = 'minute' | 'day';

/**
 * The outcome of one request. `window` is the window that binds: the one that denied,
 * or (when allowed) the one with the least remaining, so headers show the tighter limit.
 */
export interface QuotaDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until `window` resets (at least 1). */
  resetSeconds: number;
  /** Present only when denied: seconds until a request can succeed. */
  retryAfterSeconds?: number;
  window: QuotaWindow;
}

/**
 * Counts requests per subject in fixed windows aligned to the minute and the UTC day.
 * A request is counted in both windows only when it is allowed; denied requests cost nothing.
 */
export interface QuotaStore {
  consume(subject: string, limits: QuotaLimits, now?: number): Promise<QuotaDecision>;
  close(): Promise<void>;
  /** False while the backend cannot answer promptly (Redis down or stalled); /ready reports it. @default always reachable */
  isReachable?(): boolean;
}

/** The quota backend cannot answer; the gateway chooses whether to fail open or closed. */
export class QuotaUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QuotaUnavailableError';
  }
}
