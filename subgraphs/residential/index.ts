/** The residential subgraph as a service: `subgraph` (the registry's entry) or `start(config, runtime)`. */
import { HOME_HIERARCHY } from '../../models/observations';
import { ResidentialModelService, type ResidentialRuntime } from '../../models/residential';
import type { SubgraphConfig } from '../../platform/config';
import { openObservationBook, type ObservationBook } from '../common/observation-book';
import { openValuationRecorder, ValuationRecorder } from '../common/valuation-recorder';
import { MemoryRecordStore } from '../common/valuation-records';
import { serveSubgraph, type RunningService } from '../../platform/serve';
import type { RunningSubgraph, SubgraphModule } from '../../platform/subgraph-module';
import { createResidentialContext, type ResidentialContext } from './context';
import { instrumentRuntime } from '../common/model-metrics';
import { buildResidentialSchema } from './schema';
import { CollectedWeeklyIndex } from '../../platform/collect/collected-exports';
import { collectConfigFromEnv } from '../../platform/collect/config';

export { buildResidentialSchema } from './schema';

export async function start(config: SubgraphConfig, runtime: ResidentialRuntime, observations: ObservationBook, records: ValuationRecorder = new ValuationRecorder('home', new MemoryRecordStore()), collected: CollectedWeeklyIndex | null = null): Promise<RunningService> {
  const schema = await buildResidentialSchema();
  const instrumented = instrumentRuntime('residential', runtime);
  return serveSubgraph<ResidentialContext>({
    name: 'residential',
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    compiled: true,
    // Fresh DataLoaders and model snapshot per request: they must not outlive it.
    context: (headers) => createResidentialContext(instrumented, observations, headers, records, collected),
  });
}

/**
 * The registry's entry. Overrides: `artifactsRoot` (the flat model's version store, default
 * models/artifacts/residential). The collector's newest weekly index is read from COLLECT_DIR
 * (else <VALUATION_HOME>/collect) for marketIndex. Observed prices are kept in Redis with a Redis URL, else in
 * files under VALUATION_HOME (OBSERVATION_* settings).
 */
export const subgraph: SubgraphModule = {
  buildSchema: buildResidentialSchema,
  async start({ config, env, databaseUrl, redisUrl, overrides, log }): Promise<RunningSubgraph> {
    const runtime = await ResidentialModelService.start({ root: overrides.artifactsRoot as string | undefined, log });
    const records = await openValuationRecorder({ kind: 'home', env, databaseUrl, redisUrl, log });
    const observations = await openObservationBook({ kind: 'home', databaseUrl, hierarchy: HOME_HIERARCHY, env, redisUrl, log });
    // The collector's weekly points (COLLECT_DIR, else <VALUATION_HOME>/collect), published by marketIndex.
    const collected = new CollectedWeeklyIndex(collectConfigFromEnv(env).directory, log);
    const service = await start(config, runtime, observations.book, records.recorder, collected);
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
        await observations.close();
        await records.close();
      },
    };
  },
};
