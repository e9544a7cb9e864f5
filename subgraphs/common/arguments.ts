/** Checks of GraphQL arguments the subgraphs share, refused as the public catalogue's 400s. */
import { ApiError } from '../../schema/errors';

/** How many of something an argument asks for (a page's limit, a sample's n): `fallback` when absent, else a whole number from 1 to `max`. */
export function countArgument(value: number | null | undefined, name: string, fallback: number, max: number): number {
  const wanted = value ?? fallback;
  if (!Number.isInteger(wanted) || wanted < 1 || wanted > max) throw new ApiError('INVALID_PARAMETER', `${name} must be 1 to ${max}`, name);
  return wanted;
}
