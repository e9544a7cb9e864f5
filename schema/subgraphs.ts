/** The subgraphs of the supergraph: name, where their SDL is checked in, and how the code builds it. */
import { join } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { PROJECT_ROOT } from '../models/paths';
import { buildLocationSchema } from '../subgraphs/location/schema';
import { buildResidentialSchema } from '../subgraphs/residential/schema';
import { buildVehicleSchema } from '../subgraphs/vehicle/schema';

export interface SubgraphDefinition {
  name: string;
  sdlPath: string;
  build(): Promise<GraphQLSchema>;
}

export const SCHEMA_DIR = join(PROJECT_ROOT, 'schema');
export const SUPERGRAPH_PATH = join(SCHEMA_DIR, 'supergraph.graphql');

export const SUBGRAPHS: readonly SubgraphDefinition[] = [
  { name: 'residential', sdlPath: join(SCHEMA_DIR, 'residential.graphql'), build: buildResidentialSchema },
  { name: 'location', sdlPath: join(SCHEMA_DIR, 'location.graphql'), build: buildLocationSchema },
  { name: 'vehicle', sdlPath: join(SCHEMA_DIR, 'vehicle.graphql'), build: buildVehicleSchema },
];
