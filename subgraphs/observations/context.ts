/**
 * The observations subgraph's per-request context: who calls (the gateway's x-organisation and
 * x-plan), and the valuation subgraphs' observation fields, reached through the graph.
 */
import { principalWithPlan, type SubgraphCaller } from '../../platform/graphql-over-http';
import type { ObservationModel } from '../../models/observations';
import { askValuingPeer, titleOf, type ValuedKind, type ValuingPeers } from '../common/valuing-peers';
import type { ObservationOutcome } from '../common/observation-recording';
import type { LiveAccuracyReport } from '../common/live-accuracy';
import type { StoredObservation } from '../common/observation-store';
import type { ForwardedItem } from '../common/observation-envelope';
import { ObservationKindEnum } from './types';

export interface ObservationsContext {
  principal: { org: string; plan: string } | null;
  requestId: string;
  clock(): number;
  retentionDays: number;
  record(kind: ObservationKindEnum, org: string, requestId: string, items: readonly ForwardedItem[]): Promise<ObservationOutcome[]>;
  /** How many observations of the kind the organisation keeps. */
  count(kind: ObservationKindEnum, org: string, requestId: string): Promise<number>;
  /** The ids of the organisation's observations of the kind among `ids` that were removed. */
  retract(kind: ObservationKindEnum, org: string, requestId: string, ids: readonly string[]): Promise<string[]>;
  list(kind: ObservationKindEnum, org: string, requestId: string, window: ObservationWindow): Promise<StoredObservation[]>;
  model(kind: ObservationKindEnum, org: string, requestId: string): Promise<ObservationModel | null>;
  liveAccuracy(kind: ObservationKindEnum, org: string, requestId: string, since: string | null, level: string): Promise<LiveAccuracyReport>;
}

/** Which observations a list call gives: observed within since…until (inclusive, YYYY-MM-DD), newest first, `limit` of them after skipping `offset`. */
export interface ObservationWindow {
  since: string | null;
  until: string | null;
  limit: number;
  offset: number;
}

export type ObservationPeers = ValuingPeers;

/** The operations on a valuation subgraph's observation fields (@inaccessible), named after its kind. */
function operationsFor(prefix: ValuedKind) {
  const Prefix = titleOf(prefix);
  return {
    record: { field: `record${Prefix}Observations`, query: `mutation($o: [JSONObject!]!) { record${Prefix}Observations(observations: $o) }` },
    count: { field: `${prefix}ObservationCount`, query: `query { ${prefix}ObservationCount }` },
    retract: { field: `retract${Prefix}Observations`, query: `mutation($i: [String!]!) { retract${Prefix}Observations(ids: $i) }` },
    list: { field: `${prefix}Observations`, query: `query($s: String, $u: String, $l: Int, $o: Int) { ${prefix}Observations(since: $s, until: $u, limit: $l, offset: $o) }` },
    liveAccuracy: { field: `${prefix}LiveAccuracy`, query: `query($s: String, $l: String!) { ${prefix}LiveAccuracy(since: $s, level: $l) }` },
    model: { field: `${prefix}ObservationModel`, query: `query { ${prefix}ObservationModel }` },
  };
}

const OPERATIONS = { [ObservationKindEnum.HOME]: operationsFor('home'), [ObservationKindEnum.VEHICLE]: operationsFor('vehicle') };

export function createObservationsContext(caller: SubgraphCaller, peers: ObservationPeers, settings: { clock: () => number; retentionDays: number }): ObservationsContext {
  const requestId = caller.requestId ?? 'observations';
  /** One of the kind's operations on the subgraph that values it, for `organisation`. */
  const call = <T>(kind: ObservationKindEnum, name: keyof (typeof OPERATIONS)[ObservationKindEnum], variables: Record<string, unknown>, organisation: string, id: string): Promise<T> =>
    askValuingPeer<T>(peers, kind, OPERATIONS[kind][name], variables, { organisation, requestId: id });
  return {
    principal: principalWithPlan(caller),
    requestId,
    clock: settings.clock,
    retentionDays: settings.retentionDays,
    record: (kind, organisation, id, items) => call(kind, 'record', { o: items }, organisation, id),
    count: (kind, organisation, id) => call(kind, 'count', {}, organisation, id),
    retract: (kind, organisation, id, ids) => call(kind, 'retract', { i: ids }, organisation, id),
    list: (kind, organisation, id, { since, until, limit, offset }) => call(kind, 'list', { s: since, u: until, l: limit, o: offset }, organisation, id),
    liveAccuracy: (kind, organisation, id, since, level) => call(kind, 'liveAccuracy', { s: since, l: level }, organisation, id),
    model: (kind, organisation, id) => call(kind, 'model', {}, organisation, id),
  };
}
