/**
 * type-graphql builds the schema; @apollo/subgraph adds the federation machinery
 * (_service, _entities, @link). This is the pattern of type-graphql's federation example.
 */
import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { parse, type GraphQLSchema } from 'graphql';
import { buildSchema, createResolversMap, type BuildSchemaOptions } from 'type-graphql';
import { dropPlainFieldResolvers } from './plain-fields';

const FEDERATION_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible"])';

export async function buildFederatedSchema(
  options: Omit<BuildSchemaOptions, 'skipCheck'>,
  referenceResolvers: GraphQLResolverMap<unknown> = {},
): Promise<GraphQLSchema> {
  const schema = await buildSchema({ ...options, skipCheck: true, validate: false });
  const resolvers = createResolversMap(schema) as GraphQLResolverMap<unknown>;
  dropPlainFieldResolvers(resolvers, options);
  for (const [typeName, fields] of Object.entries(referenceResolvers)) {
    resolvers[typeName] = { ...(resolvers[typeName] as object), ...(fields as object) } as never;
  }
  return buildSubgraphSchema({
    typeDefs: parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`),
    resolvers,
  });
}
