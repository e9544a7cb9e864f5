/**
 * Variables the graph must not or cannot take are the client's error, HTTP 400:
 * - nested deeper than MAX_NESTING_DEPTH: refused when an operation is measured (./limits.ts), the
 *   first thing done with every operation the gateway runs, before anything walks, serialises or
 *   stores them. A JSONObject argument (a batch item's home) takes any depth through GraphQL
 *   coercion, and thousands of levels overflow the stack. 400 INVALID_PARAMETER naming the field.
 * - refused by a subgraph's own coercion (a JSONObject given a string): its errors, marked 400 as
 *   the gateway's own coercion errors are, rather than a 200 (in process) or a 503 (over HTTP), in
 *   both data sources alike.
 */
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { GraphQLError } from 'graphql';
import { fieldPath, MAX_NESTING_DEPTH, tooDeepMessage, tooDeepPath } from '../../schema/nesting';

/** Throws the client's error when a variable nests too deeply; the field is its path inside the variable (items[0].home). */
export function refuseDeepVariables(variables: Record<string, unknown> | undefined): void {
  // +1: the variables object itself is one level.
  const path = tooDeepPath(variables, MAX_NESTING_DEPTH + 1);
  if (!path) return;
  // Three steps name the place (items[0].home) without repeating the nesting itself.
  const field = fieldPath(path.length > 1 ? path.slice(1, 4) : path);
  throw new GraphQLError(tooDeepMessage(field), { extensions: { code: 'INVALID_PARAMETER', field, http: { status: 400 } } });
}

/** A subgraph's refusal of the variables (errors and no data), as the client's error: HTTP 400. */
export function refusedVariables(errors: NonNullable<GatewayGraphQLResponse['errors']>): GatewayGraphQLResponse {
  return { errors: errors.map((error) => ({ ...error, extensions: { ...error.extensions, http: { status: 400 } } })) };
}
