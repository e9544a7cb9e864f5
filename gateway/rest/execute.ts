/**
 * Runs one GraphQL operation through the gateway's Apollo Server for a REST route, so the
 * feature exists once (the graph); GraphQL errors come back as catalogue ApiErrors.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError, isErrorCode } from '../../schema/errors';
import type { Graph } from '../graph/apollo';

export async function executeForRest<TData>(graph: Graph, request: FastifyRequest, query: string, variables: Record<string, unknown>): Promise<TData> {
  const response = await graph.apollo.executeOperation<TData>(
    { query, variables },
    { contextValue: { principal: request.principal, requestId: request.id } },
  );
  if (response.body.kind !== 'single') throw new ApiError('INTERNAL');
  const { data, errors } = response.body.singleResult;
  if (errors?.length) {
    const first = errors[0];
    const code = first.extensions?.code;
    if (isErrorCode(code)) {
      const { field, suggestions } = first.extensions ?? {};
      throw new ApiError(code, first.message, field as string | undefined, suggestions as string[] | undefined);
    }
    if (code === 'BAD_USER_INPUT') throw new ApiError('INVALID_PARAMETER', first.message);
    throw new ApiError('INTERNAL');
  }
  return data as TData;
}
