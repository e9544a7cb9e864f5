/**
 * The location libraries' errors as catalogue errors (schema/errors.ts), and catalogue errors as
 * GraphQL errors carrying code, field and suggestions in `extensions`. Anything else is rethrown
 * as it is: the gateway masks it as INTERNAL.
 */
import { GraphQLError } from 'graphql';
import { OutsideTashkentError } from '../../models/location';
import { UnresolvableAddressError } from '../../models/location/geocode';
import { ApiError } from '../../schema/errors';

/** Tashkent's rough centre, for telling a client which way round the numbers go. */
const ABOUT_TASHKENT = 'Tashkent is at about lat 41.3, lon 69.3';

export function outsideTashkent(error: OutsideTashkentError): ApiError {
  const where = `lat ${error.lat}, lon ${error.lon} is outside Tashkent city`;
  return new ApiError(
    'OUTSIDE_TASHKENT',
    error.swapped
      ? `${where}: latitude and longitude look swapped (${ABOUT_TASHKENT}); send lat ${error.lon}, lon ${error.lat}`
      : `${where} (no district polygon holds it; ${ABOUT_TASHKENT}): the location index covers the 12 city districts only`,
  );
}

export function unresolvableAddress(error: UnresolvableAddressError): ApiError {
  return new ApiError('UNRESOLVABLE_ADDRESS', error.message, 'address', [...error.suggestions]);
}

/** A library or catalogue error as the ApiError a client may see; anything else unchanged. */
export function toApiError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof OutsideTashkentError) return outsideTashkent(error);
  if (error instanceof UnresolvableAddressError) return unresolvableAddress(error);
  return error;
}

export function toGraphQLError(error: unknown): unknown {
  const api = toApiError(error);
  return api instanceof ApiError ? new GraphQLError(api.message, { extensions: api.toExtensions() }) : api;
}

/** Runs a resolver body, turning the errors a client may see into GraphQL errors with their code. */
export async function withClientErrors<T>(body: () => T | Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw toGraphQLError(error);
  }
}
