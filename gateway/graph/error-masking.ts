/**
 * Error masking: clients see the codes of the public catalogue and GraphQL's own request errors;
 * anything else (a bug, a subgraph's internal error) becomes INTERNAL with no detail, and is logged.
 */
import type { GraphQLFormattedError } from 'graphql';
import { isErrorCode } from '../../schema/errors';

/** Apollo Server's request-level codes: safe to show as they are. */
export const GRAPHQL_REQUEST_CODES: ReadonlySet<string> = new Set([
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED', 'OPERATION_RESOLUTION_FAILURE',
  'QUERY_TOO_COMPLEX', 'QUERY_TOO_DEEP',
]);

/** The gateway's executor coerces variables itself and reports failures without a code (GraphQL spec wording). */
const VARIABLE_COERCION = /^Variable "\$([^"]+)" (?:got invalid value|of required type|of non-null type)(?:.*? at "([^"]+)";)?/s;

/**
 * The field a variable coercion error is about, as its path inside the variable: `year` for
 * `Variable "$input" got invalid value 2147483648 at "input.year"`; the variable's name when the
 * variable itself is wrong.
 */
function coercedField(message: string): string | undefined {
  const match = VARIABLE_COERCION.exec(message);
  if (!match) return undefined;
  const [, variable, at] = match;
  return at?.startsWith(`${variable}.`) ? at.slice(variable.length + 1) : at ?? variable;
}

export function maskError(formatted: GraphQLFormattedError, log: (message: string) => void = console.error): GraphQLFormattedError {
  const coerced = coercedField(formatted.message);
  const code = coerced !== undefined ? 'BAD_USER_INPUT' : formatted.extensions?.code;
  if (code === 'SUBGRAPH_UNAVAILABLE') {
    // The detail names internal addresses: log it, tell the client only what it can act on.
    log(formatted.message);
    return { message: 'A backing service is unavailable; retry shortly', ...(formatted.path && { path: formatted.path }), extensions: { code: 'SERVICE_UNAVAILABLE' } };
  }
  if ((isErrorCode(code) && code !== 'INTERNAL') || (typeof code === 'string' && GRAPHQL_REQUEST_CODES.has(code))) {
    const { suggestions } = formatted.extensions ?? {};
    const field = formatted.extensions?.field ?? coerced;
    return {
      message: formatted.message,
      ...(formatted.locations && { locations: formatted.locations }),
      ...(formatted.path && { path: formatted.path }),
      extensions: { code, ...(field !== undefined && { field }), ...(suggestions !== undefined && { suggestions }) },
    };
  }
  log(`masked internal error: ${formatted.message} ${JSON.stringify(formatted.extensions ?? {})}`);
  return { message: 'Internal error', ...(formatted.path && { path: formatted.path }), extensions: { code: 'INTERNAL' } };
}
