/**
 * The one way a door other than POST /graphql runs an operation of the graph: the REST routes, the
 * MCP tools inside the gateway, and (./remote-executor.ts's twin over HTTP) the MCP stdio server.
 * Each runs a named GraphQL operation as its caller and gets `data` or a catalogue ApiError.
 *
 * Path: an operation with an `owner` (a persisted one whose fields all belong to that subgraph,
 * checked against its SDL by a test) goes straight to the owner's data source, skipping query
 * planning (the REST fast path, measured in docs/BENCHMARKS.md); any other goes through Apollo
 * Server as POST /graphql would. Either way its errors are masked by the same step, then mapped
 * to a catalogue error by the same mapper as the stdio server's (./error-masking.ts).
 */
import type { Principal } from '../auth/principal';
import type { Graph } from './apollo';
import { apiErrorOfReply } from './error-masking';
import type { Operation } from './operation';

export type { Operation } from './operation';

export interface GraphExecutor {
  /** Runs the operation as the caller; resolves with `data`, or rejects with an ApiError carrying the API's code, message and field. */
  execute<TData>(operation: Operation, variables: Record<string, unknown>): Promise<TData>;
}

/** Who an operation runs as: a REST or MCP request's principal and id. */
export interface Caller {
  principal: Principal | null;
  id: string;
}

/** Inside the gateway: operations run as the caller, charged and limited as at /graphql. */
export function gatewayExecutor(graph: Graph, caller: Caller): GraphExecutor {
  return {
    async execute<TData>(operation: Operation, variables: Record<string, unknown>): Promise<TData> {
      const reply = await graph.execute(operation, variables, { principal: caller.principal, requestId: caller.id });
      const error = apiErrorOfReply(reply);
      if (error) throw error;
      return reply.data as TData;
    },
  };
}
