/**
 * Signed completion webhooks for batch jobs (docs/ARCHITECTURE.md, "A batch job"): the public surface; everything
 * else in this folder is internal.
 *
 * What the module guarantees:
 * - Signatures follow Standard Webhooks: `webhook-id`, `webhook-timestamp` (Unix seconds) and
 *   `webhook-signature: v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, with `whsec_` secrets,
 *   so any Standard Webhooks library verifies them.
 * - One event has one `webhook-id`, on every attempt and after restarts; each attempt is signed
 *   afresh with its own timestamp.
 * - No request leaves for a URL that is not http(s), carries credentials, or reaches an address
 *   the policy refuses, checked on the address actually connected to (DNS rebinding included).
 * - Retries follow full-jitter exponential backoff, honour Retry-After on 429/503, stop on 410,
 *   and every attempt (number, time, status or error, duration) is reported through `onAttempt`
 *   and in the outcome.
 * Not guaranteed: exactly-once. Receivers must deduplicate on `webhook-id`.
 */
export { type BatchCompletedEvent, type TerminalBatchStatus, type WebhookEvent, webhookId } from './event';
export { newWebhookSecret, signWebhook, type WebhookHeaders, type WebhookSecretSource } from './signature';
export {
  CallbackUrlError,
  refusedRange,
  validateCallbackUrl,
  type AddressRange,
  type CallbackUrlCheck,
  type CallbackUrlPolicy,
  type CallbackUrlRefusal,
  type HostLookup,
  type ResolvedAddress,
} from './callback-url';
export { backoffBound, backoffDelay, DEFAULT_RETRY, retryOptions, type RetryOptions } from './backoff';
export { deliverWebhook, type AttemptErrorKind, type DeliveryAttempt, type DeliveryOptions, type DeliveryOutcome, type Timer } from './delivery';
