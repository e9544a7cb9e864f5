/** The location subgraph as a service: `start(config)` (all-in-one mode and ./main.ts use it). */
import { subgraphConfigFromEnv, type SubgraphConfig } from '../common/config';
import { serveSubgraph, type RunningService } from '../common/serve';
import { MAX_BATCH_BODY_BYTES } from '../../schema/batch-contract';
import type { LocationBatchApi } from './batch/api';
import { createLocationContext, principalFromHeaders, type LocationContext } from './context';
import { buildLocationSchema } from './schema';
import { loadLocationServices, type LocationServices } from './services';

export { buildLocationSchema } from './schema';
export { loadLocationServices, type LocationServices } from './services';

/** Location subgraph settings: see SubgraphConfig; LOCATION_PORT defaults to 4002. */
export type LocationConfig = SubgraphConfig;

export function locationConfigFromEnv(env: NodeJS.ProcessEnv = process.env) {
  return subgraphConfigFromEnv('location', 4002, env);
}

/**
 * A batch upload reaches this subgraph as submitBatch's variables: the gateway's 20 MB CSV limit,
 * rewritten as JSON objects with field names on every item, grows: about 2.5× for real rows, up to
 * about 7.5× for one-letter addresses with four numeric columns. Only the gateway can send it (the token is checked
 * before the body is read). @default 8 × MAX_BATCH_BODY_BYTES
 */
export const LOCATION_BODY_LIMIT = 8 * MAX_BATCH_BODY_BYTES;

/**
 * Serves the location subgraph; the index, gazetteer and catalogue are loaded once, here (or passed
 * in). `batch`: the batch job operations' engine and limits; without it they answer SERVICE_UNAVAILABLE.
 */
export async function start(config: LocationConfig, services: LocationServices = loadLocationServices(), batch?: LocationBatchApi): Promise<RunningService> {
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
    context: (headers) => createLocationContext(services, principalFromHeaders(headers), batch),
  });
}
