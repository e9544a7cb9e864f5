/** The residential subgraph as a service: `start(config)` (all-in-one mode and ./main.ts use it). */
import type { ResidentialRuntime } from '../../models/residential/valuation';
import { subgraphConfigFromEnv, type SubgraphConfig } from '../common/config';
import { serveSubgraph, type RunningService } from '../common/serve';
import { createResidentialContext, type ResidentialContext } from './context';
import { instrumentRuntime } from '../common/model-metrics';
import { buildResidentialSchema } from './schema';

export { buildResidentialSchema } from './schema';

/** Residential subgraph settings: see SubgraphConfig; RESIDENTIAL_PORT defaults to 4001. */
export type ResidentialConfig = SubgraphConfig;

export function residentialConfigFromEnv(env: NodeJS.ProcessEnv = process.env) {
  return subgraphConfigFromEnv('residential', 4001, env);
}

export async function start(config: ResidentialConfig, runtime: ResidentialRuntime): Promise<RunningService> {
  const schema = await buildResidentialSchema();
  const instrumented = instrumentRuntime('residential', runtime);
  return serveSubgraph<ResidentialContext>({
    name: 'residential',
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    // Fresh DataLoaders and model snapshot per request: they must not outlive it.
    context: () => createResidentialContext(instrumented),
  });
}
