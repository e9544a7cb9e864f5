/**
 * Runs a subgraph's queries compiled by graphql-jit: each operation is turned once into plain
 * JavaScript that coerces its variables and completes its fields, where graphql-js walks the
 * document, the types and a path object per field on every call (issue 34, item 1: a 100-item
 * homeValuations completes 7,300 fields). Apollo Server takes a custom executor only from a
 * gateway, so `compiledGateway` is one that serves a fixed schema; the all-in-one gateway calls
 * `compiledExecution` directly (gateway/graph/local-data-source.ts).
 *
 * Answers are graphql-js's: anything the compiled query refuses before resolving a field (a
 * variable of the wrong type, an unknown operation) is run again by graphql-js for its own errors,
 * and mutations and subscriptions are left to graphql-js (mutations run their fields in order).
 */
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { execute, getOperationAST, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
export type GatewayExecutor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;

/** graphql-js's `execute`, for one schema, its queries compiled. */
export type Execution = (args: Pick<ExecutionArgs, 'document' | 'operationName' | 'variableValues' | 'contextValue'>) => Promise<ExecutionResult>;

/**
 * A schema's queries compiled, each document once, kept in a WeakMap on the parsed document (Apollo
 * and PreparedDocuments keep one per query text, so it lives as long as they keep it).
 */
export class CompiledQueries {
  private readonly compiled = new WeakMap<DocumentNode, Map<string | null, CompiledQuery | null>>();

  constructor(readonly schema: GraphQLSchema) {}

  /** The compiled query of a document's operation; null for a mutation, a subscription, or what graphql-jit cannot compile. */
  of(document: DocumentNode, operationName: string | null): CompiledQuery | null {
    let byName = this.compiled.get(document);
    if (!byName) this.compiled.set(document, (byName = new Map()));
    let query = byName.get(operationName);
    if (query === undefined) {
      const result = getOperationAST(document, operationName)?.operation === 'query' ? compileQuery(this.schema, document, operationName ?? undefined) : null;
      query = result && isCompiledQuery(result) ? result : null;
      byName.set(operationName, query);
    }
    return query;
  }

  /** graphql-js's `execute` for this schema, its queries compiled. */
  readonly execute: Execution = async ({ document, operationName, variableValues, contextValue }) => {
    const query = this.of(document, operationName ?? null);
    if (query) {
      const result = (await query.query(undefined, contextValue, variableValues ?? {})) as ExecutionResult;
      if (result.data !== undefined) return result;
    }
    return execute({ schema: this.schema, document, operationName, variableValues, contextValue });
  };
}

/** graphql-js's `execute`, for one schema, its queries compiled. */
export function compiledExecution(schema: GraphQLSchema): Execution {
  return new CompiledQueries(schema).execute;
}

/** What Apollo Server takes as a gateway: `schema`, fixed, run by `execute` (by default `compiledExecution`). */
export function compiledGateway(schema: GraphQLSchema, execute: GatewayExecutor = fromExecution(compiledExecution(schema))): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    load: async () => ({ executor: execute }),
    stop: async () => undefined,
  };
}

/** Apollo's executor over an `Execution`. */
export function fromExecution(run: Execution): GatewayExecutor {
  return ({ document, operationName, request, context }) => run({ document, operationName, variableValues: request.variables, contextValue: context });
}
