/**
 * A GraphQL reply, `{ data, errors }`, as the service's clients read it, over HTTP or in process, and
 * the one reading of a catalogue error in it: an error whose `extensions.code` is a code of the error
 * catalogue (schema/errors.ts) is that ApiError, with its message, field and suggestions. What a
 * client does with the other errors is its own: a peer subgraph's reply is unmasked and its other
 * errors fail the call (./graph-client.ts); a gateway's is masked (gateway/graph/error-masking.ts).
 */
import type { GraphQLFormattedError } from 'graphql';
import { ApiError, isErrorCode } from '../schema/errors';

export interface GraphQLReply<TData = unknown> {
  data?: TData | null;
  errors?: readonly GraphQLFormattedError[];
}

/** The catalogue ApiError a GraphQL error stands for; undefined when its code is not the catalogue's. */
export function catalogueErrorOf(error: GraphQLFormattedError): ApiError | undefined {
  const { code, field, suggestions } = error.extensions ?? {};
  if (!isErrorCode(code)) return undefined;
  return ApiError.fromBody({ code, message: error.message, field, suggestions });
}
