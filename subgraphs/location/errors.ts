/**
 * The location libraries' errors as catalogue errors (schema/errors.ts). Resolvers run their bodies
 * in `withApiErrors(body, locationError)` (../common/errors.ts), which makes them GraphQL errors with
 * their code; anything else is rethrown as it is: the gateway masks it as INTERNAL.
 */
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

/** A location library's error as the catalogue error a client may see (the mapper ../common/errors.ts takes); undefined: not one of them. */
export function locationError(error: unknown): ApiError | undefined {
  if (error instanceof OutsideTashkentError) return outsideTashkent(error);
  if (error instanceof UnresolvableAddressError) return unresolvableAddress(error);
  return undefined;
}
