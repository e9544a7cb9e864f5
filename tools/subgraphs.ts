/** The subgraphs of the supergraph as composition sees them: the registry's, with where their SDL is checked in. */
import { join } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { SCHEMA_DIR } from '../platform/schema-files';
import { SUBGRAPHS as REGISTRY } from '../subgraphs/registry';

export interface SubgraphDefinition {
  name: string;
  sdlPath: string;
  build(): Promise<GraphQLSchema>;
}

export const SUBGRAPHS: readonly SubgraphDefinition[] = REGISTRY.map(({ name, load }) => ({
  name,
  sdlPath: join(SCHEMA_DIR, `${name}.graphql`),
  build: async () => (await load()).buildSchema(),
}));
