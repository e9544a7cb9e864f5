/**
 * The subgraphs that value each kind of collateral, as the observations and valuations subgraphs
 * reach them: residential for homes, vehicle for vehicles. Their per-kind fields are named after the
 * kind (`homeObservations`, `revalueVehicleRecord`, …), one operation each.
 */
import type { GraphCaller, GraphClient } from '../../platform/graph-client';

export type ValuedKind = 'home' | 'vehicle';

export interface ValuingPeers {
  residential: GraphClient;
  vehicle: GraphClient;
}

/** An operation on one field of a valuing subgraph. */
export interface KindOperation {
  field: string;
  query: string;
}

/** 'home' → 'Home': the kind as it stands inside a field's name. */
export const titleOf = (kind: ValuedKind): string => `${kind[0].toUpperCase()}${kind.slice(1)}`;

/** Runs `operation` on the subgraph that values `kind`, as `caller`, and gives its field's value. */
export async function askValuingPeer<T>(peers: ValuingPeers, kind: ValuedKind, operation: KindOperation, variables: Record<string, unknown>, caller: GraphCaller): Promise<T> {
  const client = kind === 'home' ? peers.residential : peers.vehicle;
  return (await client.request<Record<string, T>>(operation.query, variables, caller))[operation.field];
}
