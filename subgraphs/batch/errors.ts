/**
 * Batch resolvers' errors: the job storage out of reach as SERVICE_UNAVAILABLE (a client may retry).
 * Resolvers run their bodies in `withApiErrors(body, batchError)` (../common/errors.ts), which makes
 * this and the catalogue errors GraphQL errors with their code; anything else is masked by the gateway.
 */
import { ApiError } from '../../schema/errors';
import { isStorageUnavailable } from '../../platform/batch-engine';

/** A batch library's error as the catalogue error a client may see; undefined: not one of them. */
export function batchError(error: unknown): ApiError | undefined {
  if (isStorageUnavailable(error)) return new ApiError('SERVICE_UNAVAILABLE', 'Batch jobs are unavailable for a moment (their storage cannot be reached); retry shortly');
  return undefined;
}
