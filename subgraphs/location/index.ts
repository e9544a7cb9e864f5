/** The location subgraph as a service: `subgraph` (the registry's entry). */
import { MAX_ADDRESS_LENGTH, MAX_POINTS_PER_CALL } from '../../schema/location-contract';
import { defineSubgraph } from '../common/subgraph-factory';
import { createLocationContext } from './context';
import { buildLocationSchema } from './schema';
import { loadLocationServices } from './services';

export { buildLocationSchema } from './schema';
export { loadLocationServices, type LocationServices } from './services';

/**
 * A bulk `geocodes` of batch jobs' largest chunk: every address at its longest, in two-byte UTF-8
 * (Cyrillic), with the JSON around it. Only the batch subgraph sends such calls (the token is checked
 * before the body is read).
 */
export const LOCATION_BODY_LIMIT = MAX_POINTS_PER_CALL * (2 * MAX_ADDRESS_LENGTH + 16);

/** The registry's entry: the index, gazetteer and catalogue are loaded once, at start. */
export const subgraph = defineSubgraph({
  name: 'location',
  buildSchema: buildLocationSchema,
  bodyLimit: LOCATION_BODY_LIMIT,
  compiled: true,
  async open() {
    const services = loadLocationServices();
    // Fresh DataLoaders per request: their caches must not outlive it.
    return { context: () => createLocationContext(services) };
  },
});
