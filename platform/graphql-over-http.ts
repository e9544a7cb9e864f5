/**
 * GraphQL over HTTP as the service's three clients send it
 * (docs/ARCHITECTURE.md, "GraphQL clients"): a subgraph calling a peer (./graph-client.ts), the gateway calling a subgraph
 * (gateway/graph/subgraph-data-source.ts, over its own undici pool) and the MCP stdio server calling
 * a gateway (gateway/mcp/remote-executor.ts). Each builds its POST here: the JSON body and, to a
 * subgraph, the headers subgraphs read their caller from. The two that need no connection pool of
 * their own post with `postGraphQL`: fetch with a timeout, and one error when no JSON reply comes back.
 */

import type { IncomingHttpHeaders } from 'node:http';

/** A subgraph answers only calls carrying the gateway's internal token in this header (./serve.ts). */
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

/** The body's media type; a subgraph's fast lane (./fast-lane.ts) takes only JSON requests. */
export const JSON_CONTENT_TYPE = 'application/json';

/**
 * Who a call to a subgraph is for, as its headers say it: the organisation and its plan (the gateway
 * knows the plan, a peer subgraph only the organisation) and the request it belongs to.
 */
export interface SubgraphCaller {
  principal?: { org: string; plan?: string } | null;
  requestId?: string;
}

/** The POST's body: the query, its variables and the operation's name (left out when there is none). */
export function graphqlRequestBody(query: string, variables: Record<string, unknown> | undefined, operationName?: string | null): string {
  return JSON.stringify({ query, variables, operationName });
}

/** The caller's headers (x-organisation, x-plan, x-request-id), written into `headers`: what a subgraph builds its request context of. */
export function callerHeaders(caller: SubgraphCaller, headers: Record<string, string> = {}): Record<string, string> {
  if (caller.principal) {
    headers['x-organisation'] = caller.principal.org;
    if (caller.principal.plan !== undefined) headers['x-plan'] = caller.principal.plan;
  }
  if (caller.requestId) headers['x-request-id'] = caller.requestId;
  return headers;
}

/** The caller a subgraph reads from the headers the gateway (or a peer) set: callerHeaders read back (an empty header is none). */
export function callerOfHeaders(headers: Readonly<IncomingHttpHeaders>): SubgraphCaller {
  const text = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const org = text('x-organisation');
  const plan = text('x-plan');
  const requestId = text('x-request-id');
  return { principal: org === undefined ? null : plan === undefined ? { org } : { org, plan }, ...(requestId !== undefined && { requestId }) };
}

/** The caller's organisation with its plan, as the gateway names them; null without either (a peer names no plan). */
export function principalWithPlan(caller: SubgraphCaller): { org: string; plan: string } | null {
  const principal = caller.principal;
  return principal?.plan === undefined ? null : { org: principal.org, plan: principal.plan };
}

/** All the headers of a POST to a subgraph: JSON, the internal token (when the subgraph asks for one) and the caller's. */
export function subgraphRequestHeaders(internalToken: string | undefined, caller: SubgraphCaller): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE };
  if (internalToken) headers[INTERNAL_TOKEN_HEADER] = internalToken;
  return callerHeaders(caller, headers);
}

/**
 * A POST that brought back no reply to use. `status` undefined: nothing answered (unreachable,
 * refused, timed out); otherwise the HTTP status of an answer that was not one (no JSON body, or a
 * status the caller takes no reply with).
 */
export class GraphQLHttpFailure extends Error {
  constructor(
    readonly url: string,
    readonly status: number | undefined,
    /** Why, in a few words: the transport's own message, or what was wrong with the answer besides its status. */
    readonly reason?: string,
    options?: { cause: unknown },
  ) {
    super(status === undefined ? `${url} cannot be reached (${reason})` : `${url} answered HTTP ${status}${reason ? ` ${reason}` : ''}`, options);
    this.name = 'GraphQLHttpFailure';
  }
}

/** An answer with a JSON body, whatever its status: a gateway's refusals (401, 429, …) carry theirs. */
export interface GraphQLHttpAnswer<TReply> {
  status: number;
  /** A 2xx status. */
  ok: boolean;
  reply: TReply;
}

/** Posts `body` with fetch, giving up after `timeoutMs`; rejects with GraphQLHttpFailure when no JSON reply comes back. */
export async function postGraphQL<TReply>(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<GraphQLHttpAnswer<TReply>> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body, signal });
  } catch (error) {
    // The transport's error stays the cause: what fetch said (ECONNREFUSED, TimeoutError) is not lost to a caller reading the chain.
    throw new GraphQLHttpFailure(url, undefined, (error as Error).message, { cause: error });
  }
  try {
    return { status: response.status, ok: response.ok, reply: (await response.json()) as TReply };
  } catch (error) {
    throw new GraphQLHttpFailure(url, response.status, 'without a JSON body', { cause: error });
  }
}
