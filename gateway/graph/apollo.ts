/**
 * The gateway's GraphQL engine: Apollo Gateway over the static supergraph composed at build
 * time (no IntrospectAndCompose), inside Apollo Server with CSRF prevention, error masking,
 * depth and cost limits. REST routes and HTTP /graphql both execute through it.
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { SUPERGRAPH_PATH } from '../../schema/subgraphs';
import type { GatewayContext } from './context';
import { maskError } from './error-masking';
import { costLimitPlugin, depthLimitRule } from './limits';
import { SubgraphDataSource } from './subgraph-data-source';

export interface GraphOptions {
  /** Subgraph name → URL of its /graphql endpoint. */
  subgraphUrls: Record<string, string>;
  internalToken: string;
  introspection: boolean;
  maxDepth?: number;
  maxCost?: number;
  supergraphSdl?: string;
}

export interface Graph {
  apollo: ApolloServer<GatewayContext>;
  stop(): Promise<void>;
}

export async function startGraph(options: GraphOptions): Promise<Graph> {
  const dataSources: SubgraphDataSource[] = [];
  const gateway = new ApolloGateway({
    supergraphSdl: options.supergraphSdl ?? readFileSync(SUPERGRAPH_PATH, 'utf8'),
    buildService: ({ name, url }) => {
      const target = options.subgraphUrls[name] ?? url;
      if (!target) throw new Error(`no URL configured for subgraph ${name}`);
      const source = new SubgraphDataSource(target, options.internalToken);
      dataSources.push(source);
      return source;
    },
  });
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    csrfPrevention: true,
    introspection: options.introspection,
    includeStacktraceInErrorResponses: false,
    formatError: (formatted) => maskError(formatted),
    validationRules: [depthLimitRule(options.maxDepth)],
    plugins: [ApolloServerPluginLandingPageDisabled(), costLimitPlugin(options.maxCost)],
  });
  await apollo.start();
  return {
    apollo,
    stop: async () => {
      await apollo.stop();
      await Promise.all(dataSources.map((s) => s.close()));
    },
  };
}
