/**
 * Both subgraph data sources (in process and over HTTP) refuse variables nested deeper than
 * MAX_NESTING_DEPTH before calling the subgraph: a JSONObject argument (a batch item's home) takes
 * any depth through GraphQL coercion, and serialising or storing it thousands of levels deep would
 * overflow the stack. The error is the client's: 400 INVALID_PARAMETER naming the field.
 */
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
