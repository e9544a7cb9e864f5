/**
 * Depth and cost limits for every operation the gateway executes.
 * Depth: a validation rule (graphql-depth-limit is unmaintained since 2018; the rule is 30 lines).
 * Cost: graphql-query-complexity, with bulk arguments (lists of inputs) costing one per item.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type ASTVisitor, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import type { GatewayContext } from './context';

/** @default 12 */
export function depthLimitRule(maxDepth = 12) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const depthOf = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>): number => {
      if (!set) return depth;
      let max = depth;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          if (sel.name.value.startsWith('__')) continue; // introspection has its own limits
          max = Math.max(max, depthOf(sel.selectionSet, depth + 1, seen));
        } else if (sel.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(sel.selectionSet, depth, seen));
        else if (!seen.has(sel.name.value)) {
          const fragment = fragments.get(sel.name.value);
          max = Math.max(max, depthOf(fragment?.selectionSet, depth, new Set(seen).add(sel.name.value)));
        }
      }
      return max;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, 0, new Set());
        if (depth > maxDepth) {
          context.reportError(new GraphQLError(`query depth ${depth} exceeds the limit of ${maxDepth}`, { nodes: [node], extensions: { code: 'QUERY_TOO_DEEP' } }));
        }
      },
    };
  };
}

/** A field taking a list of inputs costs one per item on top of its selection. */
const bulkArgumentEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  for (const value of Object.values(args)) if (Array.isArray(value)) return value.length + childComplexity;
  return undefined;
};

/** @default maxCost 20000 */
export function costLimitPlugin(maxCost = 20_000): ApolloServerPlugin<GatewayContext> {
  // The cost depends on the variables only through list lengths; without list variables it is a
  // property of the document, computed once. (Keyed weakly: documents come from Apollo's cache.)
  const costOfDocument = new WeakMap<DocumentNode, Map<string, number>>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema }) {
          const variables = request.variables ?? {};
          const dependsOnVariables = Object.values(variables).some(hasList);
          const operation = request.operationName ?? '';
          let cost = dependsOnVariables ? undefined : costOfDocument.get(document)?.get(operation);
          if (cost === undefined) {
            try {
              cost = getComplexity({
                schema,
                query: document,
                operationName: request.operationName ?? undefined,
                variables,
                estimators: [bulkArgumentEstimator, simpleEstimator({ defaultComplexity: 1 })],
              });
            } catch (error) {
              // Variables that do not fit the operation: thrown from a plugin, this would be a 500.
              // Nothing runs with them (execution coerces them first and answers 400 BAD_USER_INPUT),
              // so there is no cost to limit.
              if (error instanceof GraphQLError) return;
              throw error;
            }
            if (!dependsOnVariables) {
              const byOperation = costOfDocument.get(document) ?? new Map<string, number>();
              costOfDocument.set(document, byOperation.set(operation, cost));
            }
          }
          if (cost > maxCost) {
            throw new GraphQLError(`query cost ${cost} exceeds the limit of ${maxCost}`, { extensions: { code: 'QUERY_TOO_COMPLEX', cost, maxCost, http: { status: 400 } } });
          }
        },
      };
    },
  };
}

function hasList(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  return typeof value === 'object' && value !== null && Object.values(value).some(hasList);
}
