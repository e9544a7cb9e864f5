/**
 * The valuations subgraph as a service (issue 19): the records of valuations given, for the
 * organisation that asked. The records are kept by the subgraph that valued them (residential:
 * homes, vehicle: vehicles); this one reads them through the graph and holds no state of its own.
 */
import type { SubgraphConfig } from '../../platform/config';
// The schema first: it loads reflect-metadata, which the type-graphql classes of ./types need loaded.
import { buildValuationsSchema } from './schema';
import { serveSubgraph, type RunningService } from '../../platform/serve';
import type { RunningSubgraph, SubgraphModule } from '../../platform/subgraph-module';
import { createValuationsContext, type ValuationPeers, type ValuationsContext } from './context';

export { buildValuationsSchema } from './schema';

export async function start(config: SubgraphConfig, peers: ValuationPeers): Promise<RunningService> {
  const schema = await buildValuationsSchema();
  return serveSubgraph<ValuationsContext>({
    name: 'valuations',
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    context: (headers) => createValuationsContext(headers, peers),
  });
}

/** The registry's entry. */
export const subgraph: SubgraphModule = {
  buildSchema: buildValuationsSchema,
  calls: ['residential', 'vehicle'],
  async start({ config, peers }): Promise<RunningSubgraph> {
    return start(config, { residential: peers.residential, vehicle: peers.vehicle });
  },
};
