/**
 * Batch resolvers' errors: catalogue errors as GraphQL errors with their code, and the job storage
 * out of reach as SERVICE_UNAVAILABLE (a client may retry); anything else is masked by the gateway.
 */
import { ApiError } from '../../schema/errors';
import { withApiErrors } from '../common/bulk';
import { isStorageUnavailable } from './engine';

export function withClientErrors<T>(body: () => T | Promise<T>): Promise<T> {
  return withApiErrors(async () => {
    try {
      return await body();
    } catch (error) {
      if (isStorageUnavailable(error)) throw new ApiError('SERVICE_UNAVAILABLE', 'Batch jobs are unavailable for a moment (their storage cannot be reached); retry shortly');
      throw error;
    }
  });
}
