/**
 * The executor of the stdio server: each operation is a POST to the running gateway's /graphql
 * with the organisation's API key, so authentication, quotas, limits and error masking are the
 * gateway's own. Replies become data or a catalogue ApiError by the in-gateway executor's mapper
 * (`apiErrorOfReply`, gateway/graph/error-masking.ts): the gateway's HTTP errors (401, 413, 429, 503)
 * arrive as `{ error: { code, … } }`, GraphQL errors as `errors[0].extensions.code`. Each operation sends an X-Request-Id of its own, and an error
 * it ends in carries it (request_id in the tool's error), as the gateway's /mcp errors do.
 */
import { randomUUID } from 'node:crypto';
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

interface GraphQLReply extends GraphReply {
  data?: unknown;
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
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-api-key': options.apiKey,
          'user-agent': options.userAgent ?? 'tashkent-valuation-mcp',
          'x-request-id': requestId,
        },
        body: JSON.stringify({ query: operation.query, variables }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
      });
    } catch (error) {
      throw new ApiError('SERVICE_UNAVAILABLE', `The valuation service at ${options.url} cannot be reached (${(error as Error).message}); is it running, and is VALUATION_URL right?`);
    }
    let reply: GraphQLReply;
    try {
      reply = (await response.json()) as GraphQLReply;
    } catch {
      throw new ApiError(response.status >= 500 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL', `The valuation service answered HTTP ${response.status} without a JSON body`);
    }
    const error = apiErrorOfReply(reply);
    if (error) throw error;
    if (!response.ok || reply.data === undefined || reply.data === null) throw new ApiError('INTERNAL');
    return reply.data as TData;
  }
}
