/**
 * What the MCP tools run on: one GraphQL operation at a time, as the caller, with the API's
 * errors thrown as catalogue ApiErrors. Two implementations, so the tools never know where they
 * run: inside the gateway (this file: the REST routes' executor, no extra HTTP hop, no second
 * quota count) and outside it (./remote-executor.ts: the stdio server calling /graphql with a key).
 */
import type { FastifyRequest } from 'fastify';
import type { Graph } from '../graph/apollo';
import { executeForRest } from '../rest/execute';

/** A GraphQL operation; `owner` names the subgraph owning every field, when one does (see executeForRest). */
export interface Operation {
  query: string;
  owner?: string;
}

export interface GraphExecutor {
  /** Runs the operation as the caller; resolves with `data`, or rejects with an ApiError carrying the API's code, message and field. */
  execute<TData>(operation: Operation, variables: Record<string, unknown>): Promise<TData>;
}

/** Inside the gateway: the operation runs as the HTTP request's principal, exactly as a REST route's would. */
export function gatewayExecutor(graph: Graph, request: FastifyRequest): GraphExecutor {
  return { execute: (operation, variables) => executeForRest(graph, request, operation, variables) };
}
