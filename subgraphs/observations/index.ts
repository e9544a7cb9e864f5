/**
 * The observations subgraph as a service (issue 18): banks' observed prices. It checks each
 * observation and hands those of each kind to the subgraph that values that kind, which scores and
 * keeps them (residential: homes, vehicle: vehicles); it holds no state of its own.
 */
import type { SubgraphConfig } from '../../platform/config';
// The schema first: it loads reflect-metadata, which the type-graphql classes of ./types need loaded.
import { buildObservationsSchema } from './schema';
import { observationStoreConfigFromEnv } from '../common/observation-store';
import { serveSubgraph, type RunningService } from '../../platform/serve';
import type { RunningSubgraph, SubgraphModule } from '../../platform/subgraph-module';
import { createObservationsContext, type ObservationPeers, type ObservationsContext } from './context';

export { buildObservationsSchema } from './schema';

/** A call carries up to the largest plan's batch of observations (1,000,000 of a few hundred bytes each would not fit; such uploads come in parts). @default 64 MB */
const OBSERVATIONS_BODY_LIMIT = 64 * 1024 * 1024;

export async function start(config: SubgraphConfig, peers: ObservationPeers, settings: { clock?: () => number; retentionDays: number }): Promise<RunningService> {
  const schema = await buildObservationsSchema();
  return serveSubgraph<ObservationsContext>({
    name: 'observations',
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    bodyLimit: OBSERVATIONS_BODY_LIMIT,
    context: (headers) => createObservationsContext(headers, peers, { clock: settings.clock ?? Date.now, retentionDays: settings.retentionDays }),
  });
}

/** The registry's entry. Overrides: `clock` (the day observations are checked against). */
export const subgraph: SubgraphModule = {
  buildSchema: buildObservationsSchema,
  calls: ['residential', 'vehicle'],
  async start({ config, env, peers, overrides }): Promise<RunningSubgraph> {
    const { retentionDays } = observationStoreConfigFromEnv(env);
    return start(config, { residential: peers.residential, vehicle: peers.vehicle }, { clock: overrides.clock as (() => number) | undefined, retentionDays });
  },
};
