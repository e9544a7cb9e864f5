/**
 * Idempotent batch submissions (issue 35): a client that retries a submission it never got an
 * answer to sends the same `Idempotency-Key` (REST header; GraphQL `idempotencyKey`; MCP
 * `idempotency_key`) and gets the job of the first one, not a second job valuing the portfolio
 * again. A key is the organisation's own and lasts 24 hours: the same key with the same
 * submission → the same job; with another submission → 409 IDEMPOTENCY_KEY_REUSED; while the first
 * is still being submitted → 409 too (as the IETF draft on the Idempotency-Key header has it).
 *
 * The key is reserved before the job is made (SET NX in Redis, so two processes racing on one key
 * make one job), then bound to the job; a submission that fails releases it.
 */
import { createHash } from 'node:crypto';
import { createClient } from 'redis';
import { ApiError } from '../../schema/errors';
import { within } from '../../platform/within';
import { BatchStorageUnavailableError } from '../../platform/batch-engine';

/** How long a key holds. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** Keys are opaque to us but bounded: printable ASCII, at most this long (the draft's clients send UUIDs). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
const KEY_SHAPE = /^[\x21-\x7e]+$/;

/** What a key is bound to: the submission's fingerprint, and its job once made. */
interface Binding {
  fingerprint: string;
  jobId: string | null;
}

/** Where bindings live: this process, or Redis for every process. */
export interface IdempotencyBindings {
  /** Binds `key` to `fingerprint` with no job yet, if unbound; else the binding it has. */
  reserve(key: string, fingerprint: string): Promise<Binding | undefined>;
  bind(key: string, binding: Binding): Promise<void>;
  release(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The key as given, checked; undefined when none was sent. */
export function checkedIdempotencyKey(value: string | null | undefined, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value.length === 0 || value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !KEY_SHAPE.test(value)) {
    throw new ApiError('INVALID_PARAMETER', `${field} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces (a UUID, say)`, field);
  }
  return value;
}

/** A submission's fingerprint: SHA-256 of its canonical JSON (keys sorted), so key order does not matter. */
export function fingerprintOf(submission: unknown): string {
  return createHash('sha256').update(canonicalJson(submission)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Runs `submit` at most once per (organisation, key) and fingerprint within the TTL; a repeat gets
 * the first job through `existing`, and says it was a replay. Without a key, just submits.
 */
export async function submitOnce<J>(
  bindings: IdempotencyBindings, organisation: string, key: string | undefined, fingerprint: string,
  submit: () => Promise<J & { id: string }>, existing: (jobId: string) => Promise<J>,
): Promise<{ job: J; replayed: boolean }> {
  if (key === undefined) return { job: await submit(), replayed: false };
  const scoped = `${organisation}\u0000${key}`;
  const bound = await bindings.reserve(scoped, fingerprint);
  if (bound) {
    if (bound.fingerprint !== fingerprint) throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another submission in the last 24 hours: use a new key for a new portfolio', 'idempotencyKey');
    if (bound.jobId === null) throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'A submission with this Idempotency-Key is still being made: wait for its answer, or read GET /api/batch for the job', 'idempotencyKey');
    return { job: await existing(bound.jobId), replayed: true };
  }
  try {
    const job = await submit();
    await bindings.bind(scoped, { fingerprint, jobId: job.id });
    return { job, replayed: false };
  } catch (error) {
    await bindings.release(scoped).catch(() => undefined);
    throw error;
  }
}

/** Bindings in this process (the embedded mode), each forgotten after the TTL. */
export class InProcessIdempotencyBindings implements IdempotencyBindings {
  private readonly bindings = new Map<string, Binding & { expiresAt: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  async reserve(key: string, fingerprint: string): Promise<Binding | undefined> {
    const now = this.clock();
    const found = this.bindings.get(key);
    if (found && found.expiresAt > now) return { fingerprint: found.fingerprint, jobId: found.jobId };
    // A sweep as keys come, so expired ones do not pile up.
    for (const [k, b] of this.bindings) if (b.expiresAt <= now) this.bindings.delete(k);
    this.bindings.set(key, { fingerprint, jobId: null, expiresAt: now + IDEMPOTENCY_TTL_MS });
    return undefined;
  }

  async bind(key: string, binding: Binding): Promise<void> {
    this.bindings.set(key, { ...binding, expiresAt: this.clock() + IDEMPOTENCY_TTL_MS });
  }

  async release(key: string): Promise<void> {
    this.bindings.delete(key);
  }

  async close(): Promise<void> {}
}

/** What the bindings need of a node-redis client (any client's modules and RESP version will do). */
export interface IdempotencyRedis {
  get(key: string): Promise<string | null | unknown>;
  set(key: string, value: string, options: { NX?: true; PX: number }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  readonly isOpen: boolean;
  close(): Promise<unknown>;
}

/** Bindings in Redis, shared by every API process: SET NX PX reserves, so of two racing processes one makes the job. */
export class RedisIdempotencyBindings implements IdempotencyBindings {
  constructor(
    private readonly client: IdempotencyRedis,
    private readonly keyPrefix: string,
    private readonly timeoutMs: number,
  ) {}

  private redisKey(key: string): string {
    return `${this.keyPrefix}idempotency:${fingerprintOf(key)}`;
  }

  async reserve(key: string, fingerprint: string): Promise<Binding | undefined> {
    const value = JSON.stringify({ fingerprint, jobId: null });
    const set = await this.bounded(this.client.set(this.redisKey(key), value, { NX: true, PX: IDEMPOTENCY_TTL_MS }));
    if (set === 'OK') return undefined;
    const existing = await this.bounded(this.client.get(this.redisKey(key)));
    return typeof existing === 'string' ? (JSON.parse(existing) as Binding) : this.reserve(key, fingerprint);
  }

  async bind(key: string, binding: Binding): Promise<void> {
    await this.bounded(this.client.set(this.redisKey(key), JSON.stringify(binding), { PX: IDEMPOTENCY_TTL_MS }));
  }

  async release(key: string): Promise<void> {
    await this.bounded(this.client.del(this.redisKey(key)));
  }

  async close(): Promise<void> {
    if (this.client.isOpen) await this.client.close();
  }

  private bounded<T>(command: Promise<T>): Promise<T> {
    return within(command, this.timeoutMs, () => {
      throw new BatchStorageUnavailableError({ cause: new Error(`Redis did not answer within ${this.timeoutMs} ms`) });
    });
  }
}

/** The bindings for this deployment: Redis when a URL is given, else this process. */
export async function openIdempotencyBindings(options: { redisUrl?: string; keyPrefix?: string; timeoutMs: number; log?: (message: string) => void }): Promise<IdempotencyBindings> {
  if (!options.redisUrl) return new InProcessIdempotencyBindings();
  const client = createClient({ url: options.redisUrl, disableOfflineQueue: true });
  client.on('error', (error: Error) => options.log?.(`idempotency keys: ${error.message}`));
  await client.connect();
  return new RedisIdempotencyBindings(client, options.keyPrefix ?? 'batch:', options.timeoutMs);
}
