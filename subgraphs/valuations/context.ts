/**
 * The valuations subgraph's per-request context: who calls (the gateway's x-organisation), and the
 * valuation subgraphs' record fields (@inaccessible), reached through the graph. It holds no state.
 */
import type { SubgraphCaller } from '../../platform/graphql-over-http';
import { askValuingPeer, titleOf, type ValuedKind, type ValuingPeers } from '../common/valuing-peers';
import type { Revalued } from '../common/record-resolvers';
import type { RecordSample, ValuationRecord } from '../common/valuation-records';
import { ValuationKindEnum } from './types';

export interface RecordWindow {
  since: string | null;
  until: string | null;
  before: string | null;
  limit: number;
}

export interface ValuationsContext {
  organisation: string | null;
  requestId: string;
  record(kind: ValuationKindEnum, id: string): Promise<ValuationRecord | null>;
  list(kind: ValuationKindEnum, window: RecordWindow): Promise<ValuationRecord[]>;
  /** The kind's store's sample of the period: its n ids of smallest sample key, and the period's count. */
  sample(kind: ValuationKindEnum, since: string, until: string, n: number, seed: string): Promise<RecordSample>;
  revalue(kind: ValuationKindEnum, id: string): Promise<{ previous: ValuationRecord; revalued: Revalued } | null>;
}

export type ValuationPeers = ValuingPeers;

/** The operations on a valuation subgraph's record fields, named after its kind. */
function operationsFor(prefix: ValuedKind) {
  const Prefix = titleOf(prefix);
  return {
    record: { field: `${prefix}ValuationRecord`, query: `query($id: String!) { ${prefix}ValuationRecord(id: $id) }` },
    list: { field: `${prefix}ValuationRecords`, query: `query($s: String, $u: String, $b: String, $l: Int!) { ${prefix}ValuationRecords(since: $s, until: $u, before: $b, limit: $l) }` },
    sample: { field: `${prefix}ValuationRecordSample`, query: `query($s: String!, $u: String!, $n: Int!, $seed: String!) { ${prefix}ValuationRecordSample(since: $s, until: $u, n: $n, seed: $seed) }` },
    revalue: { field: `revalue${Prefix}Record`, query: `mutation($id: String!) { revalue${Prefix}Record(id: $id) }` },
  };
}

const OPERATIONS = { [ValuationKindEnum.HOME]: operationsFor('home'), [ValuationKindEnum.VEHICLE]: operationsFor('vehicle') };

export function createValuationsContext(caller: SubgraphCaller, peers: ValuationPeers): ValuationsContext {
  const organisation = caller.principal?.org ?? null;
  const requestId = caller.requestId ?? 'valuations';
  const call = <T>(kind: ValuationKindEnum, name: keyof (typeof OPERATIONS)[ValuationKindEnum], variables: Record<string, unknown>): Promise<T> =>
    askValuingPeer<T>(peers, kind, OPERATIONS[kind][name], variables, { organisation: organisation!, requestId });
  return {
    organisation,
    requestId,
    record: (kind, id) => call(kind, 'record', { id }),
    list: (kind, { since, until, before, limit }) => call(kind, 'list', { s: since, u: until, b: before, l: limit }),
    sample: (kind, since, until, n, seed) => call(kind, 'sample', { s: since, u: until, n, seed }),
    revalue: (kind, id) => call(kind, 'revalue', { id }),
  };
}
