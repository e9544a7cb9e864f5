/**
 * The observations subgraph as a service (issue 18): banks' observed prices. It checks each
 * observation and hands those of each kind to the subgraph that values that kind, which scores and
 * keeps them (residential: homes, vehicle: vehicles); it holds no state of its own.
 */
// The schema first: it loads reflect-metadata, which the type-graphql classes of ./types need loaded.
import { buildObservationsSchema } from './schema';
import { observationStoreConfigFromEnv } from '../common/observation-store';
import { defineSubgraph } from '../common/subgraph-factory';
import { createObservationsContext } from './context';

export { buildObservationsSchema } from './schema';

/** A call carries up to the largest plan's batch of observations (1,000,000 of a few hundred bytes each would not fit; such uploads come in parts). @default 64 MB */
const OBSERVATIONS_BODY_LIMIT = 64 * 1024 * 1024;

/** The registry's entry. Overrides: `clock` (the day observations are checked against). */
export const subgraph = defineSubgraph({
  name: 'observations',
  buildSchema: buildObservationsSchema,
  bodyLimit: OBSERVATIONS_BODY_LIMIT,
  calls: ['residential', 'vehicle'],
  async open({ env, peers, overrides }) {
    const { retentionDays } = observationStoreConfigFromEnv(env);
    const valuing = { residential: peers.residential, vehicle: peers.vehicle };
    const settings = { clock: (overrides.clock as (() => number) | undefined) ?? Date.now, retentionDays };
    return { context: (caller) => createObservationsContext(caller, valuing, settings) };
  },
});
