/**
 * Authentication and quotas, as fastify preHandlers: who is calling (API key or bearer JWT),
 * then one count against the organisation's plan. Every authenticated reply carries the
 * RateLimit-* and X-RateLimit-* headers; past the quota the reply is 429 with Retry-After.
 * If the quota store is unreachable (Redis down) requests are let through and logged:
 * quotas are commercial limits, and valuation must not stop with the cache.
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError } from '../../schema/errors';
import { InvalidTokenError, verifyToken } from '../auth/jwt';
import type { KeyStore } from '../auth/key-store';
import type { Principal } from '../auth/principal';
import { getPlan, rateLimitHeaders, type QuotaStore } from '../quota';
import type { BulkPacer } from './bulk-pacing';
import { sendError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The request's credentials checked again, null while they hold: an upload checks before each part, so a key revoked meanwhile stops it (issue 33, finding 7). */
    credentialsRecheck?: () => Promise<ApiError | null>;
  }
}

export type Credential = 'apiKey' | 'bearer';

export interface AuthDeps {
  keys: KeyStore;
  quotas: QuotaStore;
  log: (message: string) => void;
  /** When tokens are checked against their expiry (ms since the epoch). @default Date.now */
  clock?: () => number;
  /** Counts interactive requests, and gives bulk routes' requests their lane (./bulk-pacing.ts). @default no pacing */
  pacer?: BulkPacer;
}

/** A preHandler accepting the given credential kinds (in order of preference). */
export function authenticate(deps: AuthDeps, accepted: readonly Credential[]): preHandlerAsyncHookHandler {
  return async function authenticateAndCount(request: FastifyRequest, reply: FastifyReply) {
    const principal = await identify(request, deps.keys, accepted, deps.clock);
    if (principal instanceof ApiError) return sendError(request, reply, principal);
    request.principal = principal;
    if (deps.pacer) {
      if (request.routeOptions.config.bulk) request.bulkLane = deps.pacer.lane();
      else deps.pacer.trackInteractive(reply);
    }
    request.credentialsRecheck = async () => {
      const again = await identify(request, deps.keys, accepted, deps.clock);
      return again instanceof ApiError ? again : null;
    };
    return countAgainstQuota(request, reply, deps);
  };
}

async function identify(request: FastifyRequest, keys: KeyStore, accepted: readonly Credential[], clock?: () => number): Promise<Principal | ApiError> {
  const apiKey = request.headers['x-api-key'];
  const authorization = request.headers.authorization;
  if (accepted.includes('apiKey') && typeof apiKey === 'string' && apiKey !== '') {
    return keys.verify(apiKey) ?? new ApiError('INVALID_API_KEY', 'The API key is invalid or revoked');
  }
  if (accepted.includes('bearer') && typeof authorization === 'string' && /^bearer\s/i.test(authorization)) {
    try {
      return await verifyToken(authorization.slice(7).trim(), { keyStore: keys, clock });
    } catch (error) {
      if (error instanceof InvalidTokenError) return new ApiError('INVALID_TOKEN', `The bearer token is ${error.reason === 'expired' ? 'expired' : 'invalid'}`);
      throw error;
    }
  }
  return accepted[0] === 'bearer'
    ? new ApiError('INVALID_TOKEN', 'Send Authorization: Bearer <token> (from POST /service/auth/token)')
    : new ApiError('INVALID_API_KEY', 'Send your API key in the X-API-Key header');
}

async function countAgainstQuota(request: FastifyRequest, reply: FastifyReply, deps: AuthDeps) {
  const principal = request.principal!;
  let decision;
  const now = Date.now();
  try {
    // Quotas belong to the organisation: more keys must not mean more quota.
    decision = await deps.quotas.consume(`org:${principal.org}`, getPlan(principal.plan).quota, now);
  } catch (error) {
    deps.log(`quota store unavailable, request let through: ${(error as Error).message}`);
    return;
  }
  reply.headers(rateLimitHeaders(decision, now));
  if (!decision.allowed) {
    return sendError(request, reply, new ApiError('RATE_LIMITED', `The ${principal.plan} plan allows ${decision.limit} requests per ${decision.window}; retry in ${decision.retryAfterSeconds} s`));
  }
}
