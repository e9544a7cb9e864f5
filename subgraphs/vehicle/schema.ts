import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { createObservationResolver } from '../common/observation-resolvers';
import type { VehicleContext } from './context';
import { scoreVehicles } from './observations';
import { VehicleValuationResolver } from './resolvers';

const VehicleObservationResolver = createObservationResolver<VehicleContext>({ kind: 'vehicle', score: (context) => scoreVehicles(() => context.runtime()) });

export function buildVehicleSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [VehicleValuationResolver, VehicleObservationResolver] });
}
