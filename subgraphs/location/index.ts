/** The location subgraph as a service: `subgraph` (the registry's entry) or `start(config, services)`. */
import { MAX_ADDRESS_LENGTH, MAX_POINTS_PER_CALL } from '../../schema/location-contract';
import type { SubgraphConfig } from '../../platform/config';
import { serveSubgraph, type RunningService } from '../../platform/serve';
import type { SubgraphModule } from '../../platform/subgraph-module';
import { createLocationContext, type LocationContext } from './context';
import { buildLocationSchema } from './schema';
import { loadLocationServices, type LocationServices } from './services';

export { buildLocationSchema } from './schema';
export { loadLocationServices, type LocationServices } from './services';

/**
 * A bulk `geocodes` of batch jobs' largest chunk: every address at its longest, in two-byte UTF-8
 * (Cyrillic), with the JSON around it. Only the batch subgraph sends such calls (the token is checked
 * before the body is read).
 */
export const LOCATION_BODY_LIMIT = MAX_POINTS_PER_CALL * (2 * MAX_ADDRESS_LENGTH + 16);

/**
 * Serves the location subgraph; the index, gazetteer and catalogue are loaded once, here (or passed
 * in).
 */
export async function start(config: SubgraphConfig, services: LocationServices = loadLocationServices()): Promise<RunningService> {
  const schema = await buildLocationSchema();
  return serveSubgraph<LocationContext>({
    name: 'location',
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    bodyLimit: LOCATION_BODY_LIMIT,
    // Fresh DataLoaders per request: their caches must not outlive it.
    context: () => createLocationContext(services),
  });
}

/** The registry's entry. */
export const subgraph: SubgraphModule = {
  buildSchema: buildLocationSchema,
  start: ({ config }) => start(config),
};
