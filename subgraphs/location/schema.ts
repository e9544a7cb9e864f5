import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { locationReferenceResolvers } from './entities';
import { DistrictResolver, MahallaResolver } from './place-resolvers';
import { GeocodeResolver, LocationIndexResolver } from './resolvers';

export function buildLocationSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [LocationIndexResolver, GeocodeResolver, DistrictResolver, MahallaResolver] }, locationReferenceResolvers);
}
