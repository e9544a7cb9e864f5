/**
 * The gateway's HTTP surface on fastify: GraphQL at /graphql, the REST compatibility routes,
 * and the operational routes. Everything else (the graph, keys, quotas) is passed in.
 */
import { randomUUID } from 'node:crypto';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { type FastifyInstance, type preHandlerAsyncHookHandler, type RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../schema/errors';
import { MAX_BODY_BYTES } from '../../schema/field-table';
import type { KeyStore } from '../auth/key-store';
import { registerDashboard } from '../dashboard';
import type { Graph } from '../graph/apollo';
import type { GatewayContext } from '../graph/context';
import { inOrganisationScope } from '../graph/persisted-queries';
import { RawReplySlot } from '../graph/raw-reply';
import { registerMcpRoute } from '../mcp';
import { registerLanding } from '../ops/landing';
import { registerMetrics, type MetricsAccess } from '../ops/metrics';
import { documentedBodies, registerOpenApi } from '../ops/openapi';
import { WorkMeter, type QuotaStore } from '../quota';
import { renderPool } from '../reports/render-pool';
import { registerBatchRoutes } from '../rest/batch';
import { registerHomeRoutes } from '../rest/home';
import { registerLocationRoutes } from '../rest/location';
import { registerObservationRoutes } from '../rest/observations';
import { registerBacktestRoutes } from '../rest/backtest';
import { registerValuationReportRoute } from '../rest/valuation-report';
import { registerValuationRoutes } from '../rest/valuations';
import { registerTokenRoute } from '../rest/token';
import { errorResponseJsonSchema } from '../operations/response-schemas';
import { registerVehicleRoutes } from '../rest/vehicle';
import { startSubscriptionServer, type BatchProgressSource } from '../subscriptions';
import { authenticate } from './authenticate';
import { BulkPacer } from './bulk-pacing';
import { clientErrorHandler } from './client-errors';
import { sendError, toApiError } from './errors';

export const API_VERSION = 'v1.0';
/** GraphQL bodies may carry a bulk of 1,000 inputs. @default 2 MB */
const GRAPHQL_BODY_LIMIT = 2 * 1024 * 1024;
const REQUEST_ID = /^[\w.-]{1,64}$/;

const statusReply = (status: string) => ({ type: 'object', required: ['status'], properties: { status: { type: 'string', enum: [status] } } });

export interface AppDeps {
  graph: Graph;
  keys: KeyStore;
  quotas: QuotaStore;
  /** True once the supergraph and the models are loaded. */
  isReady(): boolean;
  /** False while Redis (in Redis mode) is unreachable or stalled: /ready then answers 503. @default always reachable */
  isRedisReachable?(): boolean;
  log(message: string): void;
  /**
   * Where `batchProgress` subscriptions (graphql-ws on /graphql) read progress: the batch engine.
   * @default the one the stack provided for `keys` (gateway/subscriptions); none: no subscriptions
   */
  batchProgress?: BatchProgressSource;
  /** The Redis the gateway processes share (REDIS_URL): what an organisation's subscriptions run on the others. @default none: this process alone */
  redisUrl?: string;
  /** Web origins besides the gateway's own loopback one whose pages may call /mcp. @default [] */
  mcpAllowedOrigins?: readonly string[];
  /** Where /metrics is served and who may read it (METRICS_PORT, METRICS_TOKEN). @default not on this port */
  metrics?: MetricsAccess;
  /** The time bearer tokens are issued and checked at (ms since the epoch); tests inject one. @default Date.now */
  clock?: () => number;
  /** REQUEST_TIMEOUT_MS and IDLE_TIMEOUT_MS (gateway/config.ts). @default 10 minutes and 1 minute */
  timeouts?: { requestMs: number; idleMs: number };
  /** Paces uploads and exports behind interactive requests (./bulk-pacing.ts); tests inject one that records its pauses. @default a BulkPacer */
  pacer?: BulkPacer;
}

/**
 * fastify's own defaults are 0 (none): a request whose body stalls, or comes a byte at a time, held
 * its connection forever (issue 33, finding 7). Node checks the request timeout on an interval (30 s
 * by default): a quarter of a shorter timeout keeps it close to what is configured. Node ignores a
 * request timeout shorter than the headers timeout (60 s by default; createServer refuses the pair).
 */
function serverTimeouts({ requestMs, idleMs }: { requestMs: number; idleMs: number } = { requestMs: 600_000, idleMs: 60_000 }) {
  const http = { connectionsCheckingInterval: Math.min(30_000, Math.max(1, Math.ceil(requestMs / 4))), headersTimeout: Math.min(60_000, requestMs) };
  return { requestTimeout: requestMs, connectionTimeout: idleMs, http };
}

/**
 * Refuses a document whose shape is over the limits before Apollo Server validates it (see
 * gateway/graph/document-limits.ts): 400 in GraphQL's response shape, code QUERY_TOO_DEEP or
 * QUERY_TOO_COMPLEX. Runs after authentication, so an attempt costs the caller a request.
 */
function refuseOversizedDocuments(graph: Graph): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    const params = (request.method === 'GET' ? request.query : request.body) as { query?: unknown } | undefined;
    if (typeof params?.query !== 'string') return; // no document, or a batch: Apollo Server answers those
    const errors = graph.checkDocument(params.query);
    if (errors.length === 0) return;
    const accept = request.headers.accept ?? '';
    return reply
      .code(400)
      .type(accept.includes('application/graphql-response+json') ? 'application/graphql-response+json; charset=utf-8' : 'application/json; charset=utf-8')
      .send({ errors: errors.map((error) => ({ message: error.message, extensions: { code: error.extensions.code ?? 'GRAPHQL_VALIDATION_FAILED' } })) });
  };
}

/** Apollo Server on /graphql, each request in its organisation's scope (its own persisted queries). */
function graphqlHandler(graph: Graph): RouteHandlerMethod {
  const slots = new WeakMap<object, RawReplySlot>();
  const apollo = fastifyApolloHandler<GatewayContext>(graph.apollo, {
    context: async (request) => ({ principal: request.principal, requestId: request.id, rawReply: slots.get(request) }),
  });
  return async function handleGraphql(request, reply) {
    // A single-subgraph reply is written as the subgraph's bytes, not parsed and serialised again (gateway/graph/raw-reply.ts).
    const slot = new RawReplySlot();
    slots.set(request, slot);
    const body: unknown = await inOrganisationScope(request.principal?.org, () => apollo.call(this, request as Parameters<typeof apollo>[0], reply as Parameters<typeof apollo>[1]));
    return typeof body === 'string' ? slot.write(body) : body;
  };
}

type Authenticators = ReturnType<typeof authenticators>;

function authenticators(deps: AppDeps) {
  const authDeps = { keys: deps.keys, quotas: deps.quotas, log: deps.log, clock: deps.clock, pacer: deps.pacer ?? new BulkPacer() };
  return {
    apiKey: authenticate(authDeps, ['apiKey']),
    bearer: authenticate(authDeps, ['bearer']),
    either: authenticate(authDeps, ['apiKey', 'bearer']),
  };
}

/** The gateway's whole HTTP surface: the documented routes, GraphQL and its subscriptions, and the pages. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const auth = authenticators(deps);
  const app = await buildRestApp(deps, auth);
  app.route({
    url: '/graphql',
    method: ['GET', 'POST'],
    bodyLimit: GRAPHQL_BODY_LIMIT,
    // The caller is known before the body is read: a request without a valid key is refused without reading it (issue 33, finding 1).
    onRequest: auth.either,
    preHandler: refuseOversizedDocuments(deps.graph),
    handler: graphqlHandler(deps.graph),
  });
  // Subscriptions: graphql-ws on the upgrade requests of /graphql, served by the gateway (not federated).
  const progress = deps.batchProgress;
  if (progress) {
    const subscriptions = startSubscriptionServer({ server: app.server, source: progress, keys: deps.keys, quotas: deps.quotas, log: deps.log, clock: deps.clock, documentLimits: deps.graph.documentLimits, redisUrl: deps.redisUrl });
    app.addHook('preClose', async () => subscriptions.close());
  }
  registerLanding(app);
  await registerDashboard(app, { log: deps.log });
  return app;
}

/**
 * The app with the routes the OpenAPI document describes (REST and operations) and everything they
 * share (error shape, request ids, metrics, the document itself). Registering a route reads none of
 * `deps`, so `npm run schema` reads the document from this app built with deps it never uses.
 */
export async function buildRestApp(deps: AppDeps, auth: Authenticators = authenticators(deps)): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    ...serverTimeouts(deps.timeouts),
    clientErrorHandler, // 431 for oversized headers (and the parser's other refusals) in the catalogue's shape
    // URLs the router cannot take (a path parameter over 100 characters, bad encoding) get the
    // catalogue's error shape, not fastify's own.
    frameworkErrors: (error, request, reply) =>
      sendError(request, reply, new ApiError('INVALID_PARAMETER', `The URL cannot be read: ${error.message.slice(0, 120)}`)),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  app.setValidatorCompiler(documentedBodies());
  await registerOpenApi(app, API_VERSION); // before the routes: it collects them as they are added
  app.decorateRequest('principal', null);
  app.addHook('onSend', async (request, reply) => {
    reply.header('api-version', API_VERSION);
    reply.header('x-request-id', request.id);
  });
  app.setErrorHandler((error, request, reply) => sendError(request, reply, toApiError(error, deps.log, request.routeOptions.bodyLimit)));
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new ApiError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0].slice(0, 100)}`)));

  registerMetrics(app, deps.metrics);
  registerHomeRoutes(app, deps.graph, auth);
  registerLocationRoutes(app, deps.graph, auth);
  registerVehicleRoutes(app, deps.graph, auth);
  registerTokenRoute(app, auth.apiKey, deps.clock);
  registerBatchRoutes(app, deps.graph, auth);
  registerObservationRoutes(app, deps.graph, auth);
  // PDFs render on worker threads, started with the first report (none for `npm run schema`).
  const reports = { meter: new WorkMeter(deps.quotas, deps.log), renderer: renderPool() };
  app.addHook('onClose', () => reports.renderer.close());
  registerBacktestRoutes(app, deps.graph, auth, reports);
  registerValuationRoutes(app, deps.graph, auth);
  registerValuationReportRoute(app, deps.graph, auth, reports);
  registerMcpRoute(app, { graph: deps.graph, auth, log: deps.log, apiVersion: API_VERSION, allowedOrigins: deps.mcpAllowedOrigins ?? [] });
  app.get('/health', { schema: { tags: ['operations'], summary: 'Liveness', response: { 200: statusReply('ok') } } }, async () => ({ status: 'ok' }));
  const readiness = 'Readiness: 200 once the supergraph and models are loaded and Redis (if used) answers promptly, else 503';
  app.get('/ready', { schema: { tags: ['operations'], summary: readiness, response: { 200: statusReply('ready'), '5xx': errorResponseJsonSchema() } } }, async (request, reply) => {
    if (!deps.isReady()) return sendError(request, reply, new ApiError('SERVICE_UNAVAILABLE', 'Models or supergraph not loaded yet'));
    // Valuations would still be answered (quotas fail open), but uncounted and without batch jobs.
    if (deps.isRedisReachable?.() === false) return sendError(request, reply, new ApiError('SERVICE_UNAVAILABLE', 'Redis is unreachable or stalled'));
    return { status: 'ready' };
  });
  return app;
}
