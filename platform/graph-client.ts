/**
 * How one subgraph calls another: a GraphQL operation, over HTTP with the internal token when they
 * run apart, or on the other's schema when they share a process (all-in-one mode; the same
 * operation, without a socket). Subgraphs talk to each other through this only.
 */
import { execute } from 'graphql';
import { ApiError, isErrorCode, type ErrorCode } from '../schema/errors';
import { isDocument, PreparedDocuments } from './prepared-documents';
import { INTERNAL_TOKEN_HEADER, type InProcessSubgraph } from './serve';

/** Who the call is made for: the organisation it is charged to and the request it belongs to. */
export interface GraphCaller {
  organisation: string;
  requestId: string;
}

export interface GraphClient {
  /** The operation's data; rejects when the call as a whole fails (unreachable, refused, no data). */
  request<T>(query: string, variables: Record<string, unknown>, caller: GraphCaller): Promise<T>;
}

export interface HttpGraphClientOptions {
  /** The other subgraph's /graphql. */
  url: string;
  internalToken?: string;
  /** @default 60_000 */
  timeoutMs?: number;
}

export function httpGraphClient(options: HttpGraphClientOptions): GraphClient {
  return {
    async request<T>(query: string, variables: Record<string, unknown>, caller: GraphCaller): Promise<T> {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-organisation': caller.organisation,
          'x-request-id': caller.requestId,
          ...(options.internalToken && { [INTERNAL_TOKEN_HEADER]: options.internalToken }),
        },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      });
      if (!response.ok) throw new Error(`${options.url} answered HTTP ${response.status}`);
      return dataOf<T>((await response.json()) as GraphResponse);
    },
  };
}

export function inProcessGraphClient(subgraph: InProcessSubgraph): GraphClient {
  const documents = new PreparedDocuments(subgraph.schema);
  return {
    async request<T>(query: string, variables: Record<string, unknown>, caller: GraphCaller): Promise<T> {
      const document = documents.get(query);
      if (!isDocument(document)) throw new Error(`invalid operation: ${document.map((e) => e.message).join('; ')}`);
      const result = await execute({ schema: subgraph.schema, document, variableValues: variables, contextValue: subgraph.context({ principal: { org: caller.organisation }, requestId: caller.requestId }) });
      return dataOf<T>({ data: result.data as Record<string, unknown> | null | undefined, errors: result.errors?.map((e) => ({ message: e.message, extensions: e.extensions })) });
    },
  };
}

interface GraphResponse {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

function dataOf<T>(body: GraphResponse): T {
  // A refusal in the catalogue (a bad parameter, a busy report queue) reaches the client as it was said.
  const refusal = body.errors?.find((e) => isErrorCode(e.extensions?.code) && e.extensions?.code !== 'INTERNAL');
  if (refusal) throw new ApiError(refusal.extensions!.code as ErrorCode, refusal.message, refusal.extensions!.field as string | undefined);
  if (!body.data || body.errors?.length) throw new Error(`the operation failed: ${body.errors?.map((e) => e.message).join('; ') ?? 'no data'}`);
  return body.data as T;
}
