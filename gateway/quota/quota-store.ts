import type { QuotaLimits } from '../../schema/plans';

export type { QuotaLimits };

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
 * Counts units (requests, valuations, batch items) per subject in fixed windows aligned to the
 * minute and the UTC day. A consumption is counted in both windows only when it is allowed in
 * both; a denied one costs nothing.
 */
export interface QuotaStore {
  /** Takes `units` (default 1) from both windows of `subject`, or none when either has too few left. */
  consume(subject: string, limits: QuotaLimits, now?: number, units?: number): Promise<QuotaDecision>;
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
