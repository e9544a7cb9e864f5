/** The residential subgraph as a service: `subgraph` (the registry's entry) or `start(config, runtime)`. */
import type { SubgraphCaller } from '../../platform/graphql-over-http';
import { HOME_HIERARCHY } from '../../models/observations';
import { ResidentialModelService, type ResidentialRuntime } from '../../models/residential';
import type { SubgraphConfig } from '../../platform/config';
import type { RunningService } from '../../platform/serve';
import type { ObservationBook } from '../common/observation-book';
import { ValuationRecorder } from '../common/valuation-recorder';
import { MemoryRecordStore } from '../common/valuation-records';
import { defineSubgraph, serveSchema } from '../common/subgraph-factory';
import { createResidentialContext } from './context';
import { instrumentRuntime } from '../common/model-metrics';
import { buildResidentialSchema } from './schema';
import { CollectedWeeklyIndex } from '../../platform/collect/collected-exports';
import { collectConfigFromEnv } from '../../platform/collect/config';

export { buildResidentialSchema } from './schema';

const SERVED = { name: 'residential', buildSchema: buildResidentialSchema, compiled: true };

/** The request context over a runtime: fresh DataLoaders and model snapshot per request, which must not outlive it. */
function contextOf(runtime: ResidentialRuntime, observations: ObservationBook, records: ValuationRecorder, collected: CollectedWeeklyIndex | null) {
  const instrumented = instrumentRuntime('residential', runtime);
  return (caller: SubgraphCaller) => createResidentialContext(instrumented, observations, caller, records, collected);
}

/** Serves the residential subgraph over a runtime and a book the caller owns (and closes). */
export function start(config: SubgraphConfig, runtime: ResidentialRuntime, observations: ObservationBook, records: ValuationRecorder = new ValuationRecorder('home', new MemoryRecordStore()), collected: CollectedWeeklyIndex | null = null): Promise<RunningService> {
  return serveSchema(SERVED, config, contextOf(runtime, observations, records, collected));
}

/**
 * The registry's entry. Overrides: `artifactsRoot` (the flat model's version store, default
 * models/artifacts/residential). The collector's newest weekly index is read from COLLECT_DIR
 * (else <VALUATION_HOME>/collect) for marketIndex. Observed prices are kept in Redis with a Redis URL, else in
 * files under VALUATION_HOME (OBSERVATION_* settings).
 */
export const subgraph = defineSubgraph({
  ...SERVED,
  valuing: { kind: 'home', hierarchy: HOME_HIERARCHY },
  async open({ env, overrides, log }, { records, observations }) {
    const runtime = await ResidentialModelService.start({ root: overrides.artifactsRoot as string | undefined, log });
    // The collector's weekly points (COLLECT_DIR, else <VALUATION_HOME>/collect), published by marketIndex.
    const collected = new CollectedWeeklyIndex(collectConfigFromEnv(env).directory, log);
    return {
      context: contextOf(runtime, observations, records, collected),
      modelVersion: () => runtime.version,
      summary: () => `model ${runtime.version}`,
      close: () => runtime.close(),
    };
  },
});
