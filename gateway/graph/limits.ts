/**
 * What an operation costs and what it does, and the plugin that refuses or charges it.
 * Cost (graphql-query-complexity): one per field, plus one per item of a bulk argument (a list
 * of inputs); bounded per operation so one request cannot hold the event loop for long.
 * Work: the homes, vehicles and points it values and the batch items it submits, charged against
 * the plan on every door (./apollo.ts runs the same measure for REST and MCP operations).
 * The document's shape was bounded before either runs (./document-limits.ts).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { GraphQLError, getOperationAST, getVariableValues, isObjectType, type DocumentNode, type GraphQLSchema } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { QuotaExceededError, type OperationWork, type WorkMeter } from '../quota';
import type { GatewayContext } from './context';
import { QUERY_TOO_COMPLEX } from './document-limits';
import { refuseDeepVariables } from './refused-variables';

export interface OperationMeasure extends OperationWork {
  cost: number;
}

const itemsOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/**
 * Root fields that value or score: how many objects one selection of them values. Fields that read
 * what the model in service publishes (residentialModel, marketIndex, vehicleModel, …) value nothing:
 * they are priced like any field (one per selected field) and take no valuation allowance.
 */
const VALUING_ROOT_FIELDS: Readonly<Record<string, (args: Record<string, unknown>) => number>> = {
  homeValuation: () => 1,
  homeValuations: (args) => itemsOf(args.inputs),
  vehicleValuation: () => 1,
  vehicleValuations: (args) => itemsOf(args.inputs),
  locationIndex: () => 1,
  locationIndexes: (args) => itemsOf(args.points),
  // A revaluation values the record's object again, and records it (issue 33, finding 9).
  revalueValuation: () => 1,
  // Each observed price is valued by the model at its date to be scored (issue 33, finding 2).
  recordObservations: (args) => itemsOf((args.input as { observations?: unknown } | undefined)?.observations),
};
/** Root fields that submit batch items: a job filled in several calls is charged call by call. */
const BATCH_ROOT_FIELDS: Readonly<Record<string, (args: Record<string, unknown>) => number>> = {
  submitBatch: (args) => itemsOf((args.input as { items?: unknown } | undefined)?.items),
  appendBatchItems: (args) => itemsOf(args.items),
  // A backtest's observations are batch items too: each is valued, in the background, like a portfolio's home.
  submitBacktest: (args) => itemsOf((args.input as { observations?: unknown } | undefined)?.observations),
  appendBacktestObservations: (args) => itemsOf(args.observations),
};

/** A field taking a list of inputs costs one per item on top of its selection. */
const bulkArgumentEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  for (const value of Object.values(args)) if (Array.isArray(value)) return value.length + childComplexity;
  return undefined;
};

/**
 * Cost and work of one operation. Throws a GraphQLError when it cannot be measured (variables that
 * do not fit, a document past graphql-query-complexity's node limit): the caller decides.
 */
function measureOperation(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): OperationMeasure {
  const work: OperationWork = { valuations: 0, batchItems: 0 };
  const roots = new Set([schema.getQueryType(), schema.getMutationType()].filter(isObjectType));
  // Counts work as the complexity walk meets each root field (aliases and fragments included, @skip honoured); prices nothing itself.
  const workEstimator: ComplexityEstimator = ({ type, field, args }) => {
    if (!roots.has(type as never)) return undefined;
    work.valuations += VALUING_ROOT_FIELDS[field.name]?.(args) ?? 0;
    work.batchItems += BATCH_ROOT_FIELDS[field.name]?.(args) ?? 0;
    return undefined;
  };
  const cost = getComplexity({
    schema,
    query: document,
    operationName,
    variables,
    estimators: [workEstimator, bulkArgumentEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
  return { cost, ...work };
}

/** Whether the variables fit the operation; when they do not, execution answers 400 BAD_USER_INPUT itself. */
function variablesFit(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation) return false;
  return !getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 }).errors;
}

function tooComplex(message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: QUERY_TOO_COMPLEX, ...extensions, http: { status: 400 } } });
}

/**
 * Measures an operation for execution: refuses it (QUERY_TOO_COMPLEX) when it cannot be measured or
 * costs more than `maxCost`; returns undefined for variables that do not fit (nothing will run).
 */
export function measureForExecution(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>, maxCost: number): OperationMeasure | undefined {
  let measure: OperationMeasure;
  try {
    measure = measureOperation(schema, document, operationName, variables);
  } catch (error) {
    if (!variablesFit(schema, document, operationName, variables)) return undefined;
    // A failure to price the operation must never let it run unpriced.
    throw tooComplex(`The operation's cost cannot be computed: ${(error as Error).message}`);
  }
  if (measure.cost > maxCost) throw tooComplex(`query cost ${measure.cost} exceeds the limit of ${maxCost}`, { cost: measure.cost, maxCost });
  return measure;
}

/** A refused charge as GraphQL reports it: code RATE_LIMITED, HTTP 429 with Retry-After. */
function rateLimitedError(error: QuotaExceededError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: { code: error.code, http: { status: 429, headers: new HeaderMap([['retry-after', String(error.retryAfterSeconds)]]) } },
  });
}

/**
 * Measures operations for execution, remembering the measure of a document whose variables hold
 * no lists: the measure depends on the variables only through list lengths, so it is then a
 * property of the document. (Keyed weakly: documents come from Apollo's cache or a persisted operation.)
 */
export class OperationMeasures {
  private readonly byDocument = new WeakMap<DocumentNode, Map<string, OperationMeasure>>();

  constructor(readonly maxCost = 20_000) {}

  /** As measureForExecution: undefined when the variables do not fit (nothing will run). */
  measure(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): OperationMeasure | undefined {
    // First, as nothing below walks a value thousands of levels deep without running out of stack.
    refuseDeepVariables(variables);
    const dependsOnVariables = Object.values(variables).some(hasList);
    const key = operationName ?? '';
    const known = dependsOnVariables ? undefined : this.byDocument.get(document)?.get(key);
    if (known) return known;
    const measure = measureForExecution(schema, document, operationName, variables, this.maxCost);
    if (measure && !dependsOnVariables) this.byDocument.set(document, (this.byDocument.get(document) ?? new Map()).set(key, measure));
    return measure;
  }
}

/** Charges `measure` to the principal's plan, a refusal reported as GraphQL reports it. */
async function chargeOrRefuse(meter: WorkMeter | undefined, principal: GatewayContext['principal'], measure: OperationMeasure): Promise<void> {
  try {
    await meter?.charge(principal, measure);
  } catch (error) {
    throw error instanceof QuotaExceededError ? rateLimitedError(error) : error;
  }
}

/** Refuses operations that cost too much or cannot be priced, and charges the others' work. */
export function operationLimitsPlugin(measures: OperationMeasures, meter?: WorkMeter): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema, contextValue }) {
          const measure = measures.measure(schema, document, request.operationName ?? undefined, request.variables ?? {});
          if (measure) await chargeOrRefuse(meter, contextValue.principal, measure);
        },
      };
    },
  };
}

function hasList(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  return typeof value === 'object' && value !== null && Object.values(value).some(hasList);
}
