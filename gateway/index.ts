/** The gateway as a service: `start(config)`; ./main.ts runs it alone, ./all-in-one.ts with the subgraphs. */
import { KeyStore } from './auth/key-store';
import type { GatewayConfig } from './config';
import { startGraph } from './graph/apollo';
import { buildApp } from './http/app';
import type { BulkPacer } from './http/bulk-pacing';
import { startMetricsServer } from './ops/metrics';
import type { BatchProgressSource } from './subscriptions';
import { createQuotaStore, WorkMeter } from './quota';
import { listen } from '../platform/listen';
import type { InProcessSubgraph } from '../platform/serve';

export { gatewayConfigFromEnv, type GatewayConfig } from './config';

export interface RunningGateway {
  url: string;
  port: number;
  /** Where GET /metrics is served when METRICS_PORT is set. */
  metricsUrl?: string;
  keys: KeyStore;
  close(): Promise<void>;
}

export interface GatewayOptions {
  keys?: KeyStore;
  /** Subgraphs started in this process (all-in-one mode). */
  localSubgraphs?: Record<string, InProcessSubgraph>;
  /** Extra readiness condition (all-in-one mode: the models are loaded). */
  isReady?: () => boolean;
  /** Where batchProgress subscriptions read progress (the batch engine); without it the gateway serves none. */
  batchProgress?: BatchProgressSource;
  log?: (message: string) => void;
  /** The time bearer tokens are issued and checked at; tests inject one. @default Date.now */
  clock?: () => number;
  /** Paces uploads and exports behind interactive requests; tests inject one that records its pauses. @default a BulkPacer */
  pacer?: BulkPacer;
}

export async function start(config: GatewayConfig & { internalToken: string }, options: GatewayOptions = {}): Promise<RunningGateway> {
  const log = options.log ?? ((message: string) => console.error(`[gateway] ${message}`));
  const keys = options.keys ?? new KeyStore();
  const quotas = await createQuotaStore({ redisUrl: config.redisUrl, commandTimeoutMs: config.redisTimeoutMs, onRedisError: (e) => log(`redis: ${e.message}`) });
  const graph = await startGraph({
    subgraphUrls: config.subgraphUrls,
    localSubgraphs: config.subgraphTransport === 'local' ? options.localSubgraphs : undefined,
    internalToken: config.internalToken,
    introspection: config.introspection,
    documentLimits: { maxDepth: config.maxDepth },
    maxCost: config.maxCost,
    meter: new WorkMeter(quotas, log),
    log,
  });
  let graphReady = true;
  const app = await buildApp({
    graph,
    keys,
    quotas,
    log,
    batchProgress: options.batchProgress,
    clock: options.clock,
    pacer: options.pacer,
    redisUrl: config.redisUrl,
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    timeouts: { requestMs: config.requestTimeoutMs, idleMs: config.idleTimeoutMs },
    metrics: config,
    isReady: () => graphReady && (options.isReady?.() ?? true),
    // In Redis mode the quota store's client is probed (PING): down or stalled, the gateway is not ready.
    isRedisReachable: () => quotas.isReachable?.() ?? true,
  });
  const { port, url } = await listen(app, config.host, config.port);
  const metrics = config.metricsPort === undefined ? undefined : await startMetricsServer({ host: config.host, port: config.metricsPort, token: config.metricsToken });
  return {
    url,
    port,
    metricsUrl: metrics?.url,
    keys,
    close: async () => {
      graphReady = false;
      await metrics?.close();
      await app.close();
      await graph.stop();
      await quotas.close();
    },
  };
}
