import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { ValuationRecordResolver } from './resolvers';

export function buildValuationsSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [ValuationRecordResolver] });
}
