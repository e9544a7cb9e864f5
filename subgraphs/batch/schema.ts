import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../common/federated-schema';
import { BacktestResolver } from './backtest-resolvers';
import { BatchResolver } from './resolvers';

export function buildBatchSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [BatchResolver, BacktestResolver] });
}
