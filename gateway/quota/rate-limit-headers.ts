import type { QuotaDecision } from './quota-store';

/**
 * Both header families clients meet. The IETF draft fields (draft-ietf-httpapi-ratelimit-headers,
 * the separate-field revisions) give RateLimit-Reset in seconds from now, which no clock skew can
 * spoil; the older X-RateLimit-* convention gives X-RateLimit-Reset as a Unix timestamp.
 * `now` should be the instant the decision was made for, so both resets name the same moment.
 */
export function rateLimitHeaders(decision: QuotaDecision, now = Date.now()): Record<string, string> {
  // Windows end on whole seconds, so this is exactly the end of the reported window.
  const resetAtUnixSeconds = Math.floor(now / 1000) + decision.resetSeconds;
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(resetAtUnixSeconds),
  };
  if (decision.retryAfterSeconds !== undefined) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}
