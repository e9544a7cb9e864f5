import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { ObservationResolver } from './resolvers';

export function buildObservationsSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [ObservationResolver] });
}
