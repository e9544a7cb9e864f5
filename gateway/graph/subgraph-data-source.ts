/**
 * How the gateway calls a subgraph. Apollo's RemoteGraphQLDataSource goes through
 * make-fetch-happen (an HTTP cache we do not need) and builds a node-fetch Request per call;
 * this data source keeps a pool of keep-alive connections per subgraph (undici) and does one
 * JSON stringify and one JSON parse per fetch. The body and the headers subgraphs rely on (the
 * internal token: subgraphs answer nobody else; the organisation, its plan and the request id) are
 * built as every client of a subgraph builds them (platform/graphql-over-http.ts); the transport,
 * the reading of replies and the errors are this module's own. The fetches of one request to this
 * subgraph that start together are sent as one call (./fetch-batching.ts).
 */
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import { Pool, type Dispatcher } from 'undici';
import { graphqlRequestBody, subgraphRequestHeaders } from '../../platform/graphql-over-http';
import type { GatewayContext } from './context';
import { refusedVariables } from './refused-variables';
import { FetchBatcher, type Send } from './fetch-batching';
import { dataBytesOf, RawData } from './raw-reply';

export class SubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly pool: Pool;
  private readonly path: string;

  /** @param connections keep-alive connections to this subgraph @default 64 */
  constructor(readonly url: string, private readonly internalToken: string, connections = 64) {
    const parsed = new URL(url);
    this.path = parsed.pathname + parsed.search;
    this.pool = new Pool(parsed.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  }

  /** Queries of one request to this subgraph issued together (a Parallel node's fetches) go as one call (./fetch-batching.ts). */
  private readonly batcher = new FetchBatcher((request, options) => this.fetch(request, options));

  process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    return this.batcher.process(options);
  }

  /**
   * A single fetch answering the client's query alone (./single-fetch.ts), not batched: a reply of
   * data alone comes back as its bytes, unparsed (./raw-reply.ts); any other reply parsed, as `process` gives it.
   */
  async processRaw(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse | RawData> {
    const { query, variables, operationName } = options.request;
    const reply = await this.post({ query: query!, variables: variables ?? {}, operationName }, options);
    if (!isHttpReply(reply)) return reply;
    const body = Buffer.from(await reply.body.arrayBuffer());
    const data = dataBytesOf(body);
    return data ? new RawData(data) : (JSON.parse(body.toString('utf8')) as GatewayGraphQLResponse);
  }

  private async fetch(request: Parameters<Send>[0], options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const reply = await this.post(request, options);
    return isHttpReply(reply) ? ((await reply.body.json()) as GatewayGraphQLResponse) : reply;
  }

  /** Posts a query; a 2xx reply is returned to be read, a 400 refusing the variables as the client's error; anything else throws SUBGRAPH_UNAVAILABLE. */
  private async post({ query, variables, operationName }: Parameters<Send>[0], options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<Dispatcher.ResponseData | GatewayGraphQLResponse> {
    const headers = subgraphRequestHeaders(this.internalToken, options.context as Partial<GatewayContext>);
    let response;
    try {
      response = await this.pool.request({ path: this.path, method: 'POST', headers, body: graphqlRequestBody(query, variables, operationName) });
    } catch (error) {
      throw unavailable(`subgraph at ${this.url} is unreachable (${(error as Error).message})`);
    }
    // 400 for variables GraphQL cannot coerce (year 2147483648): the client's error, not the subgraph
    // unavailable. Any other 400 (a document the subgraph does not know: a deployment out of step)
    // stays SERVICE_UNAVAILABLE.
    if (response.statusCode === 400) {
      const refused = await coercionErrorsOf(response.body);
      if (refused) return refused;
    } else if (response.statusCode >= 300) await response.body.dump();
    if (response.statusCode >= 300) throw unavailable(`subgraph at ${this.url} answered HTTP ${response.statusCode}`);
    return response;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** A 400 body's variable coercion errors (BAD_USER_INPUT) as the client's; undefined for any other body (it is read either way). */
async function coercionErrorsOf(body: Dispatcher.ResponseData['body']): Promise<GatewayGraphQLResponse | undefined> {
  try {
    const { errors } = (await body.json()) as GatewayGraphQLResponse;
    return Array.isArray(errors) && errors.length > 0 && errors.every((e) => e.extensions?.code === 'BAD_USER_INPUT') ? refusedVariables(errors) : undefined;
  } catch {
    return undefined;
  }
}

function isHttpReply(reply: Dispatcher.ResponseData | GatewayGraphQLResponse): reply is Dispatcher.ResponseData {
  return 'statusCode' in reply;
}

function unavailable(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'SUBGRAPH_UNAVAILABLE' } });
}
