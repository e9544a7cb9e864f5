import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { VehicleValuationResolver } from './resolvers';

export function buildVehicleSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [VehicleValuationResolver] });
}
