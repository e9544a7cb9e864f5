/**
 * All-in-one mode: every subgraph of the registry (subgraphs/registry.ts) and the gateway in one
 * process, the subgraphs on loopback ports, joined by a fresh internal token; a subgraph that calls
 * another does so through the graph, in process. `npm start`, the tests and the benchmarks all
 * start the service through here.
 */
import { randomBytes } from 'node:crypto';
import type { RunningBatchSubgraph } from '../subgraphs/batch';
import { httpGraphClient, inProcessGraphClient } from '../platform/graph-client';
import type { RunningSubgraph } from '../platform/subgraph-module';
import { SUBGRAPHS, type SubgraphName } from '../subgraphs/registry';
import type { KeyStore } from './auth/key-store';
import type { BulkPacer } from './http/bulk-pacing';
import { start as startGateway, type GatewayConfig, type RunningGateway } from './index';

export interface StackOptions {
  gateway: GatewayConfig;
  /** Each subgraph's port. @default 0 for each (any free loopback port) */
  ports?: Partial<Record<SubgraphName, number>>;
  /** Where the subgraphs read their own settings (BATCH_*, …). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** What a test or a bench hands a subgraph, by name: see each subgraph's `subgraph` entry (e.g. residential and vehicle `artifactsRoot`). */
  overrides?: Partial<Record<SubgraphName, Record<string, unknown>>>;
  keys?: KeyStore;
  /** The time bearer tokens are issued and checked at; tests inject one. @default Date.now */
  clock?: () => number;
  /** Paces uploads and exports behind interactive requests (gateway/http/bulk-pacing.ts). @default a BulkPacer */
  pacer?: BulkPacer;
  log?: (message: string) => void;
}

export type RunningStack = Record<Exclude<SubgraphName, 'batch'>, RunningSubgraph> & {
  batch: RunningBatchSubgraph;
  gateway: RunningGateway;
  subgraphs: readonly RunningSubgraph[];
  internalToken: string;
  /** The residential model version in service (changes when another version is promoted). */
  readonly modelVersion: string;
  /** The vehicle model version in service; null when none is promoted (vehicle queries answer SERVICE_UNAVAILABLE). */
  readonly vehicleModelVersion: string | null;
  close(): Promise<void>;
};

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? ((message: string) => console.error(`[stack] ${message}`));
  const config = options.gateway;
  const internalToken = config.internalToken ?? randomBytes(24).toString('base64url');
  const started = new Map<string, RunningSubgraph>();
  const closeStarted = async () => {
    for (const service of [...started.values()].reverse()) await service.close();
  };
  try {
    for (const entry of SUBGRAPHS) {
      const subgraph = await entry.load();
      const peers = Object.fromEntries(
        (subgraph.calls ?? []).map((name) => {
          const peer = started.get(name);
          if (!peer) throw new Error(`${entry.name} calls ${name}, which the registry starts after it`);
          return [name, config.subgraphTransport === 'http' ? httpGraphClient({ url: peer.url, internalToken }) : inProcessGraphClient(peer.inProcess)];
        }),
      );
      started.set(
        entry.name,
        await subgraph.start({
          config: { host: '127.0.0.1', port: options.ports?.[entry.name] ?? 0, internalToken, introspection: config.introspection },
          env: options.env ?? process.env,
          mode: 'all-in-one',
          // '' rather than undefined: the configuration decides, not a REDIS_URL the process happens to have.
          redisUrl: config.redisUrl ?? '',
          databaseUrl: config.databaseUrl ?? '',
          redisTimeoutMs: config.redisTimeoutMs,
          peers,
          overrides: options.overrides?.[entry.name] ?? {},
          log: (message) => log(`${entry.name}: ${message}`),
        }),
      );
    }
  } catch (error) {
    await closeStarted();
    throw error;
  }
  const services = Object.fromEntries(started) as Record<SubgraphName, RunningSubgraph>;
  const batch = services.batch as RunningBatchSubgraph;
  let gateway: RunningGateway;
  try {
    gateway = await startGateway(
      { ...config, internalToken, subgraphUrls: { ...Object.fromEntries([...started].map(([name, s]) => [name, s.url])), ...config.subgraphUrls } },
      { keys: options.keys, log: options.log, clock: options.clock, pacer: options.pacer, batchProgress: batch.engine, localSubgraphs: Object.fromEntries([...started].map(([name, s]) => [name, s.inProcess])) },
    );
  } catch (error) {
    await closeStarted();
    throw error;
  }
  return {
    ...services,
    batch,
    gateway,
    subgraphs: [...started.values()],
    internalToken,
    get modelVersion() {
      return services.residential.modelVersion!;
    },
    get vehicleModelVersion() {
      return services.vehicle.modelVersion ?? null;
    },
    close: async () => {
      await gateway.close();
      await closeStarted();
    },
  };
}
