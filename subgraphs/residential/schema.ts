import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { residentialReferenceResolvers } from './entities';
import { DistrictResolver, MahallaResolver } from './place-resolvers';
import { HomeValuationResolver } from './resolvers';

export function buildResidentialSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [HomeValuationResolver, DistrictResolver, MahallaResolver] }, residentialReferenceResolvers);
}
