/** The residential subgraph as a service: `subgraph` (the registry's entry) or `start(config, runtime)`. */
import { ResidentialModelService, type ResidentialRuntime } from '../../models/residential';
import type { SubgraphConfig } from '../common/config';
import { serveSubgraph, type RunningService } from '../common/serve';
import type { RunningSubgraph, SubgraphModule } from '../common/subgraph-module';
import { createResidentialContext, type ResidentialContext } from './context';
import { instrumentRuntime } from '../common/model-metrics';
import { buildResidentialSchema } from './schema';

export { buildResidentialSchema } from './schema';

export async function start(config: SubgraphConfig, runtime: ResidentialRuntime): Promise<RunningService> {
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

/**
 * The registry's entry. Overrides: `artifactsRoot` (the flat model's version store, default
 * models/artifacts/residential).
 */
export const subgraph: SubgraphModule = {
  buildSchema: buildResidentialSchema,
  async start({ config, overrides, log }): Promise<RunningSubgraph> {
    const runtime = await ResidentialModelService.start({ root: overrides.artifactsRoot as string | undefined, log });
    const service = await start(config, runtime);
    return {
      ...service,
      get modelVersion() {
        return runtime.version;
      },
      get summary() {
        return `model ${runtime.version}`;
      },
      close: async () => {
        await service.close();
        await runtime.close();
      },
    };
  },
};
