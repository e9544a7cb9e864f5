import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { createObservationResolver } from '../common/observation-resolvers';
import type { ResidentialContext } from './context';
import { scoreHomes } from './observations';
import { residentialReferenceResolvers } from './entities';
import { DistrictResolver, MahallaResolver } from './place-resolvers';
import { createRecordResolver } from '../common/record-resolvers';
import { HomeValuationResolver, revalueHome } from './resolvers';

const HomeObservationResolver = createObservationResolver<ResidentialContext>({ kind: 'home', score: (context) => scoreHomes(context.runtime) });

const HomeRecordResolver = createRecordResolver<ResidentialContext>({ kind: 'home', revalue: revalueHome });

export function buildResidentialSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [HomeValuationResolver, HomeObservationResolver, HomeRecordResolver, DistrictResolver, MahallaResolver] }, residentialReferenceResolvers);
}
