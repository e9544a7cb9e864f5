/**
 * Serves one subgraph schema over HTTP: fastify + Apollo Server, reachable only with the
 * gateway's internal token. GET /metrics serves the process's Prometheus registry behind the same
 * token, also taken as `Authorization: Bearer <INTERNAL_TOKEN>` there (Prometheus sends bearer
 * tokens): a subgraph run alone has its model and observation metrics in no gateway's registry.
 * Tuned for being called by the gateway on every request:
 * no inline tracing, no per-field cache-control bookkeeping (valuations are never cached),
 * no landing page; parsed and validated documents are cached by Apollo.
 */
import { timingSafeEqual } from 'node:crypto';
import { ApolloServer, type BaseContext } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { CompiledQueries, type Execution } from './compiled-executor';
import { FastLane } from './fast-lane';
import { callerOfHeaders, INTERNAL_TOKEN_HEADER, type SubgraphCaller } from './graphql-over-http';
import { listen } from './listen';
import { bearerMatches, collectProcessMetrics, sendMetrics } from './process-metrics';

const METRICS_PATH = '/metrics';

export interface SubgraphServerOptions<TContext extends BaseContext> {
  name: string;
  schema: GraphQLSchema;
  host: string;
  port: number;
  internalToken: string;
  /** Builds the per-request context for its caller: over HTTP as the gateway's headers say it, in process as the gateway gives it. */
  context(caller: SubgraphCaller): TContext;
  introspection?: boolean;
  /** Queries run compiled by graphql-jit (compiled-executor.ts) rather than by graphql-js, and over HTTP a query Apollo Server accepted once skips it (fast-lane.ts). */
  compiled?: boolean;
  /** The largest request body the gateway may send. @default DEFAULT_SUBGRAPH_BODY_LIMIT */
  bodyLimit?: number;
}

/** Bulk valuations of 1,000 inputs fit with room to spare. @default 4 MB */
export const DEFAULT_SUBGRAPH_BODY_LIMIT = 4 * 1024 * 1024;

/** What a subgraph offers to a gateway in the same process: its schema and its request context. */
export interface InProcessSubgraph {
  schema: GraphQLSchema;
  /** Who an in-process call is for, given as values rather than the headers an HTTP call carries. */
  context(caller: SubgraphCaller): object;
  /** How its operations run, when not by graphql-js's `execute`. */
  execute?: Execution;
}

export interface RunningService {
  name: string;
  url: string;
  port: number;
  inProcess: InProcessSubgraph;
  close(): Promise<void>;
}

export async function serveSubgraph<TContext extends BaseContext>(options: SubgraphServerOptions<TContext>): Promise<RunningService> {
  const app = Fastify({ logger: false, bodyLimit: options.bodyLimit ?? DEFAULT_SUBGRAPH_BODY_LIMIT });
  const queries = options.compiled ? new CompiledQueries(options.schema) : null;
  // Queries Apollo Server accepted once are run again without it (./fast-lane.ts).
  const lane = queries && new FastLane(queries);
  const apollo = new ApolloServer<TContext>({
    ...(lane ? { gateway: lane.gateway() } : { schema: options.schema }),
    introspection: options.introspection ?? false,
    includeStacktraceInErrorResponses: false,
    // The process's entry point owns SIGINT/SIGTERM (gateway/graph/apollo.ts says why).
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginCacheControlDisabled(), ApolloServerPluginLandingPageDisabled(), fastifyApolloDrainPlugin(app)],
  });
  await apollo.start();

  const expected = Buffer.from(options.internalToken);
  const matches = (token: string) => {
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/health') return;
    if (matches(String(request.headers[INTERNAL_TOKEN_HEADER] ?? ''))) return;
    if (request.routeOptions.url === METRICS_PATH) {
      if (bearerMatches(request.headers.authorization, options.internalToken)) return;
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.code(401).send({ error: { code: 'INVALID_TOKEN', message: `send Authorization: Bearer <INTERNAL_TOKEN> to read ${METRICS_PATH}` } });
    }
    return reply.code(401).send({ error: { code: 'INVALID_TOKEN', message: 'subgraphs accept requests from the gateway only' } });
  });
  app.get('/health', async () => ({ status: 'ok', service: options.name }));
  collectProcessMetrics();
  app.get(METRICS_PATH, async (_request, reply) => sendMetrics(reply));
  // A request the fast lane looked at keeps the context it was given, for Apollo Server to run or answer with.
  const contexts = new WeakMap<object, TContext>();
  const apolloHandler = fastifyApolloHandler(apollo, { context: async (request) => contexts.get(request) ?? options.context(callerOfHeaders(request.headers)) });
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async function handleGraphql(request, reply) {
      const laneRequest = lane && FastLane.requestOf(request.method, request.headers, request.body);
      // A context that cannot be built is Apollo Server's to report (it builds it again and says why).
      const context = laneRequest ? contextOrNull(options.context, callerOfHeaders(request.headers)) : null;
      if (laneRequest && context) {
        const outcome = await lane!.run(laneRequest, context);
        if (outcome.answered !== null) return reply.type(outcome.contentType).send(outcome.answered);
        contexts.set(request, context);
      }
      return apolloHandler.call(this, request as Parameters<typeof apolloHandler>[0], reply as Parameters<typeof apolloHandler>[1]);
    },
  });

  const { port, url } = await listen(app, options.host, options.port, `${options.name.toUpperCase()}_PORT`);
  return {
    name: options.name,
    url: `${url}/graphql`,
    port,
    // In process the caller arrives as values, and is given as it is: no headers written and read back.
    inProcess: { schema: options.schema, context: options.context, ...(queries && { execute: queries.execute }) },
    close: async () => {
      if (app.server.listening) await app.close();
    },
  };
}

function contextOrNull<TContext>(build: (caller: SubgraphCaller) => TContext, caller: SubgraphCaller): TContext | null {
  try {
    return build(caller);
  } catch {
    return null;
  }
}
