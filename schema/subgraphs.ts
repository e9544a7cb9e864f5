/** The subgraphs of the supergraph as composition sees them: the registry's, with where their SDL is checked in. */
import { join } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { PROJECT_ROOT } from '../models/paths';
import { SUBGRAPHS as REGISTRY } from '../subgraphs/registry';

export interface SubgraphDefinition {
  name: string;
  sdlPath: string;
  build(): Promise<GraphQLSchema>;
}

export const SCHEMA_DIR = join(PROJECT_ROOT, 'schema');
export const SUPERGRAPH_PATH = join(SCHEMA_DIR, 'supergraph.graphql');

export const SUBGRAPHS: readonly SubgraphDefinition[] = REGISTRY.map(({ name, load }) => ({
  name,
  sdlPath: join(SCHEMA_DIR, `${name}.graphql`),
  build: async () => (await load()).buildSchema(),
}));
