/**
 * The observations subgraph's per-request context: who calls (the gateway's x-organisation and
 * x-plan), and the valuation subgraphs' observation fields, reached through the graph.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ObservationModel } from '../../models/observations';
import type { GraphClient } from '../common/graph-client';
import type { LiveAccuracyReport } from '../common/live-accuracy';
import type { StoredObservation } from '../common/observation-store';
import type { ForwardedItem } from './envelope';
import type { Outcome } from './resolvers';
import { ObservationKindEnum } from './types';

export interface ObservationsContext {
  principal: { org: string; plan: string } | null;
  requestId: string;
  clock(): number;
  retentionDays: number;
  record(kind: ObservationKindEnum, org: string, requestId: string, items: readonly ForwardedItem[]): Promise<Outcome[]>;
  list(kind: ObservationKindEnum, org: string, requestId: string, since: string | null, limit: number): Promise<StoredObservation[]>;
  model(kind: ObservationKindEnum, org: string, requestId: string): Promise<ObservationModel | null>;
  liveAccuracy(kind: ObservationKindEnum, org: string, requestId: string, since: string | null, level: string): Promise<LiveAccuracyReport>;
}

export interface ObservationPeers {
  residential: GraphClient;
  vehicle: GraphClient;
}

/** The subgraph that values a kind, and the prefix of its observation fields. */
function owner(peers: ObservationPeers, kind: ObservationKindEnum): { client: GraphClient; prefix: string; Prefix: string } {
  return kind === ObservationKindEnum.HOME ? { client: peers.residential, prefix: 'home', Prefix: 'Home' } : { client: peers.vehicle, prefix: 'vehicle', Prefix: 'Vehicle' };
}

export function createObservationsContext(headers: IncomingHttpHeaders, peers: ObservationPeers, settings: { clock: () => number; retentionDays: number }): ObservationsContext {
  const org = headers['x-organisation'];
  const plan = headers['x-plan'];
  const requestId = typeof headers['x-request-id'] === 'string' ? headers['x-request-id'] : 'observations';
  return {
    principal: typeof org === 'string' && org !== '' && typeof plan === 'string' && plan !== '' ? { org, plan } : null,
    requestId,
    clock: settings.clock,
    retentionDays: settings.retentionDays,
    async record(kind, organisation, id, items) {
      const { client, Prefix } = owner(peers, kind);
      const data = await client.request<Record<string, Outcome[]>>(`mutation($o: [JSONObject!]!) { record${Prefix}Observations(observations: $o) }`, { o: items }, { organisation, requestId: id });
      return data[`record${Prefix}Observations`];
    },
    async list(kind, organisation, id, since, limit) {
      const { client, prefix } = owner(peers, kind);
      const data = await client.request<Record<string, StoredObservation[]>>(`query($s: String, $l: Int) { ${prefix}Observations(since: $s, limit: $l) }`, { s: since, l: limit }, { organisation, requestId: id });
      return data[`${prefix}Observations`];
    },
    async liveAccuracy(kind, organisation, id, since, level) {
      const { client, prefix } = owner(peers, kind);
      const data = await client.request<Record<string, LiveAccuracyReport>>(`query($s: String, $l: String!) { ${prefix}LiveAccuracy(since: $s, level: $l) }`, { s: since, l: level }, { organisation, requestId: id });
      return data[`${prefix}LiveAccuracy`];
    },
    async model(kind, organisation, id) {
      const { client, prefix } = owner(peers, kind);
      const data = await client.request<Record<string, ObservationModel | null>>(`query { ${prefix}ObservationModel }`, {}, { organisation, requestId: id });
      return data[`${prefix}ObservationModel`];
    },
  };
}
