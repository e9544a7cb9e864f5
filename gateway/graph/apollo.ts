/**
 * The gateway's GraphQL engine: Apollo Gateway over the static supergraph composed at build
 * time (no IntrospectAndCompose), inside Apollo Server with CSRF prevention, error masking,
 * document, cost and work limits (./document-limits.ts, ./limits.ts). HTTP /graphql executes through it; the other
 * doors run their operations through `execute` (./executor.ts).
 * Subgraphs in the same process are executed in process, the others over keep-alive HTTP.
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { GraphQLError, parse, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { ApolloServer } from '@apollo/server';
import { LRUCache } from 'lru-cache';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { SUPERGRAPH_PATH } from '../../platform/schema-files';
import type { GatewayContext } from './context';
import type { Operation } from './operation';
import { maskError } from './error-masking';
import type { WorkMeter } from '../quota';
import { checkDocument, DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './document-limits';
import { OperationCharges, OperationMeasures, operationLimitsPlugin, type OperationMeasure } from './limits';
import { OrganisationPersistedQueries } from './persisted-queries';
import type { InProcessSubgraph } from '../../platform/serve';
import { BATCH_PROGRESS_SDL } from '../subscriptions/batch-progress-schema';
import { withSubscriptionTypes } from './subscription-types';
import { LocalSubgraphDataSource } from './local-data-source';
import { SubgraphDataSource } from './subgraph-data-source';
import { SingleFetchPath, withExecutor } from './single-fetch';

export interface GraphOptions {
  /** Subgraph name → URL of its /graphql endpoint. */
  subgraphUrls: Record<string, string>;
  /** Subgraphs running in this process (all-in-one mode): executed in process instead of over HTTP. */
  localSubgraphs?: Record<string, InProcessSubgraph>;
  internalToken: string;
  /** Off: no introspection, and no "Did you mean …" suggestions naming fields in errors either. */
  introspection: boolean;
  /** Bounds on a document's shape (tokens, depth, aliases, …). @default DEFAULT_DOCUMENT_LIMITS */
  documentLimits?: Partial<DocumentLimits>;
  maxCost?: number;
  /** Charges each operation's valuations and batch items to the caller's plan; none: nothing is charged. */
  meter?: WorkMeter;
  supergraphSdl?: string;
  /** Where unreachable subgraphs are reported (./error-masking.ts). @default console.error */
  log?: (message: string) => void;
}

export interface Graph {
  apollo: ApolloServer<GatewayContext>;
  /** The bounds on a document's shape this graph checks (the subscription server checks the same). */
  documentLimits: DocumentLimits;
  /**
   * Runs an operation as the context's caller, its errors masked: with an `owner`, a persisted
   * operation on the one subgraph that owns every field in it, through the same data source the
   * query planner uses (no query planning or result shaping for a response that needs neither);
   * otherwise through Apollo Server, as POST /graphql. See ./executor.ts.
   */
  execute(operation: Operation, variables: Record<string, unknown>, context: GatewayContext): Promise<{ data?: unknown; errors?: readonly GraphQLFormattedError[] }>;
  /**
   * Errors refusing a client's document for its shape (./document-limits.ts), checked before it
   * reaches Apollo Server, whose validation is not linear; none: it may go on.
   */
  checkDocument(source: string): readonly GraphQLError[];
  stop(): Promise<void>;
}

/** Characters of accepted documents remembered, so a repeated one is not checked again. @default 4 MB */
const ACCEPTED_DOCUMENTS_BYTES = 4_000_000;

/** Persisted operations parsed once each (they are constants of the REST routes and MCP tools). */
const persistedDocuments = new Map<string, DocumentNode>();
function persistedDocument(query: string): DocumentNode {
  let document = persistedDocuments.get(query);
  if (!document) persistedDocuments.set(query, (document = parse(query)));
  return document;
}

export async function startGraph(options: GraphOptions): Promise<Graph> {
  const dataSources = new Map<string, GraphQLDataSource<GatewayContext>>();
  // Operations planned as one fetch asking what the client asked are answered with the subgraph's reply (./single-fetch.ts).
  const singleFetch = new SingleFetchPath(dataSources);
  const gateway = new ApolloGateway({
    supergraphSdl: options.supergraphSdl ?? readFileSync(SUPERGRAPH_PATH, 'utf8'),
    buildService: ({ name, url }) => {
      const local = options.localSubgraphs?.[name];
      const target = options.subgraphUrls[name] ?? url;
      if (!local && !target) throw new Error(`no URL configured for subgraph ${name}`);
      const source = local ? new LocalSubgraphDataSource(local) : new SubgraphDataSource(target!, options.internalToken);
      dataSources.set(name, source);
      return SingleFetchPath.dataSource(source);
    },
    experimental_didResolveQueryPlan: singleFetch.didResolveQueryPlan,
  });
  const served = withSubscriptionTypes(withExecutor(gateway, (executor) => singleFetch.executor(executor)), BATCH_PROGRESS_SDL);
  let apiSchema: GraphQLSchema | undefined;
  served.onSchemaLoadOrUpdate((update) => {
    apiSchema = update.apiSchema;
  });
  const documentLimits = { ...DEFAULT_DOCUMENT_LIMITS, ...options.documentLimits };
  // One charging and one masking for both paths below: Apollo Server's (the plugin, formatError) and the owner path.
  const charges = new OperationCharges(new OperationMeasures(options.maxCost), options.meter);
  const formatError = (formatted: GraphQLFormattedError): GraphQLFormattedError => maskError(formatted, options.log);
  const acceptedDocuments = new LRUCache<string, true>({ maxSize: ACCEPTED_DOCUMENTS_BYTES, sizeCalculation: (_accepted, source) => source.length + 1 });
  const apollo = new ApolloServer<GatewayContext>({
    gateway: served,
    csrfPrevention: true,
    introspection: options.introspection,
    // Suggestions ("Did you mean …") name fields and arguments: with introspection off they would leak the schema.
    hideSchemaDetailsFromClientErrors: !options.introspection,
    parseOptions: { maxTokens: documentLimits.maxTokens },
    // Each organisation runs by hash only the queries it registered itself (./persisted-queries.ts).
    persistedQueries: { cache: new OrganisationPersistedQueries() },
    includeStacktraceInErrorResponses: false,
    // The entry points own SIGINT/SIGTERM (close the stack, then exit 0). Apollo Server's own handlers,
    // on under NODE_ENV=production, stopped this server and raised the signal again: the process died
    // by the signal before the stack had closed (npm start's SIGTERM exited 143).
    stopOnTerminationSignals: false,
    formatError,
    // Valuations are never HTTP-cached, so the per-field cache-control bookkeeping is pure cost.
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), operationLimitsPlugin(charges)],
  });
  await apollo.start();
  const schema = () => {
    if (!apiSchema) throw new Error('the supergraph is not loaded');
    return apiSchema;
  };
  return {
    apollo,
    documentLimits,
    async execute(operation, variables, context) {
      if (!operation.owner) {
        const response = await apollo.executeOperation({ query: operation.query, variables }, { contextValue: context });
        if (response.body.kind !== 'single') throw new Error('an operation of a REST route or tool answered incrementally');
        return response.body.singleResult; // masked by formatError
      }
      const source = dataSources.get(operation.owner);
      if (!source) throw new Error(`unknown subgraph ${operation.owner}`);
      let response: GatewayGraphQLResponse;
      let measure: OperationMeasure | undefined;
      try {
        // Charged by the plugin's charges (the plugin does not run on this path); a refused charge is
        // thrown as the API's RATE_LIMITED error, which knows its Retry-After.
        measure = await charges.charge(schema(), persistedDocument(operation.query), undefined, variables, context.principal);
        // Our data sources read only the request and the context of the process options.
        response = await source.process({ request: { query: operation.query, variables }, context } as unknown as GraphQLDataSourceProcessOptions<GatewayContext>);
      } catch (error) {
        // The subgraph stored nothing: a batch submission's items go back (no data).
        await charges.settle(context.principal, measure, undefined);
        // A fetch failure (subgraph down) arrives as a thrown GraphQLError, as in the gateway's executor.
        if (error instanceof GraphQLError) return { errors: [formatError(error.toJSON())] };
        throw error;
      }
      await charges.settle(context.principal, measure, response.data);
      // Masked by Apollo Server's formatError, as on the other path.
      return response.errors ? { ...response, errors: response.errors.map((e) => formatError(e)) } : response;
    },
    checkDocument: (source) => {
      // Dashboards send the same few documents again and again: one check each (as Apollo parses and validates each once).
      if (acceptedDocuments.has(source)) return [];
      const errors = checkDocument(schema(), source, documentLimits);
      if (errors.length === 0) acceptedDocuments.set(source, true);
      return errors;
    },
    stop: async () => {
      await apollo.stop();
      await Promise.all([...dataSources.values()].map((s) => (s instanceof SubgraphDataSource ? s.close() : undefined)));
    },
  };
}
