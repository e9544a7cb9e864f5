/** Gateway configuration from the environment; every variable has a documented default. */
import { getPlan } from './quota/plans';

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
  /** <NAME>_URL (SUBGRAPH_URL_VARIABLES), e.g. RESIDENTIAL_URL=http://10.0.0.5:4001/graphql @default the loopback ports of all-in-one mode */
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
  /** Batch jobs (the location subgraph's engine; on Redis when redisUrl is set, else in process). @default batchConfigFromEnv() */
  batch?: BatchConfig;
}

export interface BatchConfig {
  /** BATCH_WORKERS: chunk workers in the all-in-one process; 0 leaves chunks to `npm run worker` processes (needs REDIS_URL) @default 1 */
  workers: number;
  /** BATCH_WORKER_CONCURRENCY: chunks each in-process worker runs at once @default 2 */
  workerConcurrency: number;
  /** BATCH_KEY_PREFIX: prefix of the engine's Redis keys, the same in API and worker processes @default 'batch:' */
  keyPrefix: string;
  /** BATCH_CALLBACK_ALLOW_PRIVATE=1: webhooks may go to loopback and private addresses (internal deployments, tests) @default false */
  callbackAllowPrivate: boolean;
  /** PUBLIC_URL: prefixed to the webhook's results_url @default '' (a path) */
  publicBaseUrl: string;
  /**
   * The completion webhooks' schedule, where the environment sets it: BATCH_WEBHOOK_BASE_DELAY_MS (the
   * bound of the first wait between attempts, doubling after; default 60000) and BATCH_WEBHOOK_TIMEOUT_MS
   * (one attempt, connect to response headers; default 10000). @default DEFAULT_RETRY
   */
  webhookRetry: { baseDelayMs?: number; timeoutMs?: number };
  /** BATCH_RETENTION_MS: how long a job and its results stay readable after it ends (worker processes must have the same) @default 604800000 (7 days) */
  retentionMs?: number;
  /** BATCH_LOCK_DURATION_MS / BATCH_STALLED_INTERVAL_MS: how soon the chunks of a worker that died go to another (Redis) @default 30000 each (BullMQ's) */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** BATCH_STORAGE_TIMEOUT_MS: the longest one Redis call made for a batch request may take (then SERVICE_UNAVAILABLE) @default 500 */
  storageTimeoutMs?: number;
  /** BATCH_SUBMISSION_TIMEOUT_MS: a job receiving no items for this long had its submission cut off and is failed @default 300000 (5 minutes) */
  submissionTimeoutMs?: number;
}

/** Each subgraph of the supergraph, the variable holding its URL when it runs apart, and the port it listens on alone by default. */
export const SUBGRAPH_URL_VARIABLES = {
  residential: { variable: 'RESIDENTIAL_URL', port: 4001 },
  location: { variable: 'LOCATION_URL', port: 4002 },
  vehicle: { variable: 'VEHICLE_URL', port: 4003 },
} as const;

export function gatewayConfigFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const subgraphUrls: Record<string, string> = {};
  for (const [name, { variable }] of Object.entries(SUBGRAPH_URL_VARIABLES)) {
    const url = env[variable];
    if (url) subgraphUrls[name] = url;
  }
  return {
    host: env.HOST ?? '127.0.0.1',
    port: env.PORT ? Number(env.PORT) : 4000,
    metricsPort: env.METRICS_PORT ? Number(env.METRICS_PORT) : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    redisUrl: env.REDIS_URL || undefined,
    ...(env.REDIS_TIMEOUT_MS && { redisTimeoutMs: Number(env.REDIS_TIMEOUT_MS) }),
    internalToken: env.INTERNAL_TOKEN || undefined,
    subgraphUrls,
    subgraphTransport: env.SUBGRAPH_TRANSPORT === 'http' ? 'http' : 'local',
    introspection: env.INTROSPECTION !== 'false',
    maxDepth: env.MAX_QUERY_DEPTH ? Number(env.MAX_QUERY_DEPTH) : 12,
    maxCost: env.MAX_QUERY_COST ? Number(env.MAX_QUERY_COST) : 20_000,
    batch: batchConfigFromEnv(env),
    mcpAllowedOrigins: [
      ...(env.MCP_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter((o) => o !== ''),
      ...(env.PUBLIC_URL ? [new URL(env.PUBLIC_URL).origin] : []),
    ],
  };
}

export function batchConfigFromEnv(env: NodeJS.ProcessEnv = process.env): BatchConfig {
  return {
    workers: env.BATCH_WORKERS ? Number(env.BATCH_WORKERS) : 1,
    workerConcurrency: env.BATCH_WORKER_CONCURRENCY ? Number(env.BATCH_WORKER_CONCURRENCY) : 2,
    keyPrefix: env.BATCH_KEY_PREFIX || 'batch:',
    callbackAllowPrivate: env.BATCH_CALLBACK_ALLOW_PRIVATE === '1' || env.BATCH_CALLBACK_ALLOW_PRIVATE === 'true',
    publicBaseUrl: env.PUBLIC_URL ?? '',
    webhookRetry: {
      ...(env.BATCH_WEBHOOK_BASE_DELAY_MS && { baseDelayMs: Number(env.BATCH_WEBHOOK_BASE_DELAY_MS) }),
      ...(env.BATCH_WEBHOOK_TIMEOUT_MS && { timeoutMs: Number(env.BATCH_WEBHOOK_TIMEOUT_MS) }),
    },
    ...(env.BATCH_SUBMISSION_TIMEOUT_MS && { submissionTimeoutMs: Number(env.BATCH_SUBMISSION_TIMEOUT_MS) }),
    ...(env.BATCH_RETENTION_MS && { retentionMs: Number(env.BATCH_RETENTION_MS) }),
    ...(env.BATCH_LOCK_DURATION_MS && { lockDurationMs: Number(env.BATCH_LOCK_DURATION_MS) }),
    ...(env.BATCH_STALLED_INTERVAL_MS && { stalledIntervalMs: Number(env.BATCH_STALLED_INTERVAL_MS) }),
    ...(env.BATCH_STORAGE_TIMEOUT_MS && { storageTimeoutMs: Number(env.BATCH_STORAGE_TIMEOUT_MS) }),
  };
}

/** The batch engine's settings, the same in every API and worker process sharing a Redis. */
export function batchEngineSettings(batch: BatchConfig) {
  return { keyPrefix: batch.keyPrefix, retentionMs: batch.retentionMs, lockDurationMs: batch.lockDurationMs, stalledIntervalMs: batch.stalledIntervalMs, storageTimeoutMs: batch.storageTimeoutMs };
}

/** What the location subgraph's batch service takes from the configuration (startLocationBatch). */
export function locationBatchSettings(batch: BatchConfig) {
  return {
    maxBatchItems: (plan: string) => getPlan(plan).maxBatchItems,
    callbackPolicy: { allowPrivateNetworks: batch.callbackAllowPrivate },
    workers: batch.workers,
    workerConcurrency: batch.workerConcurrency,
    publicBaseUrl: batch.publicBaseUrl,
    webhookRetry: batch.webhookRetry,
    submissionTimeoutMs: batch.submissionTimeoutMs,
  };
}
