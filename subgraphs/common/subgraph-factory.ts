/**
 * One subgraph factory: what every subgraph's start does, written once. A subgraph declares its name,
 * schema, peers and server settings, and what it opens to serve (a model runtime, an engine…); a
 * valuing subgraph also names its kind, and gets that kind's valuation records and book of observed
 * prices opened for it. The factory opens them in order, serves the schema with `serveSubgraph`
 * (platform/serve.ts), and closes everything in reverse order: on close, and when a later step of the
 * start fails. The registry (subgraphs/registry.ts) lists what it makes; a new collateral kind is one
 * more declaration (docs/ARCHITECTURE.md, "A new collateral kind").
 */
import type { BaseContext } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { GroupHierarchy } from '../../models/observations';
import type { SubgraphConfig } from '../../platform/config';
import type { SubgraphCaller } from '../../platform/graphql-over-http';
import { serveSubgraph, type RunningService } from '../../platform/serve';
import type { RunningSubgraph, SubgraphModule, SubgraphStart } from '../../platform/subgraph-module';
import { openObservationBook, type ObservationBook } from './observation-book';
import { openValuationRecorder, type ValuationRecorder } from './valuation-recorder';

/** How a subgraph is served: its name, schema and server settings. */
export interface ServedSchema {
  name: string;
  buildSchema(): Promise<GraphQLSchema>;
  /** Queries run compiled by graphql-jit, and over HTTP through the fast lane (platform/fast-lane.ts): the subgraphs the gateway calls on every valuation or record read. @default false */
  compiled?: boolean;
  /** The largest request body it takes. @default DEFAULT_SUBGRAPH_BODY_LIMIT (platform/serve.ts) */
  bodyLimit?: number;
}

/** What a valuing subgraph keeps of its kind: every valuation given, and the organisations' observed prices. */
export interface KindStores {
  records: ValuationRecorder;
  observations: ObservationBook;
}

/** What a subgraph opened to serve: its per-request context, what its start line says, and how it closes. */
export interface Opened<C, X extends object = object> {
  /** The per-request context, for the caller the gateway (or a peer) names. */
  context(caller: SubgraphCaller): C;
  /** The model version in service, read when asked (a hot swap changes it). */
  modelVersion?(): string | null;
  /** What a start line says of it, read when asked, e.g. "model 2026.11.14". */
  summary?(): string;
  /** Closes what `open` opened; called after the server is closed, before the kind's stores. */
  close?(): Promise<void>;
  /** What the running subgraph carries beside the service (the batch subgraph's engine). */
  extra?: X;
}

interface SpecBase extends ServedSchema {
  /** The subgraphs it calls through the graph (registry names): started before it, given to `open` as `peers`. */
  calls?: readonly string[];
}

export type SubgraphSpec<C, X extends object = object> = SpecBase &
  (
    | { valuing?: undefined; open(start: SubgraphStart): Promise<Opened<C, X>> }
    | {
        /** Its kind's records and observations, opened before `open` and closed after it. */
        valuing: { kind: 'home' | 'vehicle'; hierarchy: GroupHierarchy };
        open(start: SubgraphStart, stores: KindStores): Promise<Opened<C, X>>;
      }
  );

/** Builds the schema and serves it with `context`, as `config` says (host, port, token, introspection). */
export async function serveSchema<C extends BaseContext>(served: ServedSchema, config: SubgraphConfig, context: (caller: SubgraphCaller) => C): Promise<RunningService> {
  const schema = await served.buildSchema();
  return serveSubgraph<C>({
    name: served.name,
    schema,
    host: config.host,
    port: config.port,
    internalToken: config.internalToken,
    introspection: config.introspection,
    ...(served.compiled ? { compiled: true } : {}),
    ...(served.bodyLimit === undefined ? {} : { bodyLimit: served.bodyLimit }),
    context,
  });
}

/** The registry's entry of a subgraph (its `subgraph` export), made from what it declares. */
export function defineSubgraph<C extends BaseContext, X extends object = object>(spec: SubgraphSpec<C, X>): SubgraphModule<RunningSubgraph & X> {
  return {
    buildSchema: spec.buildSchema,
    ...(spec.calls ? { calls: spec.calls } : {}),
    async start(start) {
      // Closed last opened first: on close, and when a later step fails.
      const opened: (() => Promise<void>)[] = [];
      const closeOpened = async () => {
        for (const close of opened.reverse()) await close();
      };
      try {
        let own: Opened<C, X>;
        if (spec.valuing) {
          const { kind, hierarchy } = spec.valuing;
          const { env, databaseUrl, redisUrl, log } = start;
          const records = await openValuationRecorder({ kind, env, databaseUrl, redisUrl, log });
          opened.push(records.close);
          const observations = await openObservationBook({ kind, databaseUrl, hierarchy, env, redisUrl, log });
          opened.push(observations.close);
          own = await spec.open(start, { records: records.recorder, observations: observations.book });
        } else {
          own = await spec.open(start);
        }
        if (own.close) opened.push(own.close);
        const service = await serveSchema(spec, start.config, own.context);
        const running = {
          ...service,
          ...own.extra,
          // Getters: the model version in service changes when another is promoted.
          get modelVersion() {
            return own.modelVersion?.();
          },
          get summary() {
            return own.summary?.();
          },
          close: async () => {
            await service.close();
            await closeOpened();
          },
        };
        return running as RunningSubgraph & X;
      } catch (error) {
        await closeOpened();
        throw error;
      }
    },
  };
}
