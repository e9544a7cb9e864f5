import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { createObservationResolver } from '../common/observation-resolvers';
import type { VehicleContext } from './context';
import { scoreVehicles } from './observations';
import { createRecordResolver } from '../common/record-resolvers';
import { revalueVehicle, VehicleValuationResolver } from './resolvers';

const VehicleObservationResolver = createObservationResolver<VehicleContext>({ kind: 'vehicle', score: (context) => scoreVehicles(() => context.runtime()) });

const VehicleRecordResolver = createRecordResolver<VehicleContext>({ kind: 'vehicle', revalue: revalueVehicle });

export function buildVehicleSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [VehicleValuationResolver, VehicleObservationResolver, VehicleRecordResolver] });
}
