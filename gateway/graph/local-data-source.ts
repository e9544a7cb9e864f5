/**
 * The subgraph fetcher for all-in-one mode: when a subgraph runs in the gateway's own process,
 * its part of the query plan is executed on its schema directly (a GraphQL operation, as over
 * HTTP, but without serialising it through a socket). Apollo's LocalGraphQLDataSource does the
 * same, but parses and validates every call; subgraph operations come from cached query plans,
 * so here each distinct operation is parsed and validated once.
 */
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { execute } from 'graphql';
import { isDocument, PreparedDocuments } from '../../platform/prepared-documents';
import type { InProcessSubgraph } from '../../platform/serve';
import type { GatewayContext } from './context';
import { refusedVariables } from './refused-variables';

export class LocalSubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly documents: PreparedDocuments;

  constructor(private readonly subgraph: InProcessSubgraph) {
    this.documents = new PreparedDocuments(subgraph.schema);
  }

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const { query, variables, operationName } = options.request;
    const document = this.documents.get(query ?? '');
    if (!isDocument(document)) return { errors: [...document] }; // a parse or validation failure, kept
    const result = await (this.subgraph.execute ?? execute)({
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
}
