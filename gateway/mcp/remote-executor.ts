/**
 * The executor of the stdio server: each operation is a POST to the running gateway's /graphql
 * with the organisation's API key (posted by platform/graphql-over-http.ts, as a subgraph posts to
 * a peer), so authentication, quotas, limits and error masking are the gateway's own. Replies
 * become data or a catalogue ApiError by the in-gateway executor's mapper
 * (`apiErrorOfReply`, gateway/graph/error-masking.ts): the gateway's HTTP errors (401, 413, 429, 503)
 * arrive as `{ error: { code, … } }`, GraphQL errors as `errors[0].extensions.code`. Each operation sends an X-Request-Id of its own, and an error
 * it ends in carries it (request_id in the tool's error), as the gateway's /mcp errors do.
 */
import { randomUUID } from 'node:crypto';
import { GraphQLHttpFailure, graphqlRequestBody, JSON_CONTENT_TYPE, postGraphQL } from '../../platform/graphql-over-http';
import { ApiError } from '../../schema/errors';
import { apiErrorOfReply, type GraphReply } from '../graph/error-masking';
import type { GraphExecutor } from '../graph/executor';
import { fromGatewayRequest } from './results';

export interface RemoteExecutorOptions {
  /** The gateway, e.g. http://127.0.0.1:4000 (its /graphql is called). */
  url: string;
  apiKey: string;
  /** Per operation. @default 120_000 (2 minutes: a large submit_batch upload) */
  timeoutMs?: number;
  /** Sent as User-Agent, so the gateway's logs tell these calls apart. */
  userAgent?: string;
}

export function remoteExecutor(options: RemoteExecutorOptions): GraphExecutor {
  const endpoint = new URL('/graphql', options.url).toString();
  return {
    async execute<TData>(operation: { query: string }, variables: Record<string, unknown>): Promise<TData> {
      const requestId = randomUUID();
      try {
        return await send<TData>(operation, variables, requestId);
      } catch (error) {
        throw error instanceof ApiError ? fromGatewayRequest(error, requestId) : error;
      }
    },
  };

  async function send<TData>(operation: { query: string }, variables: Record<string, unknown>, requestId: string): Promise<TData> {
    const headers = {
      'content-type': JSON_CONTENT_TYPE,
      accept: JSON_CONTENT_TYPE,
      'x-api-key': options.apiKey,
      'user-agent': options.userAgent ?? 'tashkent-valuation-mcp',
      'x-request-id': requestId,
    };
    let answer;
    try {
      // Any status with a JSON body is read: the gateway's refusals (401, 429, …) say why in it.
      answer = await postGraphQL<GraphReply>(endpoint, headers, graphqlRequestBody(operation.query, variables), options.timeoutMs ?? 120_000);
    } catch (error) {
      throw error instanceof GraphQLHttpFailure ? unavailable(error) : error;
    }
    const error = apiErrorOfReply(answer.reply);
    if (error) throw error;
    if (!answer.ok || answer.reply.data === undefined || answer.reply.data === null) throw new ApiError('INTERNAL');
    return answer.reply.data as TData;
  }

  /** No reply from the gateway, in the words an assistant's user can act on. */
  function unavailable(failure: GraphQLHttpFailure): ApiError {
    if (failure.status === undefined) return new ApiError('SERVICE_UNAVAILABLE', `The valuation service at ${options.url} cannot be reached (${failure.reason}); is it running, and is VALUATION_URL right?`);
    return new ApiError(failure.status >= 500 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL', `The valuation service answered HTTP ${failure.status} without a JSON body`);
  }
}
