/**
 * The valuations subgraph as a service (issue 19): the records of valuations given, for the
 * organisation that asked. The records are kept by the subgraph that valued them (residential:
 * homes, vehicle: vehicles); this one reads them through the graph and holds no state of its own.
 */
// The schema first: it loads reflect-metadata, which the type-graphql classes of ./types need loaded.
import { buildValuationsSchema } from './schema';
import { defineSubgraph } from '../common/subgraph-factory';
import { createValuationsContext } from './context';

export { buildValuationsSchema } from './schema';

/** The registry's entry. */
export const subgraph = defineSubgraph({
  name: 'valuations',
  buildSchema: buildValuationsSchema,
  calls: ['residential', 'vehicle'],
  compiled: true,
  async open({ peers }) {
    const valuing = { residential: peers.residential, vehicle: peers.vehicle };
    return { context: (caller) => createValuationsContext(caller, valuing) };
  },
});
