/**
 * Prometheus metrics: requests by route and status, request latency, and (recorded by the
 * model runtime's callers) inference time and the model version in service.
 * One registry per process: in all-in-one mode the subgraphs' metrics appear here too.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, register } from 'prom-client';

let defaultsCollected = false;

export function registerMetrics(app: FastifyInstance): void {
  if (!defaultsCollected) {
    collectDefaultMetrics();
    defaultsCollected = true;
  }
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
  app.get('/metrics', async (_request, reply) => reply.type(register.contentType).send(await register.metrics()));
}
