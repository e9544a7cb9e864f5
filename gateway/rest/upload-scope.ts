/**
 * A fastify scope for routes that take CSV and NDJSON uploads (POST /api/batch, /api/observations,
 * /api/backtest): the request stream is handed to the route as it comes (it reads it part by part),
 * only inside this scope, and a JSON body over the limit is answered PAYLOAD_TOO_LARGE with `advice`.
 * Their routes authenticate in onRequest, before any of the body is read (issue 33, finding 1).
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { MAX_BATCH_BODY_BYTES } from '../../schema/batch-contract';
import { payloadTooLarge } from '../../schema/errors';
import { sendError } from '../http/errors';

export function registerUploadScope(app: FastifyInstance, advice: string, routes: (scope: FastifyInstance) => void): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv', 'application/x-ndjson'], (_request, payload, done) => done(null, payload));
    scope.setErrorHandler((error, request, reply) => {
      if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, payloadTooLarge(MAX_BATCH_BODY_BYTES, advice));
      throw error;
    });
    routes(scope);
  });
}
