/**
 * How one subgraph calls another: a GraphQL operation, over HTTP with the internal token when they
 * run apart (posted by ./graphql-over-http.ts), or on the other's schema when they share a process
 * (all-in-one mode; the same operation, without a socket). Subgraphs talk to each other through this only.
 */
import { execute } from 'graphql';
import { GraphQLHttpFailure, graphqlRequestBody, postGraphQL, subgraphRequestHeaders } from './graphql-over-http';
import { catalogueErrorOf, type GraphQLReply } from './graphql-reply';
import { isDocument, PreparedDocuments } from './prepared-documents';
import type { InProcessSubgraph } from './serve';

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
      const headers = subgraphRequestHeaders(options.internalToken, { principal: { org: caller.organisation }, requestId: caller.requestId });
      const answer = await postGraphQL<GraphQLReply<Record<string, unknown>>>(options.url, headers, graphqlRequestBody(query, variables), options.timeoutMs ?? 60_000);
      if (!answer.ok) throw new GraphQLHttpFailure(options.url, answer.status);
      return dataOf<T>(answer.reply);
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
      return dataOf<T>({ data: result.data, errors: result.errors?.map((e) => ({ message: e.message, extensions: e.extensions })) });
    },
  };
}

function dataOf<T>(body: GraphQLReply<Record<string, unknown>>): T {
  // A refusal in the catalogue (a bad parameter, a busy report queue) reaches the client as it was said.
  for (const error of body.errors ?? []) {
    const refusal = catalogueErrorOf(error);
    if (refusal && refusal.code !== 'INTERNAL') throw refusal;
  }
  if (!body.data || body.errors?.length) throw new Error(`the operation failed: ${body.errors?.map((e) => e.message).join('; ') ?? 'no data'}`);
  return body.data as T;
}
