/**
 * The subgraphs' one mapper from the errors their resolvers meet to GraphQL errors: a catalogue
 * error (schema/errors.ts) becomes a GraphQL error carrying its code, field and suggestions in
 * `extensions`; a subgraph's own library errors become catalogue errors first, through the
 * `domainError` it passes (the location libraries' places, the batch storage out of reach).
 * Anything else is rethrown as it is: the gateway masks it as INTERNAL (gateway/graph/error-masking.ts).
 */
import { GraphQLError } from 'graphql';
import { ApiError } from '../../schema/errors';

/** A subgraph's library error as the catalogue error a client may see; undefined: not one of them. */
export type DomainErrorMapper = (error: unknown) => ApiError | undefined;

export function toGraphQLError(error: ApiError): GraphQLError {
  return new GraphQLError(error.message, { extensions: error.toExtensions() });
}

/**
 * Runs a resolver body, turning the ApiErrors it throws, and the errors `domainError` maps to one,
 * into GraphQL errors; anything else is rethrown (masked as INTERNAL by the gateway).
 */
export async function withApiErrors<T>(body: () => T | Promise<T>, domainError?: DomainErrorMapper): Promise<T> {
  try {
    return await body();
  } catch (error) {
    const api = error instanceof ApiError ? error : domainError?.(error);
    throw api ? toGraphQLError(api) : error;
  }
}
