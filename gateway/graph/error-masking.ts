/**
 * The gateway's one mapper from GraphQL errors to the catalogue's, in two steps.
 * Masking (`maskError`, Apollo Server's formatError and the owner path of ./apollo.ts): clients see
 * the codes of the public catalogue and GraphQL's own request errors; anything else (a bug, a
 * subgraph's internal error) becomes INTERNAL with no detail, and is logged.
 * The catalogue code (`apiErrorOf`, `apiErrorOfReply`): a masked error as the ApiError the other
 * doors answer with, for the REST routes and the MCP tools in the gateway (./executor.ts) and the MCP
 * stdio server over HTTP (gateway/mcp/remote-executor.ts); a catalogue code is read as every client
 * reads one (platform/graphql-reply.ts), the rest is the gateway's. Its REST body is `ApiError.toReply`
 * (gateway/http/errors.ts), its MCP tool error `toolError` (gateway/mcp/results.ts).
 */
import type { GraphQLFormattedError } from 'graphql';
import { catalogueErrorOf, type GraphQLReply } from '../../platform/graphql-reply';
import { ApiError, isErrorCode } from '../../schema/errors';
import { looksLikePersonalDataKey } from '../../schema/personal-data';

/** Apollo Server's request-level codes: safe to show as they are. */
export const GRAPHQL_REQUEST_CODES: ReadonlySet<string> = new Set([
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED', 'OPERATION_RESOLUTION_FAILURE',
  'QUERY_TOO_COMPLEX', 'QUERY_TOO_DEEP',
]);

/** The gateway's executor coerces variables itself and reports failures without a code (GraphQL spec wording). */
const VARIABLE_COERCION = /^Variable "\$([^"]+)" (?:got invalid value|of required type|of non-null type)(?:.*? at "([^"]+)";)?/s;
/** graphql-js's reasons for refusing an input object's value (coerceInputValue), after the variable's part. */
const UNDEFINED_FIELD = /; Field "([^"]+)" is not defined by type "[^"]+"/;
const MISSING_FIELD = /; Field "([^"]+)" of required type "[^"]+" was not provided/;
const UNKNOWN_ENUM_VALUE = /; Value "[^"]*" does not exist in "[^"]+" enum/;

/**
 * A variable coercion error in the catalogue's terms, as the REST and MCP doors refuse the same
 * input (issue 36: the same errors on every door). The field is its path inside the variable (`year`
 * for `Variable "$input" got invalid value 2147483648 at "input.year"`; the variable's name when the
 * variable itself is wrong), with the field GraphQL's wording names appended:
 * - an input field the type does not have that looks like personal data (`phone`, `vin`):
 *   PERSONAL_DATA_NOT_ACCEPTED, as the REST body check says it;
 * - a required field not given: MISSING_PARAMETER on it;
 * - a word an enum does not have (`currency: EUR`): INVALID_PARAMETER;
 * anything else stays GraphQL's BAD_USER_INPUT on the field.
 */
function coercionError(message: string): { code: string; field: string; message?: string } | undefined {
  const match = VARIABLE_COERCION.exec(message);
  if (!match) return undefined;
  const [, variable, at] = match;
  const inside = at?.startsWith(`${variable}.`) ? at.slice(variable.length + 1) : undefined;
  const field = inside ?? at ?? variable;
  const under = (name: string) => (inside ? `${inside}.${name}` : name);
  const unknown = UNDEFINED_FIELD.exec(message);
  if (unknown && looksLikePersonalDataKey(unknown[1])) {
    return { code: 'PERSONAL_DATA_NOT_ACCEPTED', field: under(unknown[1]), message: `${under(unknown[1])} looks like personal data; the valuation needs none: remove it` };
  }
  const missing = MISSING_FIELD.exec(message);
  if (missing) return { code: 'MISSING_PARAMETER', field: under(missing[1]), message: `${under(missing[1])} is required` };
  if (UNKNOWN_ENUM_VALUE.test(message)) return { code: 'INVALID_PARAMETER', field };
  return { code: 'BAD_USER_INPUT', field };
}

export function maskError(formatted: GraphQLFormattedError, log: (message: string) => void = console.error): GraphQLFormattedError {
  const coerced = coercionError(formatted.message);
  const code = coerced?.code ?? formatted.extensions?.code;
  if (code === 'SUBGRAPH_UNAVAILABLE') {
    // The detail names internal addresses: log it, tell the client only what it can act on.
    log(formatted.message);
    return { message: 'A backing service is unavailable; retry shortly', ...(formatted.path && { path: formatted.path }), extensions: { code: 'SERVICE_UNAVAILABLE' } };
  }
  if ((isErrorCode(code) && code !== 'INTERNAL') || (typeof code === 'string' && GRAPHQL_REQUEST_CODES.has(code))) {
    const { suggestions } = formatted.extensions ?? {};
    const field = formatted.extensions?.field ?? coerced?.field;
    return {
      message: coerced?.message ?? formatted.message,
      ...(formatted.locations && { locations: formatted.locations }),
      ...(formatted.path && { path: formatted.path }),
      extensions: { code, ...(field !== undefined && { field }), ...(suggestions !== undefined && { suggestions }) },
    };
  }
  log(`masked internal error: ${formatted.message} ${JSON.stringify(formatted.extensions ?? {})}`);
  return { message: 'Internal error', ...(formatted.path && { path: formatted.path }), extensions: { code: 'INTERNAL' } };
}

/** A masked GraphQL error as the catalogue ApiError a REST or MCP client gets. */
export function apiErrorOf(error: GraphQLFormattedError): ApiError {
  const catalogued = catalogueErrorOf(error);
  if (catalogued) return catalogued;
  const { code, field } = error.extensions ?? {};
  // GraphQL's coercion wording names variables and types a REST client never sent: say which field.
  if (code === 'BAD_USER_INPUT') return new ApiError('INVALID_PARAMETER', field === undefined ? error.message : `${field} has the wrong type or is out of range`, field as string | undefined);
  return new ApiError('INTERNAL');
}

/**
 * A reply of the graph, in process or over HTTP: its data and masked GraphQL `errors`, or (from a
 * gateway's /graphql) the gateway's own error body, `{ error: { code, … } }` (authentication, quota, size).
 */
export interface GraphReply extends GraphQLReply {
  error?: { code?: unknown; message?: unknown; field?: unknown; suggestions?: unknown };
}

/** The catalogue error a reply of the graph ends in (its first error); undefined: it has none. */
export function apiErrorOfReply(reply: GraphReply): ApiError | undefined {
  if (reply.error) return ApiError.fromBody(reply.error);
  if (reply.errors?.length) return apiErrorOf(reply.errors[0]);
  return undefined;
}
