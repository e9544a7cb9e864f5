/**
 * One subgraph call for the fetches of a query plan that go to the same subgraph at the same time
 * (issue 34). Apollo Gateway runs the branches of a Parallel node as separate calls: a valuation
 * with the location of its district and of its mahalla calls the location subgraph twice, once per
 * entity type, each with its own HTTP request, authentication and execution there. Hive Gateway and
 * Apollo Router send one. Here the queries issued for one request to one subgraph in the same turn
 * of the event loop (the branches of a Parallel node are started together) are sent as one: each
 * query's variables renamed `_b<i>_<name>` and its root fields aliased `_b<i>_<key>`; the reply is
 * split back into one reply per query, errors by the alias their path starts with (an error naming
 * none is the whole call's, and goes to every query). Only plain queries are merged (one operation, no fragments, root
 * fields only); anything else, or a query alone, is sent as it is.
 */
import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { Kind, OperationTypeNode, parse, print, stripIgnoredCharacters, visit, type FieldNode, type OperationDefinitionNode, type VariableDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { GatewayContext } from './context';

type Request = GraphQLDataSourceProcessOptions<GatewayContext>['request'];
/** Sends one request to the subgraph (the data source's own call). */
export type Send = (request: { query: string; variables: Record<string, unknown>; operationName?: string }, options: GraphQLDataSourceProcessOptions<GatewayContext>) => Promise<GatewayGraphQLResponse>;

interface Waiting {
  options: GraphQLDataSourceProcessOptions<GatewayContext>;
  resolve(response: GatewayGraphQLResponse): void;
  reject(error: unknown): void;
}

/** A mergeable query: its operation and the response keys of its root fields. */
interface Plain {
  operation: OperationDefinitionNode;
  keys: string[];
}

/** A merged query for a given list of queries, and how to read its reply. */
interface Merged {
  query: string;
  operationName: string;
  /** Per query: [merged variable name, its own] and [merged response key, its own]. */
  parts: { variables: [string, string][]; keys: [string, string][] }[];
}

const prefix = (index: number) => `_b${index}_`;

export class FetchBatcher {
  /** Queries issued in this turn, per request (its context object). */
  private readonly pending = new Map<object, Waiting[]>();
  private readonly plain = new LRUCache<string, Plain | false>({ max: 1000 });
  private readonly merged = new LRUCache<string, Merged>({ max: 1000 });

  constructor(private readonly send: Send) {}

  process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const context = options.context as object | undefined;
    if (!context || typeof options.request.query !== 'string' || !this.plainQuery(options.request.query)) return this.sendAlone(options);
    let waiting = this.pending.get(context);
    if (!waiting) {
      this.pending.set(context, (waiting = []));
      queueMicrotask(() => this.flush(context));
    }
    return new Promise((resolve, reject) => waiting!.push({ options, resolve, reject }));
  }

  private sendAlone(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const { query, variables, operationName } = options.request as Request & { query: string };
    return this.send({ query, variables: variables ?? {}, operationName }, options);
  }

  private flush(context: object): void {
    const waiting = this.pending.get(context)!;
    this.pending.delete(context);
    if (waiting.length === 1) {
      this.sendAlone(waiting[0].options).then(waiting[0].resolve, waiting[0].reject);
      return;
    }
    const queries = waiting.map((w) => w.options.request.query!);
    const key = queries.join('\n\u0000');
    let merged = this.merged.get(key);
    if (!merged) this.merged.set(key, (merged = merge(queries.map((q) => this.plainQuery(q) as Plain))));
    const variables: Record<string, unknown> = {};
    merged.parts.forEach((part, i) => {
      const own = waiting[i].options.request.variables ?? {};
      for (const [mergedName, name] of part.variables) if (own[name] !== undefined) variables[mergedName] = own[name];
    });
    this.send({ query: merged.query, variables, operationName: merged.operationName }, waiting[0].options).then(
      (response) => split(merged!, response).forEach((reply, i) => waiting[i].resolve(reply)),
      (error) => waiting.forEach((w) => w.reject(error)),
    );
  }

  private plainQuery(query: string): Plain | false {
    let plain = this.plain.get(query);
    if (plain === undefined) {
      plain = false;
      try {
        const document = parse(query, { noLocation: true });
        const operation = document.definitions[0];
        if (document.definitions.length === 1 && operation.kind === Kind.OPERATION_DEFINITION && operation.operation === OperationTypeNode.QUERY && !operation.directives?.length && operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD)) {
          plain = { operation, keys: (operation.selectionSet.selections as FieldNode[]).map((f) => (f.alias ?? f.name).value) };
        }
      } catch {
        plain = false;
      }
      this.plain.set(query, plain);
    }
    return plain;
  }
}

/** One query asking what each of `queries` asks, variables and root fields renamed apart. */
function merge(queries: Plain[]): Merged {
  const definitions: VariableDefinitionNode[] = [];
  const selections: FieldNode[] = [];
  const parts = queries.map(({ operation, keys }, index) => {
    const renamed = visit(operation, {
      Variable: (node) => ({ ...node, name: { ...node.name, value: prefix(index) + node.name.value } }),
    });
    definitions.push(...(renamed.variableDefinitions ?? []));
    for (const field of renamed.selectionSet.selections as FieldNode[]) {
      selections.push({ ...field, alias: { kind: Kind.NAME, value: prefix(index) + (field.alias ?? field.name).value } });
    }
    return {
      variables: (operation.variableDefinitions ?? []).map((d) => [prefix(index) + d.variable.name.value, d.variable.name.value] as [string, string]),
      keys: keys.map((k) => [prefix(index) + k, k] as [string, string]),
    };
  });
  const operationName = `${queries[0].operation.name?.value ?? 'Query'}__batch`;
  const operation: OperationDefinitionNode = {
    kind: Kind.OPERATION_DEFINITION,
    operation: OperationTypeNode.QUERY,
    name: { kind: Kind.NAME, value: operationName },
    variableDefinitions: definitions,
    selectionSet: { kind: Kind.SELECTION_SET, selections },
  };
  return { query: stripIgnoredCharacters(print(operation)), operationName, parts };
}

/** The merged reply as one reply per query. */
function split(merged: Merged, response: GatewayGraphQLResponse): GatewayGraphQLResponse[] {
  const replies: GatewayGraphQLResponse[] = merged.parts.map(({ keys }) => {
    if (response.data === null || response.data === undefined) return response.data === null ? { data: null } : {};
    const data: Record<string, unknown> = {};
    for (const [mergedKey, key] of keys) if (mergedKey in response.data) data[key] = response.data[mergedKey];
    return { data };
  });
  for (const error of response.errors ?? []) {
    const head = error.path?.[0];
    const index = typeof head === 'string' ? merged.parts.findIndex((part) => part.keys.some(([mergedKey]) => mergedKey === head)) : -1;
    if (index >= 0) {
      const own = { ...error, path: [merged.parts[index].keys.find(([mergedKey]) => mergedKey === head)![1], ...error.path!.slice(1)] };
      replies[index].errors = [...(replies[index].errors ?? []), own];
    } else {
      // An error of the whole call (refused variables, a failed request): every query it answered failed with it.
      for (const reply of replies) reply.errors = [...(reply.errors ?? []), error];
    }
  }
  if (response.extensions) replies.forEach((reply) => (reply.extensions = response.extensions));
  return replies;
}
