/**
 * The single-subgraph path of /graphql (issue 34): an operation whose query plan is one fetch from
 * one subgraph, asking exactly what the client asked, is answered with that subgraph's reply.
 *
 * Apollo Gateway executes such a plan as any other: per request it builds the operation's context,
 * coerces the variables again, hashes the query for its plan cache, rebuilds the operation in the
 * planner's form, merges the reply into an empty result and walks it again field by field to shape
 * the response (for a 100-item homeValuations, half the gateway's CPU). When the fetch's selection is
 * the client's (same fields, aliases, arguments, directives and variable definitions, in the same
 * order: the subgraph then executes exactly the client's selection, on types the supergraph takes
 * from it), that walk gives back the reply it was given. The plan is learnt from the first request
 * of each document (Apollo's `experimental_didResolveQueryPlan`), and decided once per operation.
 *
 * A reply with errors, or without data, goes the way Apollo Gateway goes, so that errors read the
 * same (service name, paths, codes): the gateway's executor runs the plan with the reply already
 * fetched (a data source never calls the subgraph twice for one request), as it does when the call
 * fails. Variables were coerced and refused before this point (./limits.ts, first error only).
 */
import type { Experimental_DidResolveQueryPlanCallback, GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayExecutor, GatewayGraphQLResponse, GatewayInterface } from '@apollo/server-gateway-interface';
import { Kind, parse, print, type OperationDefinitionNode } from 'graphql';
import type { GatewayContext } from './context';
import { RawData } from './raw-reply';
import type { SubgraphDataSource } from './subgraph-data-source';

type QueryPlan = Parameters<Experimental_DidResolveQueryPlanCallback>[0]['queryPlan'];
type FetchNode = Extract<NonNullable<QueryPlan['node']>, { kind: 'Fetch' }>;

/** Where a request's fetched reply waits for the gateway's executor (on the request's context object). */
const FETCHED = Symbol('single-fetch reply');
type Fetched = { response: GatewayGraphQLResponse } | { error: unknown };
type WithFetched = { [FETCHED]?: Fetched };

export class SingleFetchPath {
  /** Per operation (the node of a cached document): the fetch answering it alone, or null when there is none. */
  private readonly decisions = new WeakMap<OperationDefinitionNode, FetchNode | null>();

  constructor(private readonly dataSources: ReadonlyMap<string, GraphQLDataSource<GatewayContext>>) {}

  /** Learns an operation's plan (Apollo calls this on each request it plans or finds a plan for). */
  readonly didResolveQueryPlan: Experimental_DidResolveQueryPlanCallback = ({ queryPlan, requestContext }) => {
    if (!this.decisions.has(requestContext.operation)) this.decisions.set(requestContext.operation, singleFetchOf(queryPlan, requestContext.operation, this.dataSources));
  };

  /** Apollo's data source for a subgraph, answering with a reply already fetched for the request when there is one. */
  static dataSource(source: GraphQLDataSource<GatewayContext>): GraphQLDataSource<GatewayContext> {
    return {
      process: (options) => {
        const holder = options.context as WithFetched | undefined;
        const fetched = holder?.[FETCHED];
        if (!fetched) return source.process(options);
        delete holder[FETCHED];
        return 'error' in fetched ? Promise.reject(fetched.error) : Promise.resolve(fetched.response);
      },
    };
  }

  /** The gateway's executor with this path in front of it. */
  executor(executor: GatewayExecutor): GatewayExecutor {
    return async (requestContext) => {
      const fetch = this.decisions.get(requestContext.operation);
      if (!fetch) return executor(requestContext);
      const context = requestContext.context as GatewayContext & WithFetched;
      const variables = usedVariables(requestContext.request.variables, fetch.variableUsages);
      const source = this.dataSources.get(fetch.serviceName)! as GraphQLDataSource<GatewayContext> & Partial<Pick<SubgraphDataSource, 'processRaw'>>;
      // Our data sources read only the request and the context, as on the REST path (./apollo.ts).
      const options = { request: { query: fetch.operation, variables, operationName: fetch.operationName }, context } as unknown as GraphQLDataSourceProcessOptions<GatewayContext>;
      // A query over HTTP /graphql may have its reply written as the subgraph's bytes (./raw-reply.ts).
      const slot = fetch.operationKind === 'query' && source.processRaw ? context.rawReply : undefined;
      let fetched: Fetched;
      try {
        const reply = slot ? await source.processRaw!(options) : await source.process(options);
        if (reply instanceof RawData) {
          slot!.data = reply;
          return { data: reply as unknown as Record<string, unknown> };
        }
        fetched = { response: reply };
      } catch (error) {
        fetched = { error };
      }
      if ('response' in fetched && !fetched.response.errors?.length && fetched.response.data != null) return { data: fetched.response.data };
      context[FETCHED] = fetched;
      try {
        return await executor(requestContext);
      } finally {
        delete context[FETCHED];
      }
    };
  }
}

/** The variables a fetch uses, as Apollo's executor picks them (none undefined). */
function usedVariables(provided: Record<string, unknown> | undefined, names: readonly string[] | undefined): Record<string, unknown> {
  const variables: Record<string, unknown> = Object.create(null);
  for (const name of names ?? []) {
    if (provided && Object.prototype.hasOwnProperty.call(provided, name) && provided[name] !== undefined) variables[name] = provided[name];
  }
  return variables;
}

/**
 * The plan's fetch when it answers the operation alone: one fetch at the root (no entity fetch, no
 * rewrites), from a subgraph with a data source, whose operation is the client's own (same kind,
 * variable definitions in any order, and selection, printed alike); else null. A client operation with fragments
 * never matches (the planner expands them): it takes the general path.
 */
export function singleFetchOf(queryPlan: QueryPlan, operation: OperationDefinitionNode, dataSources: ReadonlyMap<string, unknown>): FetchNode | null {
  const node = queryPlan.node;
  if (!node || node.kind !== 'Fetch') return null;
  if (node.requires || node.inputRewrites?.length || node.outputRewrites?.length || node.contextRewrites?.length || node.hasDefers) return null;
  if (!dataSources.has(node.serviceName) || node.operationKind !== operation.operation) return null;
  let fetched: OperationDefinitionNode | undefined;
  try {
    const document = parse(node.operation, { noLocation: true });
    if (document.definitions.length !== 1 || document.definitions[0].kind !== Kind.OPERATION_DEFINITION) return null;
    fetched = document.definitions[0];
  } catch {
    return null;
  }
  if (fetched.operation !== operation.operation || (operation.directives?.length ?? 0) > 0 || (fetched.directives?.length ?? 0) > 0) return null;
  // The planner may list the variables in another order: their order means nothing.
  const definitions = (op: OperationDefinitionNode) => (op.variableDefinitions ?? []).map((d) => print(d)).sort().join(',');
  return definitions(fetched) === definitions(operation) && print(fetched.selectionSet) === print(operation.selectionSet) ? node : null;
}

/** `gateway` with its executor wrapped by `wrap` (the rest as it is). */
export function withExecutor(gateway: GatewayInterface, wrap: (executor: GatewayExecutor) => GatewayExecutor): GatewayInterface {
  return {
    onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
    async load(options) {
      const { executor } = await gateway.load(options);
      return { executor: executor && wrap(executor) };
    },
    stop: () => gateway.stop(),
  };
}
