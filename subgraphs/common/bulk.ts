/**
 * Resolver glue every valuation subgraph shares: catalogue errors as GraphQL errors (./errors.ts,
 * re-exported here for the resolvers that import it with the rest), the calling organisation, and
 * bulk queries with one model call for all the valid inputs and a per-item error in place of each bad one.
 */
import { valueEach } from '../../schema/bulk';
import { ApiError } from '../../schema/errors';
import { toGraphQLError } from './errors';

export { toGraphQLError, withApiErrors } from './errors';

/** The organisation a call is for (x-organisation, set by the gateway or a peer): `what` is never read or written without one. */
export function callingOrganisation(organisation: string | null, what: string): string {
  if (organisation === null || organisation === '') throw toGraphQLError(new ApiError('INVALID_API_KEY', `${what} need the calling organisation (x-organisation)`));
  return organisation;
}

/** A bulk item's error, as the subgraphs' `…Error` types carry it. */
export interface ItemError {
  code: string;
  message: string;
  field: string | null;
  suggestions: string[] | null;
}

export function itemError(error: ApiError): ItemError {
  return { code: error.code, message: error.message, field: error.field ?? null, suggestions: error.suggestions ?? null };
}

export interface BulkItem<R> {
  index: number;
  valuation: R | null;
  error: ItemError | null;
}

/**
 * A bulk query of up to `max` inputs (schema/bulk.ts's rule): one `value` call for the valid inputs,
 * a per-item error for the others, in input order. More than `max`: INVALID_PARAMETER on `inputs`.
 */
export async function valueInBulk<I, N, R>(
  inputs: readonly I[],
  max: number,
  normalise: (input: I) => N,
  value: (valid: N[]) => Promise<(R | ApiError)[]>,
): Promise<BulkItem<R>[]> {
  if (inputs.length > max) throw new ApiError('INVALID_PARAMETER', `at most ${max} inputs per call (got ${inputs.length})`, 'inputs');
  const results = await valueEach(inputs, normalise, value);
  return results.map((result, index) => (result instanceof ApiError ? { index, valuation: null, error: itemError(result) } : { index, valuation: result, error: null }));
}
