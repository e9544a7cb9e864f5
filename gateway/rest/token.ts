/** POST /service/auth/token: an organisation's API key in (header or body), a short-lived JWT out. */
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { issueToken } from '../auth/jwt';
import { errorResponseJsonSchema } from '../operations/response-schemas';
import { SECURITY } from '../ops/openapi';

const requestBody = {
  type: 'object',
  properties: { api_key: { type: 'string', description: 'Alternative to the X-API-Key header' } },
};

const tokenResponse = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: { access_token: { type: 'string' }, token_type: { type: 'string', enum: ['Bearer'] }, expires_in: { type: 'integer', description: 'Seconds until the token expires' } },
};

export function registerTokenRoute(app: FastifyInstance, authenticateKey: preHandlerAsyncHookHandler, clock?: () => number): void {
  app.post('/service/auth/token', {
    // A key in the body is moved to the header the authentication hook reads.
    preValidation: async (request) => {
      const body = request.body as { api_key?: unknown } | undefined;
      if (!request.headers['x-api-key'] && typeof body?.api_key === 'string') request.headers['x-api-key'] = body.api_key;
    },
    preHandler: authenticateKey,
    schema: {
      tags: ['auth'],
      summary: 'Exchange an API key for a short-lived bearer token (JWT)',
      security: SECURITY.apiKey,
      body: requestBody,
      response: { 200: tokenResponse, '4xx': errorResponseJsonSchema() },
    },
  }, async (request) => issueToken(request.principal!, { clock }));
}
