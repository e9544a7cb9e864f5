/**
 * The supergraph as /graphql serves it, with the gateway's own subscriptions added. Apollo Gateway
 * does not federate subscriptions, so `batchProgress` is served by the gateway over graphql-ws
 * (gateway/subscriptions); adding its types to the API schema puts it in introspection and lets
 * tools (GraphiQL, codegen) see it. A subscription sent over HTTP is answered with an error naming
 * the WebSocket, never planned.
 */
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import { execute, extendSchema, GraphQLError, Kind, parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';

export function withSubscriptionTypes(gateway: GatewayInterface, subscriptionSdl: string): GatewayInterface {
  const extension = parse(`${subscriptionSdl}\n\nextend schema { subscription: Subscription }`);
  // One extended schema per supergraph: Apollo Server and our document checks see the same object.
  const extended = new WeakMap<GraphQLSchema, GraphQLSchema>();
  const extend = (schema: GraphQLSchema): GraphQLSchema => {
    let result = extended.get(schema);
    if (!result) extended.set(schema, (result = extendSchema(schema, extension)));
    return result;
  };
  return {
    onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate((update) => callback({ ...update, apiSchema: extend(update.apiSchema) })),
    async load(options) {
      const { executor } = await gateway.load(options);
      return {
        executor: executor && (async (request) => {
          if (request.operation.operation === 'subscription') {
            return { errors: [new GraphQLError('Subscriptions are served over WebSocket (graphql-ws) on /graphql, not over HTTP', { extensions: { code: 'BAD_REQUEST' } })] };
          }
          // The gateway answers introspection from its own schema, which lacks the subscriptions.
          if (onlyIntrospection(request.operation)) {
            return execute({ schema: request.schema, document: request.document, variableValues: request.request.variables, operationName: request.operationName ?? undefined }) as Promise<{ data?: Record<string, unknown> | null; errors?: readonly GraphQLError[] }>;
          }
          return executor(request);
        }),
      };
    },
    stop: () => gateway.stop(),
  };
}

/** A query that asks only for __schema, __type or __typename at its root (what introspection tools send). */
function onlyIntrospection(operation: OperationDefinitionNode): boolean {
  return operation.operation === 'query' && operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__'));
}
