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

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
