/**
 * Entity references: how the location subgraph's `District { name }` or `Mahalla { id }` becomes the
 * residential subgraph's, through the request's DataLoaders. An unknown key resolves to null.
 */
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { ResidentialContext } from './context';

export const residentialReferenceResolvers: GraphQLResolverMap<unknown> = {
  District: {
    __resolveReference: (reference: { name: string }, ctx: unknown) => (ctx as ResidentialContext).loaders.districtByName.load(reference.name),
  },
  Mahalla: {
    __resolveReference: (reference: { id: string }, ctx: unknown) => (ctx as ResidentialContext).loaders.mahallaById.load(reference.id),
  },
};
