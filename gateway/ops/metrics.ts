/**
 * Prometheus metrics: requests by route and status, request latency, and (recorded by the
 * model runtime's callers) inference time and the model version in service.
 * One registry per process: in all-in-one mode the subgraphs' metrics appear here too.
 *
 * Who may read them (metrics tell traffic, routes and versions, so never the public by default):
 * - METRICS_PORT set: GET /metrics on a listener of its own (on HOST), for Prometheus on an internal
 *   network; the API port answers 404 for /metrics.
 * - METRICS_TOKEN set: GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>` (401 INVALID_TOKEN
 *   otherwise), on the metrics port or, without METRICS_PORT, on the API port.
 * - neither: /metrics is served nowhere (404 NOT_FOUND saying how to turn it on).
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Counter, Histogram, register } from 'prom-client';
import { ApiError } from '../../schema/errors';
import { listen } from '../../platform/listen';
import { bearerMatches, collectProcessMetrics, sendMetrics } from '../../platform/process-metrics';
import { clientErrorHandler } from '../http/client-errors';
import { sendError } from '../http/errors';
import { errorResponseJsonSchema } from '../operations/response-schemas';

const METRICS_PATH = '/metrics';

/** The route's schema on the API port (the document describes the API port). */
const METRICS_ROUTE_SCHEMA = {
  tags: ['operations'],
  summary: 'Prometheus metrics',
  description:
    'Served on the API port only when METRICS_TOKEN is set and METRICS_PORT is not: send Authorization: Bearer <METRICS_TOKEN> (401 INVALID_TOKEN otherwise). With METRICS_PORT set, served on that port instead (behind the token too when it is set); with neither, 404 NOT_FOUND.',
  // prom-client's text exposition format (text/plain; version=0.0.4), sent as it is.
  response: { 200: { content: { 'text/plain': { schema: { type: 'string' } } } }, '4xx': errorResponseJsonSchema() },
};


/** Where /metrics is served and who may read it (GatewayConfig's metricsPort and metricsToken). */
export interface MetricsAccess {
  /** METRICS_PORT: /metrics on its own listener, not on the API port. */
  metricsPort?: number;
  /** METRICS_TOKEN: the bearer token /metrics requires. */
  metricsToken?: string;
}

/** Counts the API's requests; serves /metrics on the API port when `access` says so (METRICS_TOKEN without METRICS_PORT). */
export function registerMetrics(app: FastifyInstance, access: MetricsAccess = {}): void {
  collectProcessMetrics();
  const requests = (register.getSingleMetric('http_requests_total') as Counter<string>) ??
    new Counter({ name: 'http_requests_total', help: 'HTTP requests by route, method and status', labelNames: ['route', 'method', 'status'] });
  const latency = (register.getSingleMetric('http_request_duration_seconds') as Histogram<string>) ??
    new Histogram({ name: 'http_request_duration_seconds', help: 'HTTP request latency by route', labelNames: ['route'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] });

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL, keeps label cardinality bounded.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    latency.observe({ route }, reply.elapsedTime / 1000);
  });
  if (access.metricsPort === undefined && access.metricsToken !== undefined) {
    app.get(METRICS_PATH, { schema: METRICS_ROUTE_SCHEMA }, serveMetrics(access.metricsToken));
  } else {
    const where = access.metricsPort === undefined ? 'set METRICS_TOKEN (then send it as a bearer token) or METRICS_PORT' : 'it is served on METRICS_PORT';
    app.get(METRICS_PATH, { schema: METRICS_ROUTE_SCHEMA }, async (request, reply) => sendError(request, reply, new ApiError('NOT_FOUND', `${METRICS_PATH} is not served on this port: ${where}`)));
  }
}

export interface MetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** GET /metrics alone on `port` of `host` (METRICS_PORT), behind `token` when there is one. */
export async function startMetricsServer(options: { host: string; port: number; token?: string }): Promise<MetricsServer> {
  const app = Fastify({ logger: false, clientErrorHandler });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new ApiError('NOT_FOUND', `Only GET ${METRICS_PATH} is served on this port`)));
  app.get(METRICS_PATH, serveMetrics(options.token));
  const { port, url } = await listen(app, options.host, options.port, 'METRICS_PORT');
  return { url, port, close: () => app.close() };
}

function serveMetrics(token: string | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(request, reply, new ApiError('INVALID_TOKEN', `Send Authorization: Bearer <METRICS_TOKEN> to read ${METRICS_PATH}`));
    }
    return sendMetrics(reply);
  };
}
