import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { HomeValuationResolver } from './resolvers';

export function buildResidentialSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [HomeValuationResolver] });
}
