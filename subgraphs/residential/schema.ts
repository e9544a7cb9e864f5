import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { createObservationResolver } from '../common/observation-resolvers';
import type { ResidentialContext } from './context';
import { scoreHomes } from './observations';
import { residentialReferenceResolvers } from './entities';
import { DistrictResolver, MahallaResolver } from './place-resolvers';
import { HomeValuationResolver } from './resolvers';

const HomeObservationResolver = createObservationResolver<ResidentialContext>({ kind: 'home', score: (context) => scoreHomes(context.runtime) });

export function buildResidentialSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [HomeValuationResolver, HomeObservationResolver, DistrictResolver, MahallaResolver] }, residentialReferenceResolvers);
}
