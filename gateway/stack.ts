/**
 * All-in-one mode: the residential, location and vehicle subgraphs and the gateway in one process,
 * the subgraphs on loopback ports, joined by a fresh internal token. `npm start`, the tests and the
 * benchmarks all start the service through here.
 */
import { randomBytes } from 'node:crypto';
import { ResidentialModelService } from '../models/residential/serving';
import { loadLocationServices, start as startLocation } from '../subgraphs/location';
import { createBatchEngine, type BatchEngine } from '../subgraphs/location/batch/engine';
import { startLocationBatch, type LocationBatch } from '../subgraphs/location/batch/service';
import { start as startResidential } from '../subgraphs/residential';
import { loadVehicleModel, start as startVehicle } from '../subgraphs/vehicle';
import type { RunningService } from '../subgraphs/common/serve';
import type { KeyStore } from './auth/key-store';
import { openWebhookSecretSource } from './auth/webhook-secrets';
import { batchConfigFromEnv, batchEngineSettings, locationBatchSettings } from './config';
import { start as startGateway, type GatewayConfig, type RunningGateway } from './index';

export interface StackOptions {
  gateway: GatewayConfig;
  /** Port of the residential subgraph. @default 0 (any free loopback port) */
  residentialPort?: number;
  /** Port of the location subgraph. @default 0 (any free loopback port) */
  locationPort?: number;
  /** Port of the vehicle subgraph. @default 0 (any free loopback port) */
  vehiclePort?: number;
  /** Residential artifacts (versions and CURRENT). @default models/artifacts/residential */
  artifactsRoot?: string;
  /** Vehicle artifacts (versions and CURRENT). @default models/artifacts/vehicle */
  vehicleArtifactsRoot?: string;
  keys?: KeyStore;
  /** The time bearer tokens are issued and checked at; tests inject one. @default Date.now */
  clock?: () => number;
  /** Per-organisation webhook secrets. @default in Redis with a Redis URL, else under VALUATION_HOME (openWebhookSecretSource) */
  webhookSecrets?: { secretFor(organisation: string): Promise<string> };
  log?: (message: string) => void;
}

export interface RunningStack {
  gateway: RunningGateway;
  residential: RunningService;
  location: RunningService;
  vehicle: RunningService;
  /** The batch job engine the location subgraph and the in-process workers share. */
  batchEngine: BatchEngine;
  internalToken: string;
  /** The residential model version in service (changes when another version is promoted). */
  readonly modelVersion: string;
  /** The vehicle model version in service; null when none is promoted (vehicle queries answer SERVICE_UNAVAILABLE). */
  readonly vehicleModelVersion: string | null;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? ((message: string) => console.error(`[stack] ${message}`));
  const runtime = await ResidentialModelService.start({ root: options.artifactsRoot, log: options.log });
  const vehicleRuntime = await loadVehicleModel(options.vehicleArtifactsRoot, options.log);
  if (!vehicleRuntime) log('no vehicle model is promoted: vehicle valuations answer SERVICE_UNAVAILABLE until one is');
  const internalToken = options.gateway.internalToken ?? randomBytes(24).toString('base64url');
  const subgraph = (port: number | undefined) => ({ host: '127.0.0.1', port: port ?? 0, internalToken, introspection: options.gateway.introspection });
  const residential = await startResidential(subgraph(options.residentialPort), runtime);
  const batchConfig = options.gateway.batch ?? batchConfigFromEnv();
  // '' rather than undefined: the configuration decides, not a REDIS_URL the process happens to have.
  const batchEngine = await createBatchEngine({ redisUrl: options.gateway.redisUrl ?? '', ...batchEngineSettings(batchConfig), log: (m) => log(`batch: ${m}`) });
  const locationServices = loadLocationServices();
  const ownSecrets = options.webhookSecrets ? undefined : await openWebhookSecretSource({ redisUrl: options.gateway.redisUrl, keyPrefix: batchConfig.keyPrefix, timeoutMs: options.gateway.redisTimeoutMs, log: (m) => log(`batch: ${m}`) });
  let batch: LocationBatch;
  try {
    batch = await startLocationBatch({
      ...locationBatchSettings(batchConfig),
      engine: batchEngine,
      services: locationServices,
      secrets: options.webhookSecrets ?? ownSecrets!,
      residentialUrl: residential.url,
      internalToken,
      log: (m) => log(`batch: ${m}`),
    });
  } catch (error) {
    await batchEngine.close();
    await ownSecrets?.close();
    throw error;
  }
  const location = await startLocation(subgraph(options.locationPort), locationServices, batch.api);
  const vehicle = await startVehicle(subgraph(options.vehiclePort), vehicleRuntime);
  const services = { residential, location, vehicle };
  const gateway = await startGateway(
    {
      ...options.gateway,
      internalToken,
      subgraphUrls: { ...Object.fromEntries(Object.entries(services).map(([name, s]) => [name, s.url])), ...options.gateway.subgraphUrls },
    },
    { keys: options.keys, log: options.log, clock: options.clock, batchProgress: batchEngine, localSubgraphs: Object.fromEntries(Object.entries(services).map(([name, s]) => [name, s.inProcess])) },
  );
  return {
    gateway,
    ...services,
    batchEngine,
    internalToken,
    get modelVersion() {
      return runtime.version;
    },
    vehicleModelVersion: vehicleRuntime?.version ?? null,
    close: async () => {
      await gateway.close();
      await batch.close();
      await batchEngine.close();
      await ownSecrets?.close();
      for (const service of Object.values(services)) await service.close();
      await runtime.close();
      await vehicleRuntime?.close();
    },
  };
}
