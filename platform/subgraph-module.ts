/**
 * What every subgraph folder exports (its `subgraph` from index.ts), so that one registry
 * (subgraphs/registry.ts) is all the all-in-one start, the standalone start, schema composition and
 * the tests need to know of it.
 */
import type { GraphQLSchema } from 'graphql';
import type { SubgraphConfig } from './config';
import type { GraphClient } from './graph-client';
import type { RunningService } from './serve';

export interface SubgraphStart {
  /** Host, port, internal token, introspection. */
  config: SubgraphConfig;
  /** Its own settings are read from here (e.g. BATCH_* for batch). */
  env: NodeJS.ProcessEnv;
  /** 'alone': its own process (`subgraphs/<name>/main.ts`); 'all-in-one': beside the gateway and the other subgraphs. */
  mode: 'alone' | 'all-in-one';
  /** DATABASE_URL as the process's configuration decides it: valuation records and observations in PostgreSQL ('' or undefined: Redis or files). */
  databaseUrl?: string;
  /** REDIS_URL as the process's configuration decides it ('' or undefined: in process). */
  redisUrl?: string;
  /** REDIS_TIMEOUT_MS @default 250 */
  redisTimeoutMs?: number;
  /** The subgraphs named in `calls`, as GraphQL clients. */
  peers: Readonly<Record<string, GraphClient>>;
  /** What a test or a bench hands one subgraph (model folders, webhook secrets…); each subgraph documents its own. */
  overrides: Readonly<Record<string, unknown>>;
  log(message: string): void;
}

export interface RunningSubgraph extends RunningService {
  /** The model version in service, for the subgraphs that serve one (null: none promoted). */
  readonly modelVersion?: string | null;
  /** What a start line says of it, e.g. "model 2026.11.14" or "jobs in Redis". */
  readonly summary?: string;
}

export interface SubgraphModule<R extends RunningSubgraph = RunningSubgraph> {
  /** How the code builds its schema: composition and the checked-in SDL read it. */
  buildSchema(): Promise<GraphQLSchema>;
  /** The subgraphs it calls through the graph: started before it, given to `start` as clients. */
  calls?: readonly string[];
  start(options: SubgraphStart): Promise<R>;
}
