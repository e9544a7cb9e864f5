/**
 * The subgraph fetcher for all-in-one mode: when a subgraph runs in the gateway's own process,
 * its part of the query plan is executed on its schema directly (a GraphQL operation, as over
 * HTTP, but without serialising it through a socket). Apollo's LocalGraphQLDataSource does the
 * same, but parses and validates every call; subgraph operations come from cached query plans,
 * so here each distinct operation is parsed and validated once.
 */
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { execute, parse, validate, type DocumentNode } from 'graphql';
import type { InProcessSubgraph } from '../../subgraphs/common/serve';
import type { GatewayContext } from './context';
import { refusedVariables } from './refused-variables';

/** Distinct subgraph operations to keep parsed. @default 1000 */
const MAX_CACHED_OPERATIONS = 1000;

export class LocalSubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly documents = new Map<string, DocumentNode | GatewayGraphQLResponse>();

  constructor(private readonly subgraph: InProcessSubgraph) {}

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const { query, variables, operationName } = options.request;
    const document = this.document(query ?? '');
    if (!('kind' in document)) return document; // a cached parse or validation failure
    const result = await execute({
      schema: this.subgraph.schema,
      document,
      variableValues: variables,
      operationName,
      contextValue: this.subgraph.context(options.context as Partial<GatewayContext>),
    });
    const errors = result.errors?.map((e) => e.toJSON());
    // No data at all: the variables could not be coerced (execution never started).
    if (errors && !('data' in result)) return refusedVariables(errors);
    return { data: result.data as GatewayGraphQLResponse['data'], ...(errors && { errors }) };
  }

  private document(query: string): DocumentNode | GatewayGraphQLResponse {
    let cached = this.documents.get(query);
    if (cached) return cached;
    try {
      const document = parse(query);
      const errors = validate(this.subgraph.schema, document);
      cached = errors.length ? { errors: errors.map((e) => e.toJSON()) } : document;
    } catch (error) {
      cached = { errors: [{ message: (error as Error).message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] };
    }
    if (this.documents.size >= MAX_CACHED_OPERATIONS) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(query, cached);
    return cached;
  }
}
