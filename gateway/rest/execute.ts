/**
 * Runs a REST route's GraphQL operation, so the feature exists once (in the graph); GraphQL
 * errors come back as catalogue ApiErrors. With `owner`, the operation is a persisted one whose
 * fields all belong to that subgraph, and goes straight to it; otherwise through the gateway.
 */
import type { FastifyRequest } from 'fastify';
import type { GraphQLFormattedError } from 'graphql';
import { ApiError, isErrorCode } from '../../schema/errors';
import type { Graph } from '../graph/apollo';

export async function executeForRest<TData>(graph: Graph, request: FastifyRequest, operation: { query: string; owner?: string }, variables: Record<string, unknown>): Promise<TData> {
  const context = { principal: request.principal, requestId: request.id };
  let data: unknown;
  let errors: readonly GraphQLFormattedError[] | undefined;
  if (operation.owner) {
    ({ data, errors } = await graph.executeOnOwner(operation.owner, operation.query, variables, context));
  } else {
    const response = await graph.apollo.executeOperation<TData>({ query: operation.query, variables }, { contextValue: context });
    if (response.body.kind !== 'single') throw new ApiError('INTERNAL');
    ({ data, errors } = response.body.singleResult);
  }
  if (errors?.length) {
    const first = errors[0];
    const code = first.extensions?.code;
    if (isErrorCode(code)) {
      const { field, suggestions } = first.extensions ?? {};
      throw new ApiError(code, first.message, field as string | undefined, suggestions as string[] | undefined);
    }
    // GraphQL's coercion wording names variables and types a REST client never sent: say which field.
    if (code === 'BAD_USER_INPUT') {
      const field = first.extensions?.field as string | undefined;
      throw new ApiError('INVALID_PARAMETER', field === undefined ? first.message : `${field} has the wrong type or is out of range`, field);
    }
    throw new ApiError('INTERNAL');
  }
  return data as TData;
}
