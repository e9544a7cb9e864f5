/**
 * Entity references: how another subgraph's `District { name }` or `Mahalla { id }` becomes the
 * location subgraph's record, through the request's DataLoaders. An unknown key resolves to null.
 */
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { LocationContext } from './context';

export const locationReferenceResolvers: GraphQLResolverMap<unknown> = {
  District: {
    __resolveReference: (reference: { name: string }, ctx: unknown) => (ctx as LocationContext).loaders.districtByName.load(reference.name),
  },
  Mahalla: {
    __resolveReference: (reference: { id: string }, ctx: unknown) => (ctx as LocationContext).loaders.mahallaById.load(reference.id),
  },
};
