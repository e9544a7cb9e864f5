/**
 * All-in-one mode: the residential and location subgraphs and the gateway in one process, the
 * subgraphs on loopback ports, joined by a fresh internal token. `npm start`, the tests and the
 * benchmarks all start the service through here.
 */
import { randomBytes } from 'node:crypto';
import { ResidentialModelService } from '../models/residential/serving';
import { start as startLocation } from '../subgraphs/location';
import { start as startResidential } from '../subgraphs/residential';
import type { RunningService } from '../subgraphs/common/serve';
import type { KeyStore } from './auth/key-store';
import { start as startGateway, type GatewayConfig, type RunningGateway } from './index';

export interface StackOptions {
  gateway: GatewayConfig;
  /** Port of the residential subgraph. @default 0 (any free loopback port) */
  residentialPort?: number;
  /** Port of the location subgraph. @default 0 (any free loopback port) */
  locationPort?: number;
  artifactsRoot?: string;
  keys?: KeyStore;
  log?: (message: string) => void;
}

export interface RunningStack {
  gateway: RunningGateway;
  residential: RunningService;
  location: RunningService;
  internalToken: string;
  /** The residential model version in service (changes when another version is promoted). */
  readonly modelVersion: string;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const runtime = await ResidentialModelService.start({ root: options.artifactsRoot, log: options.log });
  const internalToken = options.gateway.internalToken ?? randomBytes(24).toString('base64url');
  const residential = await startResidential({ host: '127.0.0.1', port: options.residentialPort ?? 0, internalToken, introspection: options.gateway.introspection }, runtime);
  const location = await startLocation({ host: '127.0.0.1', port: options.locationPort ?? 0, internalToken, introspection: options.gateway.introspection });
  const gateway = await startGateway(
    { ...options.gateway, internalToken, subgraphUrls: { residential: residential.url, location: location.url, ...options.gateway.subgraphUrls } },
    { keys: options.keys, log: options.log, localSubgraphs: { residential: residential.inProcess, location: location.inProcess } },
  );
  return {
    gateway,
    residential,
    location,
    internalToken,
    get modelVersion() {
      return runtime.version;
    },
    close: async () => {
      await gateway.close();
      await residential.close();
      await location.close();
      await runtime.close();
    },
  };
}
