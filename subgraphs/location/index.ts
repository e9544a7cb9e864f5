/** The location subgraph as a service: `start(config)` (all-in-one mode and ./main.ts use it). */
import { serveSubgraph, type RunningService } from '../common/serve';
import { createLocationContext, type LocationContext } from './context';
import { buildLocationSchema } from './schema';
import { loadLocationServices, type LocationServices } from './services';

export { buildLocationSchema } from './schema';
export { loadLocationServices, type LocationServices } from './services';

export interface LocationConfig {
  /** @default '127.0.0.1' */
  host: string;
  /** @default 4002 (0 picks a free port) */
  port: number;
  /** Shared secret the gateway sends; requests without it get 401. */
  internalToken: string;
  /** @default false */
  introspection: boolean;
}

export function locationConfigFromEnv(env: NodeJS.ProcessEnv = process.env): Omit<LocationConfig, 'internalToken'> & { internalToken?: string } {
  return {
    host: env.LOCATION_HOST ?? '127.0.0.1',
    port: env.LOCATION_PORT ? Number(env.LOCATION_PORT) : 4002,
    internalToken: env.INTERNAL_TOKEN,
    introspection: env.INTROSPECTION === 'true',
  };
}

/** Serves the location subgraph; the index, gazetteer and catalogue are loaded once, here (or passed in). */
export async function start(config: LocationConfig, services: LocationServices = loadLocationServices()): Promise<RunningService> {
  const schema = await buildLocationSchema();
  return serveSubgraph<LocationContext>({
    name: 'location',
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    // Fresh DataLoaders per request: their caches must not outlive it.
    context: () => createLocationContext(services),
  });
}
