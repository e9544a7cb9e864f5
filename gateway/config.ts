/** Gateway configuration from the environment; every variable has a documented default. */
import { SUBGRAPHS, urlVariable } from '../subgraphs/registry';

export interface GatewayConfig {
  /** HOST @default '127.0.0.1' (set 0.0.0.0 in a container) */
  host: string;
  /** PORT @default 4000 (0 picks a free port) */
  port: number;
  /** METRICS_PORT: GET /metrics on a listener of its own on HOST (for Prometheus), and not on PORT @default unset (0 picks a free port) */
  metricsPort?: number;
  /**
   * METRICS_TOKEN: GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`; without METRICS_PORT
   * it is then served on PORT. @default unset (with neither variable, /metrics is served nowhere: 404)
   */
  metricsToken?: string;
  /** DATABASE_URL: valuation records and observed prices in this PostgreSQL (e.g. postgres://valuation@db:5432/valuation), shared by replicas; unset = on Redis with REDIS_URL, else in files under VALUATION_HOME */
  databaseUrl?: string;
  /** REDIS_URL: quotas shared across replicas; unset = in-process counters */
  redisUrl?: string;
  /**
   * REDIS_TIMEOUT_MS: the longest a request waits on a Redis quota check (then it goes on uncounted)
   * or on an organisation's webhook secret (then SERVICE_UNAVAILABLE); a health PING unanswered this
   * long makes /ready answer 503 until Redis answers again @default 250
   */
  redisTimeoutMs?: number;
  /** INTERNAL_TOKEN: shared secret for calling subgraphs (all-in-one mode generates one) */
  internalToken?: string;
  /** <NAME>_URL for each subgraph of subgraphs/registry.ts, e.g. RESIDENTIAL_URL=http://10.0.0.5:4001/graphql @default the loopback ports of all-in-one mode */
  subgraphUrls: Record<string, string>;
  /** SUBGRAPH_TRANSPORT: in all-in-one mode, 'local' executes co-located subgraphs in process, 'http' calls them over loopback @default 'local' */
  subgraphTransport: 'local' | 'http';
  /** INTROSPECTION @default true (bank dashboards build their queries from it); 'false' turns it off */
  introspection: boolean;
  /** MAX_QUERY_DEPTH @default 12 */
  maxDepth: number;
  /** MAX_QUERY_COST @default 20000 (a bulk item costs 1: 10,000 location points or 1,000 homes fit) */
  maxCost: number;
  /**
   * MCP_ALLOWED_ORIGINS (comma-separated, e.g. https://agents.bank.uz) and PUBLIC_URL's origin: the
   * web origins whose pages may call /mcp. Requests without an Origin header (desktop and server
   * agents) are unaffected. @default [] (only pages served from the gateway's own loopback address)
   */
  mcpAllowedOrigins: string[];
  /**
   * REQUEST_TIMEOUT_MS: the longest a request may take to arrive whole (body included), then 408
   * REQUEST_TIMEOUT and the connection is closed. It bounds a body sent a byte at a time; it must let
   * the largest upload in (a 1,000,000-row observations file is about 150 MB and 4 minutes of
   * scoring as it streams in) @default 600000 (10 minutes)
   */
  requestTimeoutMs: number;
  /**
   * IDLE_TIMEOUT_MS: a connection with a request under way that sends and receives nothing this long
   * is closed (a stalled upload, a client gone silent). Between requests, the keep-alive timeout
   * (72 s) applies instead @default 60000
   */
  idleTimeoutMs: number;
}

export function gatewayConfigFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const subgraphUrls: Record<string, string> = {};
  for (const { name } of SUBGRAPHS) {
    const url = env[urlVariable(name)];
    if (url) subgraphUrls[name] = url;
  }
  return {
    host: env.HOST ?? '127.0.0.1',
    port: env.PORT ? Number(env.PORT) : 4000,
    metricsPort: env.METRICS_PORT ? Number(env.METRICS_PORT) : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    ...(env.REDIS_TIMEOUT_MS && { redisTimeoutMs: Number(env.REDIS_TIMEOUT_MS) }),
    internalToken: env.INTERNAL_TOKEN || undefined,
    subgraphUrls,
    subgraphTransport: env.SUBGRAPH_TRANSPORT === 'http' ? 'http' : 'local',
    introspection: env.INTROSPECTION !== 'false',
    maxDepth: env.MAX_QUERY_DEPTH ? Number(env.MAX_QUERY_DEPTH) : 12,
    maxCost: env.MAX_QUERY_COST ? Number(env.MAX_QUERY_COST) : 20_000,
    mcpAllowedOrigins: [
      ...(env.MCP_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter((o) => o !== ''),
      ...(env.PUBLIC_URL ? [new URL(env.PUBLIC_URL).origin] : []),
    ],
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS ? Number(env.REQUEST_TIMEOUT_MS) : 600_000,
    idleTimeoutMs: env.IDLE_TIMEOUT_MS ? Number(env.IDLE_TIMEOUT_MS) : 60_000,
  };
}
