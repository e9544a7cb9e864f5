/**
 * The engine's own errors. Transports map them to catalogue errors (schema/errors.ts); none of
 * these messages says whether a job exists for another organisation.
 */

/** No such job for this organisation: it never existed, belongs to someone else, or has expired. */
export class BatchJobNotFoundError extends Error {
  constructor(readonly jobId: string) {
    super(`no batch job ${jobId}`);
    this.name = 'BatchJobNotFoundError';
  }
}

/** A caller's option is out of range; nothing was stored. */
export class InvalidBatchOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidBatchOptionsError';
  }
}

/**
 * The job takes no more items: its submission was sealed (its last part came), or it has ended
 * (cancelled, failed, completed). Nothing was stored.
 */
export class BatchJobClosedError extends InvalidBatchOptionsError {
  constructor(
    readonly jobId: string,
    readonly reason: 'sealed' | 'ended',
    detail: string,
  ) {
    super(`batch job ${jobId} ${detail}: it takes no more items`);
    this.name = 'BatchJobClosedError';
  }
}

/** An append would have taken the job past its item limit: the job has been failed, and nothing of the append was stored. */
export class BatchItemLimitError extends Error {
  constructor(
    readonly jobId: string,
    readonly limit: number,
    /** Items the job would have held with the append. */
    readonly wouldHold: number,
  ) {
    super(`batch job ${jobId} may hold at most ${limit} items; this append would take it to ${wouldHold}`);
    this.name = 'BatchItemLimitError';
  }
}

/**
 * A store refused a chunk: it was not the job's next one (two appends to one job ran at once), or
 * the job is sealed. Thrown by JobStore.appendInput.
 */
export class ChunkOutOfOrderError extends Error {
  constructor(
    readonly jobId: string,
    readonly chunkIndex: number,
    readonly sealed: boolean,
  ) {
    super(sealed ? `batch job ${jobId} is sealed: chunk ${chunkIndex} refused` : `chunk ${chunkIndex} of batch job ${jobId} is out of order`);
    this.name = 'ChunkOutOfOrderError';
  }
}

/** Reading the items failed part-way; the job exists, with status `failed`. */
export class BatchSubmissionError extends Error {
  constructor(
    readonly jobId: string,
    options: { cause: unknown },
  ) {
    super(`submission of batch job ${jobId} failed: ${messageOf(options.cause)}`, options);
    this.name = 'BatchSubmissionError';
  }
}

/** A processor broke its contract (one result per item, in order); the chunk is treated as failed. */
export class ChunkResultsMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkResultsMismatchError';
  }
}

/** The job storage cannot be reached now (Redis down or reconnecting); the call may succeed later. */
export class BatchStorageUnavailableError extends Error {
  constructor(options?: { cause: unknown }) {
    super('batch job storage is unreachable', options);
    this.name = 'BatchStorageUnavailableError';
  }
}

// node-redis's connection errors, by name: a command sent while Redis is away fails with one of these.
const CONNECTION_ERRORS = new Set(['ClientOfflineError', 'ClientClosedError', 'SocketClosedUnexpectedlyError', 'ConnectionTimeoutError', 'SocketTimeoutError', 'TimeoutError', 'ReconnectStrategyError']);
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/** Whether `error` (or what it wraps) says the storage was out of reach, rather than a fault of ours. */
export function isStorageUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof BatchStorageUnavailableError || CONNECTION_ERRORS.has(cause.name) || CONNECTION_CODES.has((cause as NodeJS.ErrnoException).code ?? '')) return true;
  }
  return false;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
