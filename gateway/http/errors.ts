/**
 * Every error reply of the gateway's HTTP surface has one shape:
 * `{ "error": { code, message, field?, suggestions?, request_id } }` with the catalogue's status.
 * fastify's own errors (bad JSON, body too large, wrong content type) are mapped onto the catalogue.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, payloadTooLarge, type ErrorCode } from '../../schema/errors';

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  // A refusal that knows when to retry (a plan's allowance, a full render queue) says so.
  const { retryAfterSeconds } = error as { retryAfterSeconds?: number };
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
  return reply.code(error.status).type('application/json').send(error.toReply(request.id));
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_JSON',
};

/**
 * Maps anything thrown in a route to a catalogue error; unknown errors become INTERNAL and are logged.
 * fastify's body limit names no number: the refusal names `bodyLimit`, the limit of the route that refused.
 */
export function toApiError(error: unknown, log: (message: string) => void, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return payloadTooLarge(bodyLimit);
  if (fastifyError.code === 'FST_ERR_VALIDATION') return parameterError(fastifyError);
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped) return new ApiError(mapped);
  // secure-json-parse and JSON.parse raise SyntaxError (also for __proto__ keys) with status 400.
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) return new ApiError('INVALID_JSON', 'The request body is not valid JSON');
  log(`internal error: ${fastifyError.stack ?? String(error)}`);
  return new ApiError('INTERNAL');
}

/**
 * A path parameter or query string that failed its route schema (bodies are read by the contract
 * parsers instead): the parameter it names, as the catalogue says it.
 */
function parameterError(error: FastifyError): ApiError {
  const first = error.validation?.[0];
  const params = (first?.params ?? {}) as { missingProperty?: string; allowedValues?: unknown[] };
  if (params.missingProperty) return new ApiError('MISSING_PARAMETER', `${params.missingProperty} is required`, params.missingProperty);
  const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') || undefined;
  const allowed = params.allowedValues ? `: one of ${params.allowedValues.join(', ')}` : '';
  return new ApiError('INVALID_PARAMETER', `${field ?? error.validationContext ?? 'parameter'} ${first?.message ?? 'is invalid'}${allowed}`, field);
}
